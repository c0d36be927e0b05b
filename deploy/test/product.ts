/** The product as `npm start` runs it (scripts/start.mjs), for tests that signal, kill and restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm start`'s script in a process group of its own, so the test can signal the group or the script alone. */
export function startProduct(dataDir: string, port: number, viaNpm = false) {
  const [command, args] = viaNpm ? ['npm', ['start']] : [process.execPath, ['scripts/start.mjs']];
  const child: ChildProcess = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MIN: '0',
      WB_SKIP_SPA_BUILD: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('Whiteboard is running at')) {
        clearInterval(check);
        resolve();
      }
    }, 50);
    void exited.then(() => {
      clearInterval(check);
      reject(new Error(`the product exited during start:\n${out}`));
    });
  });
  return { child, ready, exited, output: () => out, base: `http://127.0.0.1:${port}` };
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export const portClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });

/**
 * The embedded PostgreSQL's processes: its postmaster (from the data directory's pid file) and the
 * postmaster's children. Backends call setsid(), so signalling the postmaster's group misses them.
 */
export function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the command before it may contain spaces.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Kills whatever is left of each product's process group (a test's afterAll). */
export function killProducts(products: Iterable<ReturnType<typeof startProduct>>): void {
  for (const p of products) {
    try {
      process.kill(-p.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
