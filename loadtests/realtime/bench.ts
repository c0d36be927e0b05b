/**
 * Realtime fan-out benchmark for any y-websocket-compatible server, and side by side with
 * Hocuspocus and @y/websocket-server.
 *
 *   npm run bench -- realtime [--clients 1000] [--boards 100] [--rate 1] [--idle 0] [--duration 30]
 *       starts auth + boards + our realtime (PostgreSQL store) itself, as the embedded mode runs it:
 *       the update log's local journal in front of PostgreSQL; --direct-store: a round trip to
 *       PostgreSQL per group commit instead (as a cluster replica without a journal)
 *   ... --url ws://host:port/yjs --token T [--board-ids a,b] [--metrics-url URL] [--pid N] [--hocuspocus]
 *       any server: y-websocket protocol, or Hocuspocus's (document name in front of every message)
 *   ... --compare [--rounds 3] [--peer-persistence]
 *       installs @hocuspocus/server and @y/websocket-server into a scratch folder (never into the
 *       product), runs ours and both peers in alternating rounds, prints one table with ratios.
 *       --peer-persistence: the peers keep documents as their own persistence does (y-websocket:
 *       YPERSISTENCE, LevelDB; Hocuspocus: its Database extension on SQLite, as extension-sqlite)
 *
 * Each active client writes `rate` small Yjs updates a second (a new key each time, carrying the
 * send time, the sender and a sequence number). Receivers find every such mark in a message, so a
 * merged message counts all the updates it carries; a client's own update coming back is an echo
 * and not a delivery. After each run the harness checks that every update sent reached every
 * other client of its board. Idle clients connect, sync and stay silent (memory per connection).
 * Servers the harness starts are preloaded with sampler.mjs: event-loop utilisation, heap, GC.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { nodeFlagsOf } from '../../deploy/services.ts';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const SAMPLER = path.join(here, 'sampler.mjs');
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string' },
    'board-ids': { type: 'string' },
    'metrics-url': { type: 'string' },
    pid: { type: 'string' },
    hocuspocus: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    compare: { type: 'boolean', default: false },
    'peer-persistence': { type: 'boolean', default: false },
    'direct-store': { type: 'boolean', default: false },
    rounds: { type: 'string' },
    replicas: { type: 'string', default: '1' },
    scratch: { type: 'string', default: path.join(os.tmpdir(), 'rt-compare') },
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
const REPLICAS = Number(args.replicas);
/**
 * Where clients go when ours runs as several replicas. 'routed': each board's clients to the
 * replica the gateway picks for it (rendezvous hashing on the board id, REALTIME_REPLICA_URLS), so
 * the relay carries nothing. 'spread': client i to replica floor(i / boards) mod n, so every board
 * has clients on each and half of each board's deliveries cross NATS: the worst case, what a
 * board sees while it is caught between replicas (one starting or stopping, a plain round-robin
 * balancer in front instead of the gateway).
 */
type Placement = 'routed' | 'spread';
const PLACEMENT_TEXT: Record<Placement, string> = {
  routed: "each board's clients on the replica the gateway routes it to",
  spread: "each board's clients spread over all replicas (worst case)",
};
const MARK = Buffer.from('BENCHTS');

// ---------------------------------------------------------------- servers

/** What is running now, stopped in reverse on Ctrl+C too (no orphaned PostgreSQL or servers). */
const running = new Set<() => Promise<void>>();
function tracked(stop: () => Promise<void>): () => Promise<void> {
  const once = async () => {
    running.delete(once);
    await stop();
  };
  running.add(once);
  return once;
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void (async () => {
      for (const stop of [...running].reverse()) await stop().catch(() => {});
      process.exit(130);
    })();
  });
}

/** One server process (a replica of ours, or a peer). */
interface Server {
  wsUrl: string;
  metricsUrl?: string;
  pid?: number;
  sampleFile?: string;
}

interface Target {
  name: string;
  /** Several for replicas, clients placed on them by `placement`. */
  servers: Server[];
  placement: Placement;
  /** With placement 'routed': each board's server, as the gateway picks it. */
  routes?: Map<string, number>;
  token: string;
  boardIds: string[];
  hocuspocus: boolean;
  stop(): Promise<void>;
}

function sampleFile(name: string): string {
  const f = path.join(os.tmpdir(), `rt-bench-${process.pid}-${name}.jsonl`);
  rmSync(f, { force: true });
  return f;
}

/**
 * --pin: the load generator (this harness) gets its own core(s); the servers under test and what
 * ours stores and relays through (PostgreSQL, NATS) share the last core. Each server then has one
 * core for itself and its infrastructure, and the generator's bursts of 1,000 sockets do not
 * delay the server's, or its store's, wake-ups. Auth and boards live in this process but are
 * idle once the clients are admitted.
 */
const SERVER_CPU = String(os.cpus().length - 1);
const OTHER_CPUS = os.cpus().length > 1 ? `0-${os.cpus().length - 2}` : '0';
const PIN = args.pin && os.cpus().length > 1 && existsSync('/usr/bin/taskset');

