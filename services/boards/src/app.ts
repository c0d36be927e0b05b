import { fileURLToPath } from 'node:url';
import { migrate, pingDatabase, type Pool } from '@wb/db';
import { serviceEvents, type EventTransport } from '@wb/events';
import {
  createServiceApp,
  eventMetrics,
  defineService,
  internalAuth,
  type Logger,
  type Registry,
  type RunnableService,
  type TokenVerifier,
} from '@wb/service-kit';
import { BoardsConfigSchema, type BoardsServiceConfig } from './config.ts';
import { subscribeEntitlements } from './events/entitlements.ts';
import { subscribeUserDeleted } from './events/user-deleted.ts';
import { subscribeUserNames } from './events/user-names.ts';
import { boardsRouter, type RevokeLinks } from './routes/boards.ts';
import { createRouteContext } from './routes/context.ts';
import { foldersRouter } from './routes/folders.ts';
import { internalRouter } from './routes/internal.ts';
import { ListCache, listCacheMetrics } from './list-cache.ts';
import { realtimeLinkRevoker } from './realtime-links.ts';
import { tagsRouter } from './routes/tags.ts';

export const SCHEMA = 'boards';
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface BoardsDeps {
  /** A pool whose search_path is the `boards` schema (createPool({schema: 'boards'})). */
  pool: Pool;
  transport: EventTransport;
  logger: Logger;
  config: BoardsServiceConfig;
  verifier: TokenVerifier;
  /** The shared secret /internal/* requires; the runners always pass one (tests may leave it open). */
  internalToken?: string;
  registry?: Registry;
  /** Realtime's revocation call, awaited before a sharing change answers (absent: events only). */
  revokeLinks?: RevokeLinks;
}

export interface BoardsService extends RunnableService {
  /** Publishes everything in the outbox now (tests, graceful shutdown). */
  flushOutbox(): Promise<void>;
}

export async function createBoardsService(deps: BoardsDeps): Promise<BoardsService> {
  const { pool, transport, logger, config, verifier } = deps;
  const { app, finish, registry } = createServiceApp({
    name: 'boards',
    logger,
    registry: deps.registry,
    bodyLimit: config.http.bodyLimit,
    readiness: { postgres: () => pingDatabase(pool), events: () => transport.healthy() },
  });

  const listCache = new ListCache(config.listCacheBytes ?? 32 * 1024 * 1024);
  if (deps.registry) listCacheMetrics(deps.registry, listCache);
  const ctx = createRouteContext(pool, verifier, listCache);
  app.use('/api', boardsRouter(ctx, deps.revokeLinks), foldersRouter(ctx), tagsRouter(ctx));
  if (deps.internalToken) app.use('/internal', internalAuth(deps.internalToken));
  app.use('/internal', internalRouter(ctx));
  finish();

  eventMetrics(registry, { outbox: pool, transport, consumers: ['boards-users', 'boards-entitlements', 'boards-user-names'] });
  const events = serviceEvents({
    pool,
    transport,
    logger,
    publishes: true,
    consumers: [
      () => subscribeUserDeleted(pool, transport),
      () => subscribeEntitlements(pool, transport),
      () => subscribeUserNames(pool, transport),
    ],
  });

  return {
    name: 'boards',
    app,
    async start() {
      await migrate(pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
      await events.start();
    },
    stop: () => events.stop(),
    flushOutbox: () => events.flush(),
  };
}

/** The boards service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const boardsService = defineService({
  name: 'boards',
  configSchema: BoardsConfigSchema,
  reachedBy: (url) => ({ BOARDS_URL: url, BOARDS_INTERNAL_URL: url }),
  create: (config, rt) =>
    createBoardsService({
      pool: rt.pool(SCHEMA, { max: config.DATABASE_POOL_MAX }),
      transport: rt.transport,
      logger: rt.logger,
      config: { http: { bodyLimit: config.BODY_LIMIT }, listCacheBytes: config.LIST_CACHE_MB * 1024 * 1024 },
      verifier: rt.verifier,
      internalToken: rt.internalToken,
      registry: rt.registry,
      revokeLinks: config.REALTIME_URL ? realtimeLinkRevoker(config.REALTIME_URL, rt.internalToken, rt.logger) : undefined,
    }),
});

export default boardsService;
