import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '@wb/db';
import { eventually } from './clients.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const childrenOf = (pid: number): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter(Boolean);

// Issue 8, item 3: Ctrl+C to the local cluster runner's process group stops every service process
// and the infrastructure in order, and the runner exits with them.
describe('local cluster runner stop', () => {
  it('SIGINT to the process group: every child exits, then the runner, with status 0', async () => {
    const port = await freePort();
    const runner = spawn(process.execPath, ['--import', 'tsx', 'deploy/local/main.ts'], {
      cwd: repoRoot,
      detached: true,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    runner.stdout!.on('data', (c) => (out += c));
    runner.stderr!.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => runner.once('exit', (code) => resolve(code)));
    try {
      await eventually(() => out.includes('is running at'), 170_000, `the cluster to start:\n${out}`);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      const children = childrenOf(runner.pid!);
      // PostgreSQL, NATS, FerretDB, the services and the gateway.
      expect(children.length).toBeGreaterThanOrEqual(6);

      process.kill(-runner.pid!, 'SIGINT');
      expect(await exited, out).toBe(0);
      for (const pid of children) expect(alive(pid), `child ${pid} outlived the runner`).toBe(false);
      expect(out).not.toMatch(/shutdown hook failed|terminating connection/);
    } finally {
      if (runner.exitCode === null) process.kill(-runner.pid!, 'SIGKILL');
    }
  }, 300_000);
});