function pinSelf(cpus: string): void {
  if (!PIN) return;
  // Every thread of this process; children started afterwards inherit it.
  const r = spawnSync('taskset', ['-apc', cpus, String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset failed: ${r.stderr}`);
}

/** Starts infrastructure of the servers under test (PostgreSQL, NATS) on the servers' core. */
async function onServerCpu<T>(start: () => Promise<T>): Promise<T> {
  pinSelf(SERVER_CPU);
  try {
    return await start();
  } finally {
    pinSelf(OTHER_CPUS);
  }
}

/** Spawns node with the sampler preloaded and a raised open-files limit. */
function spawnNode(nodeArgs: string[], env: Record<string, string | undefined>, cwd: string): ChildProcess {
  const pin = PIN ? `taskset -c ${SERVER_CPU} ` : '';
  // Experiments on every server under test alike (V8 flags, --trace-gc, --heap-prof), space-separated.
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawn('bash', ['-c', `ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec ${pin}"$0" "$@"`, process.execPath, '--expose-gc', '--import', SAMPLER, ...extra, ...nodeArgs], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Auth and boards in this process on an embedded PostgreSQL: real tokens and boards for ours. */
async function startPlatform() {
  // Ours runs from its compiled JavaScript (spawnOurs): build what changed since the last build.
  await (await import('../../scripts/lib/backend-build.mjs')).buildBackendIfStale();
  const { startPostgres, createDatabase } = await import('@wb/testkit');
  const { createPool } = await import('@wb/db');
  const { createInProcessTransport } = await import('@wb/events');
  const { createLogger, createTokenVerifier, listen, parseConfig } = await import('@wb/service-kit');
  const { AuthConfigSchema, createAuthService } = await import('../../services/auth/src/app.ts');
  const { createBoardsService } = await import('../../services/boards/src/app.ts');
  const log = createLogger('bench', 'silent');
  const pg = await onServerCpu(() => startPostgres({ dedicated: true }));
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
    return r.json() as Promise<{ accessToken: string; board: { id: string } }>;
  };
  // Real tokens from the real auth service: no bypass exists in the realtime service.
  const reg = await post(`http://127.0.0.1:${authSrv.port}`, '/api/auth/register', { email: `bench-${Date.now()}@example.com`, password: 'bench-password-1', name: 'Bench' });
  const token: string = reg.accessToken;
  const boardIds: string[] = [];
  for (let i = 0; i < BOARDS; i++) boardIds.push((await post(boardsBase, '/api/boards', { title: `bench ${i}` }, token)).board.id);
  return {
    pgUrl: pg.url,
    createDatabase,
    jwksUrl,
    boardsBase,
    token,
    boardIds,
    stop: tracked(async () => {
      await boardsSrv.close();
      await boards.stop();
      await authSrv.close();
      await auth.stop();
      await boardsPool.end();
      await authPool.end();
      await transport.close();
      await pg.stop();
    }),
  };
}
type Platform = Awaited<ReturnType<typeof startPlatform>>;

/**
 * Our realtime as child processes: one, or `replicas` over a nats-server of their own (started
 * here, as the cluster runner does), all on one PostgreSQL database.
 */
async function startOurs(p: Platform, replicas = 1, placement: Placement = 'routed'): Promise<Target> {
  const { freePort } = await import('@wb/db');
  const { waitForPort, startNats } = await import('@wb/testkit');
  const nats = replicas > 1 ? await onServerCpu(() => startNats()) : null;
  const stopNats = nats ? tracked(() => nats.stop()) : null;
  const databaseUrl = await p.createDatabase(p.pgUrl);
  const name = replicas > 1 ? `ours ×${replicas}${placement === 'spread' ? ' spread' : ''}` : 'ours';
  const children: ChildProcess[] = [];
  const servers: Server[] = [];
  const journalDirs: string[] = [];
  const stopChildren = tracked(async () => {
    await Promise.all(children.map(stopChild));
    await stopNats?.();
    // Empty after a clean stop (everything shipped); whatever a crashed replica left is of no use here.
    for (const d of journalDirs) rmSync(d, { recursive: true, force: true });
  });
  for (let r = 0; r < replicas; r++) {
    const port = await freePort();
    const samples = sampleFile(`ours-${replicas}-${r}`);
    // As the embedded mode runs it: the update log's journal in a directory of each replica's own.
    const journalDir = args['direct-store'] ? undefined : path.join(os.tmpdir(), `rt-bench-journal-${process.pid}-${r}`);
    if (journalDir) {
      rmSync(journalDir, { recursive: true, force: true });
      journalDirs.push(journalDir);
    }
    children.push(spawnOurs(p, { port, databaseUrl, samples, natsUrl: nats?.url, replicaId: replicas > 1 ? `bench-${r}` : undefined, journalDir }));
    servers.push({ wsUrl: `ws://127.0.0.1:${port}/yjs`, metricsUrl: `http://127.0.0.1:${port}/metrics`, pid: children[r]!.pid, sampleFile: samples });
  }
  for (const srv of servers) await waitForPort(Number(new URL(srv.wsUrl).port), 120_000);
  // The gateway's own choice (REALTIME_REPLICA_URLS lists the replicas' base URLs).
  const { rendezvous } = await import('@wb/gateway');
  const origins = servers.map((srv) => `http://${new URL(srv.wsUrl).host}`);
  const routes = new Map(p.boardIds.map((b) => [b, origins.indexOf(rendezvous(b, origins)!)]));
  if (replicas > 1 && placement === 'routed') {
    const perReplica = servers.map((_, i) => [...routes.values()].filter((r) => r === i).length);
    console.log(`${name}: boards per replica as the gateway routes them: ${perReplica.join(' / ')}`);
  }
  return { name, servers, placement, routes, token: p.token, boardIds: p.boardIds, hocuspocus: false, stop: stopChildren };
}

function spawnOurs(p: Platform, o: { port: number; databaseUrl: string; samples: string; natsUrl?: string; replicaId?: string; journalDir?: string }): ChildProcess {
  return spawnNode(
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      // As production runs it: compiled JavaScript (under tsx the loader's thread and the sources it
      // compiled added about 20 MiB, 133 → 111 MiB, to a baseline no deployment carries), with the
      // V8 flags the service runs with as a process of its own (deploy/node-flags.json).
      ...nodeFlagsOf('@wb/realtime'),
      '--conditions=wb-dist',
      'services/realtime/dist/main.js',
    ],
    {
      PORT: String(o.port),
      DATABASE_URL: o.databaseUrl,
      UPDATE_LOG_JOURNAL_DIR: o.journalDir,
      ...(o.natsUrl ? { NATS_URL: o.natsUrl, REPLICA_ID: o.replicaId } : {}),
      BOARDS_INTERNAL_URL: p.boardsBase,
      AUTH_JWKS_URL: p.jwksUrl,
      MAX_CONNECTIONS_PER_BOARD: '100000',
      MAX_ANONYMOUS_PER_BOARD: '100000',
      MESSAGES_PER_SECOND: '100000',
      MESSAGE_BURST: '100000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      BENCH_SAMPLE_FILE: o.samples,
    },
    repoRoot,
  );
}

const PEER_SCRIPTS: Record<string, string> = {
  'y-websocket.mjs': `import http from 'node:http';
import { WebSocketServer } from 'ws';
import { setupWSConnection } from '@y/websocket-server/utils';
const server = http.createServer((_q, r) => r.end('ok'));
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws, req) => setupWSConnection(ws, req));
server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
server.listen(Number(process.env.PORT), '127.0.0.1');
`,
  // With PEER_PERSIST_DIR: @hocuspocus/extension-sqlite's schema and queries on Node's own SQLite
  // (extension-sqlite needs better-sqlite3, whose install script downloads a binary this machine
  // cannot fetch), through the Database extension it is built on, with Hocuspocus's defaults.
  'hocuspocus.mjs': `import * as hp from '@hocuspocus/server';
const extensions = [];
if (process.env.PEER_PERSIST_DIR) {
  const { Database } = await import('@hocuspocus/extension-database');
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(process.env.PEER_PERSIST_DIR + '/hocuspocus.sqlite');
  db.exec('CREATE TABLE IF NOT EXISTS "documents" ("name" varchar(255) NOT NULL, "data" blob NOT NULL, UNIQUE(name))');
  const select = db.prepare('SELECT data FROM "documents" WHERE name = $name ORDER BY rowid DESC');
  const upsert = db.prepare('INSERT INTO "documents" ("name", "data") VALUES ($name, $data) ON CONFLICT(name) DO UPDATE SET data = $data');
  extensions.push(new Database({
    fetch: async ({ documentName }) => select.get({ name: documentName })?.data ?? null,
    store: async ({ documentName, state }) => void upsert.run({ name: documentName, data: state }),
  }));
}
const opts = { port: Number(process.env.PORT), address: '127.0.0.1', quiet: true, extensions };
const server = typeof hp.Server === 'function' && hp.Server.prototype ? new hp.Server(opts) : hp.Server.configure(opts);
await server.listen();
`,
};

/** Installs the peers into the scratch folder (once) and writes their start scripts there. */
async function preparePeers(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"name":"rt-compare","private":true,"type":"module"}\n');
  const version = (m: string) => {
    const f = path.join(dir, 'node_modules', m, 'package.json');
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { version: string }).version : null;
  };
  // @y/websocket-server 0.1.5 depends on a Yjs 14 pre-release that does not interoperate with the
  // Yjs 13 clients here (nothing is delivered); 0.1.1 is the last release on Yjs 13.
  const ready =
    version('@hocuspocus/server') !== null &&
    version('@hocuspocus/extension-database') !== null &&
    version('@y/websocket-server') === '0.1.1' &&
    version('ws')?.startsWith('8.');
  if (!ready) {
    console.error(`installing @hocuspocus/server and @y/websocket-server into ${dir} …`);
    await new Promise<void>((resolve, reject) => {
      const npm = spawn('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '@hocuspocus/server@4', '@hocuspocus/extension-database@4', '@y/websocket-server@0.1.1', 'ws@8'], { stdio: 'inherit' });
      npm.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm install exited with ${code}`))));
    });
  }
  for (const [file, text] of Object.entries(PEER_SCRIPTS)) writeFileSync(path.join(dir, file), text);
}

async function startPeer(dir: string, name: 'y-websocket' | 'hocuspocus'): Promise<Target> {
  const { freePort } = await import('@wb/db');
  const { waitForPort } = await import('@wb/testkit');
  const port = await freePort();
  const samples = sampleFile(name);
  // A fresh store each run: y-websocket's own (YPERSISTENCE: every update into LevelDB as it is
  // applied, alongside the broadcast) and Hocuspocus's Database extension (the whole document,
  // debounced as Hocuspocus does by default).
  const persistDir = args['peer-persistence'] ? path.join(dir, `store-${name}-${process.pid}-${Date.now()}`) : null;
  if (persistDir) mkdirSync(persistDir, { recursive: true });
  const persistEnv = !persistDir ? {} : name === 'y-websocket' ? { YPERSISTENCE: path.join(persistDir, 'leveldb') } : { PEER_PERSIST_DIR: persistDir };
  const child = spawnNode([path.join(dir, `${name}.mjs`)], { PORT: String(port), NODE_ENV: 'production', BENCH_SAMPLE_FILE: samples, ...persistEnv }, dir);
  await waitForPort(port, 60_000);
  return {
    name,
    servers: [{ wsUrl: `ws://127.0.0.1:${port}`, pid: child.pid, sampleFile: samples }],
    placement: 'routed',
    token: 'bench',
    boardIds: Array.from({ length: BOARDS }, (_, i) => `bench-${i}`),
    hocuspocus: name === 'hocuspocus',
    stop: tracked(async () => {
      await stopChild(child);
      if (persistDir) rmSync(persistDir, { recursive: true, force: true });
    }),
  };
}

function external(): Target {
  if (!args.url) throw new Error('--url is required with an external server');
  const boardIds = args['board-ids'] ? args['board-ids'].split(',') : Array.from({ length: BOARDS }, (_, i) => `bench-${i}`);
  const httpBase = args.url.replace(/^ws/, 'http').replace(/\/yjs\/?$/, '');
  return {
    name: 'external',
    servers: [{ wsUrl: args.url.replace(/\/$/, ''), metricsUrl: args['metrics-url'] ?? `${httpBase}/metrics`, pid: args.pid ? Number(args.pid) : undefined }],
    placement: 'routed',
    token: args.token ?? '',
    boardIds,
    hocuspocus: args.hocuspocus ?? false,
    async stop() {},
  };
}

// ---------------------------------------------------------------- server resource usage

interface Usage {
  rssBytes: number;
  cpuSeconds: number;
}

const CLK_TCK = 100;
/** Summed over the target's processes (replicas). */
async function serverUsage(t: Target): Promise<Usage | null> {
  const each = await Promise.all(t.servers.map(processUsage));
  if (each.some((u) => u === null)) return null;
  return { rssBytes: each.reduce((a, u) => a + u!.rssBytes, 0), cpuSeconds: each.reduce((a, u) => a + u!.cpuSeconds, 0) };
}

async function processUsage(t: Server): Promise<Usage | null> {
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

interface LiveMemory {
  heapUsed: number;
  external: number;
  rss: number;
}

/**
 * Live memory after a full GC, summed over the target's processes: the sampler collects on
 * SIGUSR2 and appends a line. Null for servers the harness did not start.
 */
async function liveMemory(t: Target): Promise<LiveMemory | null> {
  const total: LiveMemory = { heapUsed: 0, external: 0, rss: 0 };
  for (const srv of t.servers) {
    if (!srv.pid || !srv.sampleFile) return null;
    const since = Date.now();
    process.kill(srv.pid, 'SIGUSR2');
    let line: { heapUsed: number; external: number; rss: number; collected: boolean } | undefined;
    for (let i = 0; i < 600 && !line; i++) {
      await sleep(100);
      line = readFileSync(srv.sampleFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind":"gc"'))
        .map((l) => JSON.parse(l) as { t: number; heapUsed: number; external: number; rss: number; collected: boolean })
        .find((r) => r.t >= since);
    }
    if (!line?.collected) return null;
    total.heapUsed += line.heapUsed;
    total.external += line.external;
    total.rss += line.rss;
  }
  return total;
}

interface Samples {
  eluMean: number;
  heapMax: number;
  gcMs: number;
  /** Longest event-loop delay seen, and the median of each 250 ms sample's longest (ms). */
  lagMaxMs: number;
  lagMedianMs: number;
}

/** Event-loop utilisation averaged over the target's processes; heap and GC summed. */
function readSamples(t: Target, from: number, to: number): Samples | null {
  const each = t.servers.map((srv) => readServerSamples(srv, from, to));
  if (each.some((x) => x === null)) return null;
  return {
    eluMean: each.reduce((a, x) => a + x!.eluMean, 0) / each.length,
    heapMax: each.reduce((a, x) => a + x!.heapMax, 0),
    gcMs: each.reduce((a, x) => a + x!.gcMs, 0),
    lagMaxMs: Math.max(...each.map((x) => x!.lagMaxMs)),
    lagMedianMs: each.reduce((a, x) => a + x!.lagMedianMs, 0) / each.length,
  };
}

function readServerSamples(t: Server, from: number, to: number): Samples | null {
  if (!t.sampleFile || !existsSync(t.sampleFile)) return null;
  const rows = readFileSync(t.sampleFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: number; kind?: string; elu: number; heap: number; gcMs: number; lagMaxMs?: number })
    .filter((r) => r.kind === undefined && r.t >= from && r.t <= to);
  if (rows.length === 0) return null;
  return {
    eluMean: rows.reduce((s, r) => s + r.elu, 0) / rows.length,
    heapMax: Math.max(...rows.map((r) => r.heap)),
    gcMs: rows.reduce((s, r) => s + r.gcMs, 0),
    // Each row holds the longest event-loop delay of its 250 ms.
    lagMaxMs: Math.max(...rows.map((r) => r.lagMaxMs ?? NaN)),
    lagMedianMs: rows.map((r) => r.lagMaxMs ?? NaN).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!,
  };
}

type Histogram = Map<number, number>;
const HISTOGRAMS = { durable: 'realtime_durability_window_seconds', relay: 'realtime_relay_lag_seconds', commits: 'realtime_commit_batch_updates' } as const;

/**
 * Our histograms' cumulative buckets, the replicas' added up; read at the start and the end of the
 * measured window, so the p99s below cover the same seconds as the fan-out latencies (not the
 * start-up, admission and warm-up before them).
 */
async function readHistograms(t: Target): Promise<Record<keyof typeof HISTOGRAMS, Histogram> | null> {
  if (!t.name.startsWith('ours')) return null;
  const out = { durable: new Map(), relay: new Map(), commits: new Map() } as Record<keyof typeof HISTOGRAMS, Histogram>;
  try {
    for (const srv of t.servers) {
      if (!srv.metricsUrl) return null;
      const text = await (await fetch(srv.metricsUrl)).text();
      for (const [key, metric] of Object.entries(HISTOGRAMS) as Array<[keyof typeof HISTOGRAMS, string]>) {
        for (const m of text.matchAll(new RegExp(`^${metric}_bucket\\{[^}]*le="([^"]+)"[^}]*\\} (\\d+)`, 'gm'))) {
          const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
          out[key].set(le, (out[key].get(le) ?? 0) + Number(m[2]));
        }
      }
    }
  } catch {
    return null;
  }
  return out;
}

/** A quantile (upper bound of its bucket, in ms) of what was observed between two readings. */
function windowQuantile(before: Histogram | undefined, after: Histogram | undefined, q = 0.99): number | null {
  if (!after) return null;
  const buckets = [...after].map(([le, n]) => [le, n - (before?.get(le) ?? 0)] as const).sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  return (buckets.find(([, n]) => n >= total * q)?.[0] ?? Infinity) * 1000;
}

// ---------------------------------------------------------------- clients

interface Client {
  idx: number;
  ws: WebSocket;
  board: string;
  doc: Y.Doc | null;
  seq: number;
  seen: Set<number>;
  timer?: NodeJS.Timeout;
}

interface RunStats {
  latencies: number[];
  /** With replicas: the latencies of deliveries between clients of different replicas (relayed). */
  relayed: number[];
  messages: number;
  delivered: number;
  echoes: number;
  sent: number;
  closedUnexpectedly: number;
  closeCodes: Map<number, number>;
  measuring: boolean;
}

const newStats = (): RunStats => ({ latencies: [], relayed: [], messages: 0, delivered: 0, echoes: 0, sent: 0, closedUnexpectedly: 0, closeCodes: new Map(), measuring: false });

function frame(t: Target, board: string, body: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  if (t.hocuspocus) encoding.writeVarString(e, board);
  body(e);
  return encoding.toUint8Array(e);
}

function onMessage(t: Target, s: RunStats, c: Client, data: Buffer): void {
  const d = decoding.createDecoder(data);
  if (t.hocuspocus) decoding.readVarString(d);
  // Only live updates count (sync, sub-type 2); the initial sync answer carries old marks.
  if (decoding.readVarUint(d) !== 0 || decoding.readVarUint(d) !== 2) return;
  s.messages++;
  const now = performance.timeOrigin + performance.now();
  for (let at = data.indexOf(MARK); at >= 0; at = data.indexOf(MARK, at + 1)) {
    const end = data.indexOf(0x7c, at); // '|'
    const [ts, sender, seq] = data.subarray(at + MARK.length, end).toString().split(':').map(Number) as [number, number, number];
    if (sender === c.idx) {
      s.echoes++;
      continue;
    }
    const key = sender * 1e7 + seq;
    if (c.seen.has(key)) continue;
    c.seen.add(key);
    s.delivered++;
    if (!s.measuring || !Number.isFinite(ts)) continue;
    s.latencies.push(now - ts);
    if (t.servers.length > 1 && serverOf(t, sender) !== serverOf(t, c.idx)) s.relayed.push(now - ts);
  }
}

/** Index of the server (replica) client `idx` (on board idx mod boards) connects to. */
const serverOf = (t: Target, idx: number) =>
  t.placement === 'routed'
    ? (t.routes?.get(t.boardIds[idx % t.boardIds.length]!) ?? 0)
    : Math.floor(idx / t.boardIds.length) % t.servers.length;

function open(t: Target, s: RunStats, idx: number, board: string, active: boolean): Promise<Client> {
  return new Promise((resolve, reject) => {
    const { wsUrl } = t.servers[serverOf(t, idx)]!;
    const url = t.hocuspocus ? wsUrl : `${wsUrl}/${board}?token=${encodeURIComponent(t.token)}`;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const c: Client = { idx, ws, board, doc: active ? new Y.Doc() : null, seq: 0, seen: new Set() };
    const timer = setTimeout(() => reject(new Error('connect timeout')), 120_000);
    ws.on('open', () => {
      clearTimeout(timer);
      if (t.hocuspocus) {
        ws.send(frame(t, board, (e) => {
          encoding.writeVarUint(e, 2); // Auth
          encoding.writeVarUint(e, 0); // Token
          encoding.writeVarString(e, t.token);
        }));
      }
      ws.send(frame(t, board, (e) => {
        encoding.writeVarUint(e, 0);
        encoding.writeVarUint(e, 0);
        encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()));
      }));
      resolve(c);
    });
    if (active) ws.on('message', (d: Buffer) => onMessage(t, s, c, d));
    ws.on('close', (code) => {
      if (code !== 1000 && code !== 1005) {
        s.closedUnexpectedly++;
        s.closeCodes.set(code, (s.closeCodes.get(code) ?? 0) + 1);
      }
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function sendUpdate(t: Target, s: RunStats, c: Client): void {
  if (c.ws.readyState !== WebSocket.OPEN || !c.doc) return;
  let update: Uint8Array | null = null;
  const handler = (u: Uint8Array) => (update = u);
  c.doc.once('update', handler);
  const now = performance.timeOrigin + performance.now();
  const seq = c.seq++;
  c.doc.getMap('bench').set(`${c.idx}:${seq}`, `BENCHTS${now.toFixed(3)}:${c.idx}:${seq}|`);
  c.ws.send(frame(t, c.board, (e) => {
    encoding.writeVarUint(e, 0);
    encoding.writeVarUint(e, 2);
    encoding.writeVarUint8Array(e, update!);
  }));
  s.sent++;
}

async function openMany(t: Target, s: RunStats, n: number, active: boolean, concurrency = 100): Promise<Client[]> {
  const out: Client[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out.push(await open(t, s, i, t.boardIds[i % t.boardIds.length]!, active));
      }
    }),
  );
  return out;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Result {
  p50: number;
  lagMedianMs: number;
  lagMaxMs: number;
  p99: number;
  sentPerSec: number;
  deliveredPerSec: number;
  messagesPerSec: number;
  cpuPerDeliveryUs: number;
  rssMiB: number;
  baseRssMiB: number;
  idleKiB: number;
  /** Live heap + external memory per idle connection after a full GC (second method). */
  idleLiveKiB: number;
  /** Server CPU from the first idle socket's upgrade to the last one's sync answer, per connection. */
  admitMs: number;
  eluMean: number;
  heapMaxMiB: number;
  gcMs: number;
  echoes: number;
  lost: number;
  unexpectedCloses: number;
  durableP50Ms: number | null;
  durableP99Ms: number | null;
  relayLagP99Ms: number | null;
  /** p99 of the deliveries between clients of different replicas. */
  relayedP99: number;
}

/** One run against one server: idle connections (memory), then active clients (latency). */
async function run(t: Target): Promise<{ result: Result; rows: Array<[string, string]> }> {
  const rows: Array<[string, string]> = [];
  const s = newStats();
  const r: Result = {
    p50: NaN, lagMedianMs: NaN, lagMaxMs: NaN, p99: NaN, sentPerSec: NaN, deliveredPerSec: NaN, messagesPerSec: NaN, cpuPerDeliveryUs: NaN, rssMiB: NaN, baseRssMiB: NaN,
    idleKiB: NaN, idleLiveKiB: NaN, admitMs: NaN, eluMean: NaN, heapMaxMiB: NaN, gcMs: NaN, echoes: 0, lost: 0, unexpectedCloses: 0, durableP50Ms: null, durableP99Ms: null, relayLagP99Ms: null, relayedP99: NaN,
  };
  await sleep(1000);
  const base = await serverUsage(t);
  if (base) {
    r.baseRssMiB = base.rssBytes / 2 ** 20;
    rows.push(['server process baseline RSS (before any socket)', `${mib(base.rssBytes)} MiB`]);
    if (t.name.startsWith('ours')) rows.push(['update log waits for the disk flush (UPDATE_LOG_FSYNC)', process.env.UPDATE_LOG_FSYNC ?? 'false']);
  }

  if (IDLE > 0) {
    const live0 = await liveMemory(t);
    // Read after live0's full GC and before the settling below, so only admission is counted.
    const cpu0 = await serverUsage(t);
    const started = Date.now();
    const idle = await openMany(t, s, IDLE, false);
    const cpu1 = await serverUsage(t);
    await sleep(5000); // let the server settle (GC, buffers)
    const live1 = await liveMemory(t);
    const after = await serverUsage(t);
    const openCount = idle.filter((c) => c.ws.readyState === WebSocket.OPEN).length;
    const codes = [...s.closeCodes].map(([c, n]) => `${c}: ${n}`).join(', ');
    rows.push(['idle connections', `${openCount} / ${IDLE} open (in ${((Date.now() - started) / 1000).toFixed(1)} s)${codes ? `; closed: ${codes}` : ''}`]);
    if (cpu0 && cpu1) {
      r.admitMs = ((cpu1.cpuSeconds - cpu0.cpuSeconds) * 1000) / Math.max(1, openCount);
      rows.push(['server CPU per admitted connection', `${r.admitMs.toFixed(2)} ms (upgrade, token, access check, sync answer; 10 ms clock ticks)`]);
    }
    if (base && after) {
      r.idleKiB = (after.rssBytes - base.rssBytes) / Math.max(1, openCount) / 1024;
      rows.push(['server RSS before → after', `${mib(base.rssBytes)} MiB → ${mib(after.rssBytes)} MiB`]);
      rows.push(['server memory per idle connection', `${r.idleKiB.toFixed(1)} KiB (RSS growth / connections; the baseline above is the rest)`]);
    }
    if (live0 && live1) {
      // RSS growth can hide in heap the baseline had reserved already; live memory after a full
      // GC cannot. Both miss the kernel's socket buffers, alike for every server.
      const heapKiB = (live1.heapUsed - live0.heapUsed) / Math.max(1, openCount) / 1024;
      const externalKiB = (live1.external - live0.external) / Math.max(1, openCount) / 1024;
      r.idleLiveKiB = heapKiB + externalKiB;
      rows.push(['live JS heap before → after (full GC)', `${mib(live0.heapUsed)} MiB → ${mib(live1.heapUsed)} MiB; external ${mib(live0.external)} → ${mib(live1.external)} MiB`]);
      rows.push(['live memory per idle connection (full GC)', `${r.idleLiveKiB.toFixed(1)} KiB (heap ${heapKiB.toFixed(1)} + external ${externalKiB.toFixed(1)})`]);
    }
    for (const c of idle) c.ws.close(1000);
    await sleep(1000);
  }

  if (CLIENTS > 0) {
    const clients = await openMany(t, s, CLIENTS, true);
    const perBoard = new Map<string, number>();
    for (const c of clients) perBoard.set(c.board, (perBoard.get(c.board) ?? 0) + 1);
    const expectedPer = new Map<number, number>();
    await sleep(1000);
    for (const c of clients) {
      c.timer = setTimeout(() => {
        sendUpdate(t, s, c);
        c.timer = setInterval(() => sendUpdate(t, s, c), 1000 / RATE);
      }, Math.random() * (1000 / RATE));
    }
    await sleep(WARMUP * 1000);
    s.measuring = true;
    s.latencies = [];
    s.relayed = [];
    const u0 = await serverUsage(t);
    const h0 = await readHistograms(t);
    const [s0, d0, m0] = [s.sent, s.delivered, s.messages];
    const t0 = Date.now();
    await sleep(DURATION * 1000);
    const t1 = Date.now();
    const secs = (t1 - t0) / 1000;
    const u1 = await serverUsage(t);
    const h1 = await readHistograms(t);
    s.measuring = false;
    const [s1, d1, m1] = [s.sent, s.delivered, s.messages];
    for (const c of clients) {
      clearTimeout(c.timer);
      clearInterval(c.timer);
    }
    // Everything sent must arrive at every other client of its board.
    let expected = 0;
    for (const c of clients) {
      expectedPer.set(c.idx, c.seq);
      expected += c.seq * ((perBoard.get(c.board) ?? 1) - 1);
    }
    const deadline = Date.now() + 15_000;
    while (s.delivered < expected && Date.now() < deadline) await sleep(200);
    r.lost = expected - s.delivered;
    const sorted = s.latencies.sort((a, b) => a - b);
    r.p50 = pct(sorted, 50);
    r.p99 = pct(sorted, 99);
    r.sentPerSec = (s1 - s0) / secs;
    r.deliveredPerSec = (d1 - d0) / secs;
    r.messagesPerSec = (m1 - m0) / secs;
    r.echoes = s.echoes;
    const samples = readSamples(t, t0, t1);
    rows.push(['active clients / boards / rate', `${CLIENTS} / ${t.boardIds.length} / ${RATE} per s each`]);
    rows.push(['updates sent', `${r.sentPerSec.toFixed(0)} /s`]);
    rows.push(['updates delivered / update messages received', `${r.deliveredPerSec.toFixed(0)} /s in ${r.messagesPerSec.toFixed(0)} messages/s (merging ${(r.deliveredPerSec / r.messagesPerSec).toFixed(2)} per message)`]);
    rows.push(['echoes (own update sent back)', String(s.echoes)]);
    rows.push(['fan-out latency p50 / p95 / p99 / max', `${r.p50.toFixed(1)} / ${pct(sorted, 95).toFixed(1)} / ${r.p99.toFixed(1)} / ${sorted.at(-1)?.toFixed(1)} ms (${sorted.length} samples)`]);
    if (s.relayed.length > 0) {
      const relayed = s.relayed.sort((a, b) => a - b);
      r.relayedP99 = pct(relayed, 99);
      rows.push(['  of them between replicas p50 / p95 / p99', `${pct(relayed, 50).toFixed(1)} / ${pct(relayed, 95).toFixed(1)} / ${r.relayedP99.toFixed(1)} ms (${relayed.length} samples)`]);
    }
    rows.push(['lost (sent, never delivered to a board peer)', `${r.lost} of ${expected}`]);
    if (u0 && u1) {
      const cpu = u1.cpuSeconds - u0.cpuSeconds;
      r.cpuPerDeliveryUs = (cpu / Math.max(1, d1 - d0)) * 1e6;
      r.rssMiB = u1.rssBytes / 2 ** 20;
      rows.push(['server CPU', `${((cpu / secs) * 100).toFixed(0)} % of one core, ${r.cpuPerDeliveryUs.toFixed(0)} µs per delivery`]);
      rows.push(['server RSS', `${mib(u1.rssBytes)} MiB`]);
    }
    if (samples) {
      r.eluMean = samples.eluMean;
      r.heapMaxMiB = samples.heapMax / 2 ** 20;
      r.gcMs = samples.gcMs;
      r.lagMedianMs = samples.lagMedianMs;
      r.lagMaxMs = samples.lagMaxMs;
      rows.push(['server event-loop utilisation / heap max / GC', `${(samples.eluMean * 100).toFixed(0)} % / ${mib(samples.heapMax)} MiB / ${samples.gcMs.toFixed(0)} ms`]);
      if (Number.isFinite(samples.lagMaxMs)) {
        rows.push(['server event-loop delay, longest per 250 ms: median / max', `${samples.lagMedianMs.toFixed(1)} / ${samples.lagMaxMs.toFixed(1)} ms`]);
      }
    }
    r.durableP50Ms = windowQuantile(h0?.durable, h1?.durable, 0.5);
    r.durableP99Ms = windowQuantile(h0?.durable, h1?.durable);
    r.relayLagP99Ms = t.servers.length > 1 ? windowQuantile(h0?.relay, h1?.relay) : null;
    if (r.relayLagP99Ms !== null) {
      const shown = (ms: number | null) => (ms === null ? '-' : Number.isFinite(ms) ? `≤ ${ms.toFixed(2)}` : '> 1000');
      const p50 = windowQuantile(h0?.relay, h1?.relay, 0.5);
      rows.push(['relay lag between replicas (publish → receive) p50 / p99', `${shown(p50)} / ${shown(r.relayLagP99Ms)} ms (histogram buckets, measured window)`]);
    }
    if (r.durableP99Ms !== null) {
      const bound = (ms: number | null) => (ms === null ? '-' : Number.isFinite(ms) ? `≤ ${ms.toFixed(1)}` : '> 5000');
      const commits = (h1?.commits.get(Infinity) ?? 0) - (h0?.commits.get(Infinity) ?? 0);
      rows.push(['group commits (store writes)', `${(commits / secs).toFixed(0)} /s`]);
      rows.push(['durability window (accepted → durable) p50 / p99', `${bound(r.durableP50Ms)} / ${bound(r.durableP99Ms)} ms (histogram buckets, measured window)`]);
    }
    r.unexpectedCloses = s.closedUnexpectedly;
    rows.push(['unexpected closes (by code)', `${s.closedUnexpectedly}${s.closeCodes.size ? ` (${[...s.closeCodes].map(([c, n]) => `${c}: ${n}`).join(', ')})` : ''}`]);
    for (const c of clients) c.ws.close(1000);
    await sleep(1000);
  }
  return { result: r, rows };
}

function printRows(title: string, rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  console.log('─'.repeat(width + 50));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log('─'.repeat(width + 50));
}

const median = (xs: number[]) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)]! : NaN;
};

async function compare(): Promise<void> {
  const dir = path.resolve(args.scratch!);
  await preparePeers(dir);
  const platform = await startPlatform();
  const rounds = Number(args.rounds ?? 3);
  const replicated = `ours ×${REPLICAS}`;
  const cols = ['ours', 'y-websocket', 'hocuspocus', ...(REPLICAS > 1 ? [replicated] : [])];
  const results: Record<string, Result[]> = Object.fromEntries(cols.map((c) => [c, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternating order, so drift of the machine's load does not favour one server.
      const order = [...cols];
      for (let i = 0; i < round; i++) order.push(order.shift()!);
      for (const name of order) {
        const t =
          name === 'ours' ? await startOurs(platform) : name === replicated ? await startOurs(platform, REPLICAS) : await startPeer(dir, name as 'y-websocket' | 'hocuspocus');
        try {
          const { result, rows } = await run(t);
          results[name]!.push(result);
          printRows(`round ${round + 1}: ${name}`, rows);
        } finally {
          await t.stop();
        }
      }
    }
  } finally {
    await platform.stop();
  }
  const metrics: Array<[string, (r: Result) => number, number]> = [
    ['fan-out p50 (ms)', (r) => r.p50, 1],
    ['fan-out p99 (ms)', (r) => r.p99, 1],
    ['updates delivered /s', (r) => r.deliveredPerSec, 0],
    ['update messages /s', (r) => r.messagesPerSec, 0],
    ['server CPU per delivery (µs)', (r) => r.cpuPerDeliveryUs, 0],
    ['server RSS (MiB)', (r) => r.rssMiB, 1],
    ['server baseline RSS (MiB)', (r) => r.baseRssMiB, 1],
    ['heap max (MiB)', (r) => r.heapMaxMiB, 1],
    ['event-loop utilisation (%)', (r) => r.eluMean * 100, 0],
    ['GC time (ms)', (r) => r.gcMs, 0],
    ['event-loop delay, longest per 250 ms, median (ms)', (r) => r.lagMedianMs, 1],
    ['event-loop delay, longest (ms)', (r) => r.lagMaxMs, 1],
    ['memory per idle connection (KiB)', (r) => r.idleKiB, 1],
    ['live heap+external per idle connection after GC (KiB)', (r) => r.idleLiveKiB, 1],
    ['server CPU per admitted connection (ms)', (r) => r.admitMs, 2],
    ['durability window p99 (ms)', (r) => r.durableP99Ms ?? NaN, 1],
    ['relay lag between replicas p99 (ms)', (r) => r.relayLagP99Ms ?? NaN, 1],
    ['echoes', (r) => r.echoes, 0],
    ['lost updates', (r) => r.lost, 0],
    ['unexpected closes', (r) => r.unexpectedCloses, 0],
  ];
  console.log(`\nRealtime side by side: ${CLIENTS} clients, ${BOARDS} boards, ${RATE} updates/s each, ${IDLE} idle; median of ${rounds} rounds`);
  console.log(`ours: auth + ${args['direct-store'] ? 'PostgreSQL update log, a round trip per group commit' : 'update log journal shipped to PostgreSQL (as embedded)'} (durable before visible; UPDATE_LOG_FSYNC=${process.env.UPDATE_LOG_FSYNC ?? 'false'}); peers: ${
      args['peer-persistence']
        ? 'no auth, their own persistence (y-websocket: YPERSISTENCE, LevelDB, written beside the broadcast; Hocuspocus: Database extension on SQLite, debounced)'
        : 'minimal (no auth, no persistence)'
    }`);
  if (REPLICAS > 1) console.log(`${replicated}: ${REPLICAS} replicas over NATS, ${PLACEMENT_TEXT.routed}; CPU, RSS, heap and GC summed`);
  const head = ['metric', ...cols, 'ours / y-ws', 'ours / hocuspocus', ...(REPLICAS > 1 ? [`${replicated} / ours`] : [])];
  const table = metrics.map(([label, get, digits]) => {
    const m = cols.map((c) => median(results[c]!.map(get)));
    return [label, ...m.map((x) => (Number.isFinite(x) ? x.toFixed(digits) : '-')), ratio(m[0]!, m[1]!), ratio(m[0]!, m[2]!), ...(REPLICAS > 1 ? [ratio(m[3]!, m[0]!)] : [])];
  });
  printTable(head, table);
}

const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? (a / b).toFixed(2) : '-');

function printTable(head: string[], table: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(line(row));
}

/**
 * `--replicas N`: ours with one replica and with N over NATS, in alternating rounds (`--rounds`,
 * default 1), the same clients and boards; the target is p99 of N at most 1.5× one replica's.
 */
async function replicas(): Promise<void> {
  const platform = await startPlatform();
  const rounds = Number(args.rounds ?? 1);
  type Config = { replicas: number; placement: Placement };
  const configs: Config[] = [
    { replicas: 1, placement: 'routed' },
    { replicas: REPLICAS, placement: 'routed' },
    { replicas: REPLICAS, placement: 'spread' },
  ];
  const results: Result[][] = configs.map(() => []);
  try {
    for (let round = 0; round < rounds; round++) {
      // Each configuration runs first, second and last in turn, so none always starts a round.
      const order = configs.map((_, i) => (i + round) % configs.length);
      for (const i of order) {
        const t = await startOurs(platform, configs[i]!.replicas, configs[i]!.placement);
        try {
          const { result, rows } = await run(t);
          results[i]!.push(result);
          printRows(`round ${round + 1}: ${t.name}`, rows);
        } finally {
          await t.stop();
        }
      }
    }
  } finally {
    await platform.stop();
  }
  const metrics: Array<[string, (r: Result) => number, number]> = [
    ['fan-out p50 (ms)', (r) => r.p50, 1],
    ['fan-out p99 (ms)', (r) => r.p99, 1],
    ['  between replicas only: p99 (ms)', (r) => r.relayedP99, 1],
    ['updates delivered /s', (r) => r.deliveredPerSec, 0],
    ['update messages /s', (r) => r.messagesPerSec, 0],
    ['server CPU per delivery (µs, all replicas)', (r) => r.cpuPerDeliveryUs, 0],
    ['server RSS (MiB, all replicas)', (r) => r.rssMiB, 1],
    ['event-loop utilisation (%, mean of replicas)', (r) => r.eluMean * 100, 0],
    ['durability window p99 (ms)', (r) => r.durableP99Ms ?? NaN, 1],
    ['relay lag p99 (ms)', (r) => r.relayLagP99Ms ?? NaN, 1],
    ['lost updates', (r) => r.lost, 0],
    ['unexpected closes', (r) => r.unexpectedCloses, 0],
  ];
  console.log(`\nReplicas: ${CLIENTS} clients, ${BOARDS} boards, ${RATE} updates/s each; one replica vs ${REPLICAS} over NATS; median of ${rounds} round(s)`);
  console.log(`  routed: ${PLACEMENT_TEXT.routed}; spread: ${PLACEMENT_TEXT.spread}`);
  const [one, routed, spread] = results as [Result[], Result[], Result[]];
  const table = metrics.map(([label, get, digits]) => {
    const [a, b, c] = [one, routed, spread].map((rs) => median(rs.map(get))) as [number, number, number];
    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
    return [label, fmt(a), fmt(b), fmt(c), ratio(b, a), ratio(c, a)];
  });
  printTable(['metric', 'ours ×1', `×${REPLICAS} routed`, `×${REPLICAS} spread`, 'routed / ×1', 'spread / ×1'], table);
  const p99Of = (rs: Result[]) => median(rs.map((r) => r.p99));
  const verdict = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}× → ${x <= 1.5 ? 'met' : 'NOT met'}` : 'no figure');
  console.log(`target: p99 of ${REPLICAS} replicas ≤ 1.5 × one replica's, as the gateway routes boards: ${verdict(p99Of(routed) / p99Of(one))}`);
  console.log(`        the same with every board spread over all replicas (worst case): ${verdict(p99Of(spread) / p99Of(one))}`);
}

