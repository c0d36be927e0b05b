/**
 * Realtime fan-out benchmark for any y-websocket-compatible server.
 *
 *   node --import tsx loadtests/realtime/bench.ts                         # starts auth + boards + realtime itself
 *   node --import tsx loadtests/realtime/bench.ts --url ws://host:port/yjs --token T [--board-ids a,b] [--metrics-url http://host:port/metrics] [--pid N]
 *   npm run bench -- realtime [--clients 1000] [--boards 100] [--rate 1] [--idle 0] [--duration 30]
 *
 * Each active client sends a small Yjs update `rate` times a second; the update carries its send
 * time, so every receiver measures fan-out latency (send → delivery to another client of the
 * board). Idle clients connect, sync and stay silent, to measure the server's memory per
 * connection. The load generator runs on the same machine as the server and competes for CPU.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string' },
    'board-ids': { type: 'string' },
    'metrics-url': { type: 'string' },
    pid: { type: 'string' },
    clients: { type: 'string', default: '1000' },
    boards: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1' },
    idle: { type: 'string', default: '0' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
  },
  allowPositionals: true,
});
const CLIENTS = Number(args.clients);
const BOARDS = Number(args.boards);
const RATE = Number(args.rate);
const IDLE = Number(args.idle);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const MARK = Buffer.from('BENCHTS');

// ---------------------------------------------------------------- server side

interface Target {
  wsUrl: string;
  token: string;
  boardIds: string[];
  metricsUrl?: string;
  pid?: number;
  stop(): Promise<void>;
}

async function selfStart(): Promise<Target> {
  const { startPostgres, createDatabase } = await import('@wb/testkit');
  const { createPool, freePort } = await import('@wb/db');
  const { createInProcessTransport } = await import('@wb/events');
  const { createLogger, createTokenVerifier, listen, parseConfig } = await import('@wb/service-kit');
  const { AuthConfigSchema, createAuthService } = await import('../../services/auth/src/app.ts');
  const { createBoardsService } = await import('../../services/boards/src/app.ts');
  const log = createLogger('bench', 'silent');
  const pg = await startPostgres();
  const transport = createInProcessTransport();
  const authPool = createPool({ url: await createDatabase(pg.url), schema: 'auth' });
  const auth = await createAuthService({
    pool: authPool,
    transport,
    logger: log,
    config: parseConfig(AuthConfigSchema, { DATABASE_URL: 'postgres://unused/x', LOG_LEVEL: 'silent', ACCESS_TOKEN_TTL: '2h', AUTH_RATE_LIMIT_PER_MIN: '0' }),
  });
  await auth.start();
  const authSrv = await listen(auth.app, 0, '127.0.0.1');
  const jwksUrl = `http://127.0.0.1:${authSrv.port}/internal/jwks`;
  const boardsPool = createPool({ url: await createDatabase(pg.url), schema: 'boards', max: 30 });
  const boards = await createBoardsService({ pool: boardsPool, transport, logger: log, config: { http: { bodyLimit: '100kb' } }, verifier: createTokenVerifier({ jwksUrl }) });
  await boards.start();
  const boardsSrv = await listen(boards.app, 0, '127.0.0.1');
  const boardsBase = `http://127.0.0.1:${boardsSrv.port}`;

  const post = async (base: string, p: string, body: unknown, token?: string) => {
    const r = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  // Real tokens from the real auth service: no bypass exists in the realtime service.
  const reg = await post(`http://127.0.0.1:${authSrv.port}`, '/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'bench-password-1', name: 'Bench' });
  const token: string = reg.accessToken;
  const boardIds: string[] = [];
  for (let i = 0; i < BOARDS; i++) boardIds.push((await post(boardsBase, '/api/boards', { title: `bench ${i}` }, token)).board.id);

  const port = await freePort();
  const rtDb = await createDatabase(pg.url);
  // `ulimit -n` is raised for the server in its shell; the generator's own limit is checked below.
  const child: ChildProcess = spawn('bash', ['-c', 'ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec "$0" --import tsx services/realtime/src/main.ts', process.execPath], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: rtDb,
      BOARDS_INTERNAL_URL: boardsBase,
      AUTH_JWKS_URL: jwksUrl,
      MAX_CONNECTIONS_PER_BOARD: '100000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const { waitForPort } = await import('@wb/testkit');
  await waitForPort(port, 60_000);
  return {
    wsUrl: `ws://127.0.0.1:${port}/yjs`,
    token,
    boardIds,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await boardsSrv.close();
      await boards.stop();
      await authSrv.close();
      await auth.stop();
      await boardsPool.end();
      await authPool.end();
      await transport.close();
      await pg.stop();
    },
  };
}

function external(): Target {
  if (!args.url) throw new Error('--url is required with an external server');
  const boardIds = args['board-ids'] ? args['board-ids'].split(',') : Array.from({ length: BOARDS }, (_, i) => `bench-${i}`);
  const httpBase = args.url.replace(/^ws/, 'http').replace(/\/yjs\/?$/, '');
  return {
    wsUrl: args.url.replace(/\/$/, ''),
    token: args.token ?? '',
    boardIds,
    metricsUrl: args['metrics-url'] ?? `${httpBase}/metrics`,
    pid: args.pid ? Number(args.pid) : undefined,
    async stop() {},
  };
}

// ---------------------------------------------------------------- server resource usage

interface Usage {
  rssBytes: number;
  cpuSeconds: number;
}

const CLK_TCK = 100;
async function serverUsage(t: Target): Promise<Usage | null> {
  if (t.pid) {
    try {
      // The bash wrapper exec'd node, so the pid is node's.
      const stat = readFileSync(`/proc/${t.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const status = readFileSync(`/proc/${t.pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return { rssBytes: rssKb * 1024, cpuSeconds: (Number(stat[11]) + Number(stat[12])) / CLK_TCK };
    } catch {
      /* not on this machine: fall back to /metrics */
    }
  }
  if (!t.metricsUrl) return null;
  try {
    const text = await (await fetch(t.metricsUrl)).text();
    const num = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)`, 'm').exec(text)?.[1] ?? NaN);
    return { rssBytes: num('process_resident_memory_bytes'), cpuSeconds: num('process_cpu_seconds_total') };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- clients

interface Client {
  ws: WebSocket;
  board: string;
  doc: Y.Doc | null;
  seq: number;
}

const latencies: number[] = [];
let received = 0;
let sent = 0;
let closedUnexpectedly = 0;
let measuring = false;

function syncStep1(): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()));
  return encoding.toUint8Array(e);
}
const STEP1 = syncStep1();

function onMessage(data: Buffer): void {
  // Only live updates count (type 0 / sync 2); the initial sync answer carries old timestamps.
  if (data[0] !== 0 || data[1] !== 2) return;
  received++;
  const at = data.indexOf(MARK);
  if (at < 0 || !measuring) return;
  const end = data.indexOf(0x7c, at); // '|'
  const ts = Number(data.subarray(at + MARK.length, end).toString());
  if (Number.isFinite(ts)) latencies.push(performance.timeOrigin + performance.now() - ts);
}

function open(t: Target, board: string, active: boolean): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.wsUrl}/${board}?token=${encodeURIComponent(t.token)}`, { perMessageDeflate: false });
    const c: Client = { ws, board, doc: active ? new Y.Doc() : null, seq: 0 };
    const timer = setTimeout(() => reject(new Error('connect timeout')), 60_000);
    ws.on('open', () => {
      clearTimeout(timer);
      ws.send(STEP1);
      resolve(c);
    });
    ws.on('message', (d: Buffer) => active && onMessage(d));
    ws.on('close', (code) => {
      if (code !== 1000 && code !== 1005) closedUnexpectedly++;
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function sendUpdate(c: Client): void {
  if (c.ws.readyState !== WebSocket.OPEN || !c.doc) return;
  let update: Uint8Array | null = null;
  const handler = (u: Uint8Array) => (update = u);
  c.doc.once('update', handler);
  const now = performance.timeOrigin + performance.now();
  c.doc.getMap('bench').set(String(c.doc.clientID), `BENCHTS${now.toFixed(3)}|${c.seq++}`);
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, update!);
  c.ws.send(encoding.toUint8Array(e));
  sent++;
}

async function openMany(t: Target, n: number, active: boolean, concurrency = 100): Promise<Client[]> {
  const out: Client[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out.push(await open(t, t.boardIds[i % t.boardIds.length]!, active));
      }
    }),
  );
  return out;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);

