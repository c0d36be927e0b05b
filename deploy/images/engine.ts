// A Docker engine for building and running the product's images on these machines
// (../shared/INFRA.md §2): Debian's dockerd with no bridge and no NAT, its data kept in the tools
// cache so built images survive between runs. An engine already answering on the socket is used
// as it is; one this module started is stopped by the handle it returns.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const toolsCache = process.env.WB_TOOLS_CACHE ?? path.join(os.homedir(), '.cache', 'wb-tools');
const engineDir = path.join(toolsCache, 'docker');
export const dockerSocket = process.env.WB_DOCKER_SOCKET ?? path.join(engineDir, 'docker.sock');

export interface Engine {
  socketPath: string;
  /** `docker` with DOCKER_HOST pointed at this engine. */
  docker(args: string[], opts?: { input?: string | Buffer; cwd?: string; quiet?: boolean }): string;
  /** A container's output, stdout and stderr together. */
  logs(id: string): string;
  /** Stops the engine if this process started it. */
  stop(): Promise<void>;
}

function dockerCli(socketPath: string): Engine['docker'] {
  return (args, opts = {}) => {
    const r = spawnSync('docker', args, {
      env: { ...process.env, DOCKER_HOST: `unix://${socketPath}`, DOCKER_BUILDKIT: '0' },
      cwd: opts.cwd,
      input: opts.input,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', opts.quiet ? 'pipe' : 'inherit'],
    });
    if (r.status !== 0) throw new Error(`docker ${args.join(' ')} failed (exit ${r.status ?? r.signal})${r.stderr ? `: ${r.stderr.slice(-2000)}` : ''}`);
    return r.stdout;
  };
}

function logsOf(socketPath: string) {
  return (id: string) => {
    const r = spawnSync('docker', ['logs', '--tail', '60', id], { env: { ...process.env, DOCKER_HOST: `unix://${socketPath}` }, encoding: 'utf8' });
    return `${r.stdout ?? ''}${r.stderr ?? ''}`;
  };
}

function answers(socketPath: string): boolean {
  if (!existsSync(socketPath)) return false;
  const r = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    env: { ...process.env, DOCKER_HOST: `unix://${socketPath}` },
    stdio: 'ignore',
    timeout: 10_000,
  });
  return r.status === 0;
}

export async function ensureEngine(): Promise<Engine> {
  const docker = dockerCli(dockerSocket);
  const logs = logsOf(dockerSocket);
  if (answers(dockerSocket)) return { socketPath: dockerSocket, docker, logs, stop: async () => {} };
  const dockerd = ['/usr/sbin/dockerd', '/usr/bin/dockerd'].find((p) => existsSync(p));
  if (!dockerd) throw new Error('dockerd is not installed: run node scripts/cluster-tools.mjs docker');
  mkdirSync(engineDir, { recursive: true });
  const pidFile = path.join(engineDir, 'docker.pid');
  // A stale pid file from a killed engine makes dockerd refuse to start.
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(pidFile, { force: true });
    }
  }
  const child = spawn(
    dockerd,
    [
      '--iptables=false',
      '--ip6tables=false',
      '--bridge=none',
      '--ip-forward=false',
      '--ip-masq=false',
      `--data-root=${path.join(engineDir, 'data')}`,
      `--exec-root=${path.join(engineDir, 'exec')}`,
      `--pidfile=${pidFile}`,
      `-H`,
      `unix://${dockerSocket}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let log = '';
  child.stderr.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!answers(dockerSocket)) {
    if (child.exitCode !== null) throw new Error(`dockerd exited at start: ${log}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`dockerd did not answer within 60 s: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    socketPath: dockerSocket,
    docker,
    logs,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
