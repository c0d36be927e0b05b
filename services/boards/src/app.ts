import { fileURLToPath } from 'node:url';
import { migrate, pingDatabase, type Pool } from '@wb/db';
import { ensureEventTables, startOutboxRelay, type EventTransport, type OutboxRelay, type Subscription } from '@wb/events';
import { createServiceApp, type Logger, type RunnableService, type TokenVerifier } from '@wb/service-kit';
import type { BoardsServiceConfig } from './config.ts';
import { subscribeEntitlements } from './events/entitlements.ts';
import { subscribeUserDeleted } from './events/user-deleted.ts';
import { subscribeUserNames } from './events/user-names.ts';
import { boardsRouter } from './routes/boards.ts';
import { createRouteContext } from './routes/context.ts';
import { foldersRouter } from './routes/folders.ts';
import { internalRouter } from './routes/internal.ts';
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
}

export interface BoardsService extends RunnableService {
  /** Publishes everything in the outbox now (tests, graceful shutdown). */
  flushOutbox(): Promise<void>;
}

export async function createBoardsService(deps: BoardsDeps): Promise<BoardsService> {
  const { pool, transport, logger, config, verifier } = deps;
  const { app, finish } = createServiceApp({
    name: 'boards',
    logger,
    bodyLimit: config.http.bodyLimit,
    readiness: { postgres: () => pingDatabase(pool), events: () => transport.healthy() },
  });

  const ctx = createRouteContext(pool, verifier);
  app.use('/api', boardsRouter(ctx), foldersRouter(ctx), tagsRouter(ctx));
  app.use('/internal', internalRouter(ctx));
  finish();

  let relay: OutboxRelay | null = null;
  let subs: Subscription[] = [];

  return {
    name: 'boards',
    app,
    async start() {
      await migrate(pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
      await ensureEventTables(pool);
      relay = startOutboxRelay({ pool, transport, logger });
      subs = await Promise.all([
        subscribeUserDeleted(pool, transport),
        subscribeEntitlements(pool, transport),
        subscribeUserNames(pool, transport),
      ]);
    },
    async stop() {
      await Promise.all(subs.map((s) => s.stop().catch((err) => logger.warn({ err }, 'consumer stop failed'))));
      subs = [];
      if (relay) {
        await relay.flush().catch((err) => logger.warn({ err }, 'outbox flush on stop failed'));
        await relay.stop();
        relay = null;
      }
    },
    async flushOutbox() {
      await relay?.flush();
    },
  };
}
