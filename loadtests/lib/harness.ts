import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the figures were measured on; printed with every result. */
export function machineInfo(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function commandLine(): string {
  return process.env.BENCH_COMMAND ?? `node --import tsx ${path.relative(repoRoot, process.argv[1] ?? '')} ${process.argv.slice(2).join(' ')}`.trim();
}

export interface StackProcess {
  url: string;
  databaseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the whole product (embedded mode) in a child process, so the load generator in this
 * process does not share an event loop with the server. On 2 cores they still share the CPU.
 */
export async function startStack(env: Record<string, string> = {}): Promise<StackProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wb-bench-'));
  const port = 18000 + Math.floor(Math.random() * 2000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/embedded/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A benchmark that throws must not leave the server running (and the bench hanging on it).
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  let databaseUrl = '';
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const db = /\(PostgreSQL: (\S+)\)/.exec(out);
      if (db) {
        databaseUrl = db[1]!;
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`stack exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    databaseUrl,
    pid: child.pid!,
    async stop() {
      process.off('exit', killChild);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function api<T = unknown>(base: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface LoadResult {
  name: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

export async function load(
  name: string,
  opts: { url: string; connections: number; duration: number; method?: string; headers?: Record<string, string>; body?: string; warmup?: number },
): Promise<LoadResult> {
  if (opts.warmup) {
    await autocannon({ url: opts.url, connections: opts.connections, duration: opts.warmup, method: (opts.method ?? 'GET') as never, headers: opts.headers, body: opts.body });
  }
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.duration,
    method: (opts.method ?? 'GET') as never,
    headers: opts.headers,
    body: opts.body,
  });
  return {
    name,
    connections: opts.connections,
    seconds: opts.duration,
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export function printResults(title: string, results: LoadResult[]): void {
  console.log(`\n## ${title}`);
  console.log(`command: ${commandLine()}`);
  console.log(`machine: ${machineInfo()}`);
  console.log('| scenario | conns | req/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors | non-2xx |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.requests} | ${r.errors} | ${r.non2xx} |`);
  }
}
