import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool, startEmbeddedPostgres, type Pool } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, parseConfig, type Logger, type RunnableService, type RunningServer } from '@wb/service-kit';
import { createAuthService, AuthConfigSchema } from '../../services/auth/src/app.ts';
import { createBoardsService, SCHEMA as BOARDS_SCHEMA } from '../../services/boards/src/app.ts';
import { BoardsConfigSchema } from '../../services/boards/src/config.ts';
import { createRealtimeService } from '../../services/realtime/src/app.ts';
import { createBoardAccessClient } from '../../services/realtime/src/access.ts';
import { limitsFromEnv, RealtimeEnv } from '../../services/realtime/src/config.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../../services/realtime/src/store/postgres.ts';
import { createGateway, GatewayConfigSchema, type ServiceTarget } from '../../services/gateway/src/app.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface EmbeddedOptions {
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Where PostgreSQL keeps its data. */
  dataDir?: string;
  /** The built SPA. */
  staticDir?: string;
  /** Extra environment for the services (ADMIN_EMAIL, LOG_LEVEL, rate limits...). */
  env?: Record<string, string | undefined>;
  logLevel?: string;
}

export interface EmbeddedHandle {
  url: string;
  port: number;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The whole product in one process (DESIGN.md, "Where it runs", embedded): an embedded PostgreSQL,
 * the in-process event transport, every service composed from its createXService, and the gateway
 * calling them in-process. Each service also listens on a loopback port for the internal calls
 * between services, exactly as it would in a cluster.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedHandle> {
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  delete env.PORT; // PORT is the gateway's; services listen on free loopback ports here.
  const logLevel = opts.logLevel ?? env.LOG_LEVEL ?? 'info';
  const log = (name: string): Logger => createLogger(name, logLevel);
  const root = log('embedded');

  const dataDir = path.resolve(opts.dataDir ?? path.join(repoRoot, '.data'));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres') });
  root.info({ dataDir }, 'embedded PostgreSQL started');
  const transport = createInProcessTransport({ logger: log('events') });
  const pools: Pool[] = [];
  const pool = (schema: string) => {
    const p = createPool({ url: pg.url, schema, applicationName: schema });
    pools.push(p);
    return p;
  };
  const services: RunnableService[] = [];
  const servers: RunningServer[] = [];
  const internal = async (service: RunnableService): Promise<string> => {
    await service.start();
    services.push(service);
    const server = await listen(service.app, 0, '127.0.0.1');
    servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  };
  const local = (service: RunnableService, url: string): ServiceTarget => ({
    url,
    local: { app: service.app as never, handleUpgrade: service.handleUpgrade?.bind(service) },
  });

  try {
    const serviceEnv = { ...env, NATS_URL: undefined, MONGO_URL: undefined };

    const auth = await createAuthService({
      pool: pool('auth'),
      transport,
      logger: log('auth'),
      config: parseConfig(AuthConfigSchema, { ...serviceEnv, DATABASE_URL: pg.url }),
    });
    const authUrl = await internal(auth);
    const jwksUrl = `${authUrl}/internal/jwks`;

    const boards = await createBoardsService({
      pool: pool(BOARDS_SCHEMA),
      transport,
      logger: log('boards'),
      config: { http: { bodyLimit: parseConfig(BoardsConfigSchema, { ...serviceEnv, DATABASE_URL: pg.url, AUTH_JWKS_URL: jwksUrl }).BODY_LIMIT } },
      verifier: createTokenVerifier({ jwksUrl }),
    });
    const boardsUrl = await internal(boards);

    // Board documents in PostgreSQL (no MongoDB here) and no relay: one process is one replica.
    const realtimeEnv = parseConfig(RealtimeEnv, { ...serviceEnv, BOARDS_INTERNAL_URL: boardsUrl, AUTH_JWKS_URL: jwksUrl });
    const realtime = await createRealtimeService({
      logger: log('realtime'),
      store: createPostgresStore(pool(REALTIME_SCHEMA)),
      verifier: createTokenVerifier({ jwksUrl }),
      boards: createBoardAccessClient(boardsUrl),
      transport,
      replicaId: 'embedded',
      limits: limitsFromEnv(realtimeEnv),
    });
    const realtimeUrl = await internal(realtime);

    const gateway = createGateway({
      config: parseConfig(GatewayConfigSchema, {
        ...env,
        PORT: String(opts.port ?? 8080),
        STATIC_DIR: opts.staticDir ?? env.STATIC_DIR ?? path.join(repoRoot, 'frontend', 'dist'),
      }),
      logger: log('gateway'),
      targets: {
        auth: local(auth, authUrl),
        boards: local(boards, boardsUrl),
        realtime: local(realtime, realtimeUrl),
      },
    });
    const server = await listen(gateway.app, opts.port ?? 8080);
    server.server.on('upgrade', (req, socket, head) => gateway.handleUpgrade?.(req, socket, head));
    servers.unshift(server);
    const url = `http://localhost:${server.port}`;
    root.info({ url }, 'whiteboard is running');

    let stopped = false;
    return {
      url,
      port: server.port,
      databaseUrl: pg.url,
      async stop() {
        if (stopped) return;
        stopped = true;
        // Stop accepting first; services then close their long-lived sockets (realtime's WebSockets
        // would otherwise hold the servers open) and flush; then the servers finish draining.
        const closing = servers.map((s) => s.close());
        for (const s of [...services].reverse()) await s.stop().catch((err) => root.error({ err }, 'stop failed'));
        await Promise.all(closing);
        await transport.close();
        for (const p of pools) await p.end().catch(() => {});
        await pg.stop();
      },
    };
  } catch (err) {
    for (const s of servers) await s.close().catch(() => {});
    for (const s of services) await s.stop().catch(() => {});
    for (const p of pools) await p.end().catch(() => {});
    await pg.stop().catch(() => {});
    throw err;
  }
}
