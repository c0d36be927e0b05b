import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wb/db';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `wb-${prefix}-`));
}

export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ManagedProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Graceful stop (SIGTERM), waits for exit. */
  stop(): Promise<void>;
  /** Hard stop (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

function manage(child: ChildProcess, port: number, url: string): ManagedProcess {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { url, port, child, stop: () => send('SIGTERM'), kill: () => send('SIGKILL') };
}

/** Finds a binary the infra script installed: PATH first, then the repo's .tools/bin, then ~/go/bin. */
export function findBinary(name: string): string {
  const candidates = [
    ...(process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, name)),
    path.join(repoRoot, '.tools', 'bin', name),
    path.join(os.homedir(), 'go', 'bin', name),
    path.join('/usr/sbin', name),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${name} not found; run: node scripts/ensure-infra.mjs`);
  return found;
}

/** A real nats-server with JetStream, storing in a temporary directory. */
export async function startNats(opts: { port?: number; storeDir?: string } = {}): Promise<ManagedProcess> {
  const port = opts.port ?? (await freePort());
  const storeDir = opts.storeDir ?? (await tempDir('nats'));
  const child = spawn(findBinary('nats-server'), ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: 'ignore',
  });
  await waitForPort(port);
  return manage(child, port, `nats://127.0.0.1:${port}`);
}

/** A real MongoDB-protocol server (FerretDB 1.x on SQLite). */
export async function startMongo(opts: { port?: number; dataDir?: string } = {}): Promise<ManagedProcess> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? (await tempDir('ferret'));
  const child = spawn(
    findBinary('wb-ferretdb'),
    ['--listen-addr', `127.0.0.1:${port}`, '--handler', 'sqlite', '--sqlite-url', `file:${dataDir}/`],
    { stdio: 'ignore' },
  );
  await waitForPort(port);
  return manage(child, port, `mongodb://127.0.0.1:${port}/`);
}