async function main() {
  const fdLimit = Number((await new Promise<string>((r) => {
    const p = spawn('bash', ['-c', 'ulimit -n']);
    let s = '';
    p.stdout.on('data', (d) => (s += d));
    p.on('exit', () => r(s.trim()));
  })));
  if (fdLimit < CLIENTS + IDLE + 1000) {
    console.error(`open-files limit ${fdLimit} is below ${CLIENTS + IDLE + 1000}; run: ulimit -n ${CLIENTS + IDLE + 2000} first`);
    process.exit(2);
  }
  const t = args.url ? external() : await selfStart();
  const rows: Array<[string, string]> = [];
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const base = await serverUsage(t);

    if (IDLE > 0) {
      const started = Date.now();
      const idle = await openMany(t, IDLE, false);
      await new Promise((r) => setTimeout(r, 5000)); // let the server settle (GC, buffers)
      if (typeof global.gc === 'function') global.gc();
      const after = await serverUsage(t);
      rows.push(['idle connections', `${idle.filter((c) => c.ws.readyState === WebSocket.OPEN).length} / ${IDLE} open (in ${((Date.now() - started) / 1000).toFixed(1)} s)`]);
      if (base && after) {
        rows.push(['server RSS before → after', `${mib(base.rssBytes)} MiB → ${mib(after.rssBytes)} MiB`]);
        rows.push(['server memory per idle connection', `${((after.rssBytes - base.rssBytes) / IDLE / 1024).toFixed(1)} KiB`]);
      }
      for (const c of idle) c.ws.close(1000);
    }

    if (CLIENTS > 0) {
      const clients = await openMany(t, CLIENTS, true);
      await new Promise((r) => setTimeout(r, 1000));
      const timers = clients.map((c) =>
        setTimeout(() => {
          sendUpdate(c);
          (c as any).timer = setInterval(() => sendUpdate(c), 1000 / RATE);
        }, Math.random() * (1000 / RATE)),
      );
      await new Promise((r) => setTimeout(r, WARMUP * 1000));
      measuring = true;
      const u0 = await serverUsage(t);
      const s0 = sent;
      const r0 = received;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, DURATION * 1000));
      const secs = (Date.now() - t0) / 1000;
      const u1 = await serverUsage(t);
      measuring = false;
      const s1 = sent;
      const r1 = received;
      for (const tm of timers) clearTimeout(tm);
      for (const c of clients) clearInterval((c as any).timer);
      const sorted = latencies.sort((a, b) => a - b);
      rows.push(['active clients / boards / rate', `${CLIENTS} / ${t.boardIds.length} / ${RATE} per s each`]);
      rows.push(['updates sent (accepted by server)', `${((s1 - s0) / secs).toFixed(0)} /s`]);
      rows.push(['updates delivered (fan-out)', `${((r1 - r0) / secs).toFixed(0)} /s`]);
      rows.push(['fan-out latency p50 / p95 / p99 / max', `${pct(sorted, 50).toFixed(1)} / ${pct(sorted, 95).toFixed(1)} / ${pct(sorted, 99).toFixed(1)} / ${sorted.at(-1)?.toFixed(1)} ms (${sorted.length} samples)`]);
      if (u0 && u1) {
        rows.push(['server CPU', `${(((u1.cpuSeconds - u0.cpuSeconds) / secs) * 100).toFixed(0)} % of one core`]);
        rows.push(['server RSS', `${mib(u1.rssBytes)} MiB (${(u1.rssBytes / CLIENTS / 1024).toFixed(0)} KiB per active connection, all included)`]);
      }
      rows.push(['unexpected closes', String(closedUnexpectedly)]);
      for (const c of clients) c.ws.close(1000);
    }
  } finally {
    await new Promise((r) => setTimeout(r, 500));
    await t.stop();
  }

  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('\nRealtime benchmark');
  console.log('─'.repeat(width + 40));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log('─'.repeat(width + 40));
  console.log(`command: ${process.env.BENCH_COMMAND ?? `node --import tsx loadtests/realtime/bench.ts ${process.argv.slice(2).join(" ")}`}`);
  console.log(`machine: nproc=${os.cpus().length} (${os.cpus()[0]?.model}), memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`);
  console.log(`target: ${args.url ? args.url : 'self-started realtime child (Postgres store, single replica) + auth + boards in the generator process'}`);
  console.log('note: load generator and server share this machine\'s cores; latencies include the generator\'s own scheduling delay.');
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