async function main() {
  pinSelf(OTHER_CPUS);
  const fdLimit = Number(
    await new Promise<string>((r) => {
      const p = spawn('bash', ['-c', 'ulimit -n']);
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('exit', () => r(out.trim()));
    }),
  );
  if (fdLimit < CLIENTS + IDLE + 1000) {
    console.error(`open-files limit ${fdLimit} is below ${CLIENTS + IDLE + 1000}; run: ulimit -n ${CLIENTS + IDLE + 2000} first`);
    process.exit(2);
  }
  if (args.compare) {
    await compare();
  } else if (REPLICAS > 1) {
    await replicas();
  } else if (args.url) {
    const t = external();
    printRows('Realtime benchmark', (await run(t)).rows);
  } else {
    const platform = await startPlatform();
    const t = await startOurs(platform);
    try {
      printRows('Realtime benchmark', (await run(t)).rows);
    } finally {
      await t.stop();
      await platform.stop();
    }
  }
  console.log(`command: ${process.env.BENCH_COMMAND ?? `node --import tsx loadtests/realtime/bench.ts ${process.argv.slice(2).join(' ')}`}`);
  console.log(`machine: nproc=${os.cpus().length} (${os.cpus()[0]?.model}), memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${os.platform()} ${os.release()}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(
    PIN
      ? `note: servers under test, PostgreSQL and NATS pinned to CPU ${SERVER_CPU}; the load generator (with auth and boards, idle while measuring) to CPU ${OTHER_CPUS}.`
      : "note: load generator and servers share this machine's cores; latencies include the generator's own scheduling delay.",
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
