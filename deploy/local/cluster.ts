import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wb/db';
import { startMongo, startNats, startPostgres, tempDir, waitForPort, type ManagedProcess } from '@wb/testkit';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterHandle {
  url: string;
  databaseUrl: string;
  natsUrl: string;
  mongoUrl: string;
  services: Record<string, ServiceProcess>;
  /** Starts one more realtime replica (several replicas behind one gateway is not needed: tests connect directly). */
  startRealtimeReplica(): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

function startService(name: string, env: Record<string, string>, port: number, logs: boolean): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', '@wb/service-kit/tracing-preload', path.join('services', name, 'src', 'main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: logs ? 'info' : 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', logs ? 'inherit' : 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { name, port, url: `http://127.0.0.1:${port}`, child, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

/**
 * The local cluster mode of DESIGN.md: every service in its own process, a real nats-server with
 * JetStream, FerretDB as the MongoDB of realtime, PostgreSQL for the relational services.
 */
export async function startCluster(opts: { port?: number; logs?: boolean; staticDir?: string } = {}): Promise<ClusterHandle> {
  const logs = opts.logs ?? false;
  const infra: Array<{ stop(): Promise<void> }> = [];
  const services: Record<string, ServiceProcess> = {};
  const extra: ServiceProcess[] = [];
  const stopAll = async () => {
    for (const s of [...extra, ...Object.values(services)].reverse()) await s.stop();
    for (const i of infra.reverse()) await i.stop();
  };
  try {
    const pg = await startPostgres();
    infra.push(pg);
    const nats: ManagedProcess = await startNats();
    infra.push(nats);
    const mongo: ManagedProcess = await startMongo({ dataDir: await tempDir('cluster-mongo') });
    infra.push(mongo);
    const common = { DATABASE_URL: pg.url, NATS_URL: nats.url };

    const launch = async (name: string, env: Record<string, string>, port?: number) => {
      const p = port ?? (await freePort());
      const svc = startService(name, env, p, logs);
      await waitForPort(p, 60_000);
      return svc;
    };
    services.auth = await launch('auth', common);
    const jwks = `${services.auth.url}/internal/jwks`;
    services.boards = await launch('boards', { ...common, AUTH_JWKS_URL: jwks });
    const realtimeEnv = {
      ...common,
      MONGO_URL: `${mongo.url}whiteboard`,
      AUTH_JWKS_URL: jwks,
      BOARDS_INTERNAL_URL: services.boards.url,
    };
    services.realtime = await launch('realtime', { ...realtimeEnv, REPLICA_ID: 'realtime-1' });
    services.gateway = await launch(
      'gateway',
      {
        AUTH_URL: services.auth.url,
        BOARDS_URL: services.boards.url,
        REALTIME_URL: services.realtime.url,
        STATIC_DIR: opts.staticDir ?? path.join(repoRoot, 'frontend', 'dist'),
        AUTH_RATE_LIMIT_PER_MIN: '0',
      },
      opts.port,
    );
    let replicas = 1;
    return {
      url: services.gateway.url,
      databaseUrl: pg.url,
      natsUrl: nats.url,
      mongoUrl: mongo.url,
      services,
      async startRealtimeReplica() {
        replicas++;
        const svc = await launch('realtime', { ...realtimeEnv, REPLICA_ID: `realtime-${replicas}` });
        extra.push(svc);
        return svc;
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
