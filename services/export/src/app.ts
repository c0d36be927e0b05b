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
import { createInternalClients, type InternalClients } from './clients/internal.ts';
import { DEFAULT_EXPORT_LIMITS, ExportConfigSchema, limitsFromConfig, type ExportLimits } from './config.ts';
import { createGate } from './domain/gate.ts';
import { subscribeEntitlements } from './events/entitlements.ts';
import { fontFiles } from './render/fonts.ts';
import { createRenderPool } from './render/pool.ts';
import { createExportMetrics } from './metrics.ts';
import { exportRouter } from './routes/export.ts';
import { receiptsRouter } from './routes/receipts.ts';
import { findEntitlement } from './store/entitlements.ts';

export const SCHEMA = 'export';
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface ExportDeps {
  /** A pool whose search_path is the `export` schema (the entitlements projection). */
  pool: Pool;
  transport: EventTransport;
  logger: Logger;
  verifier: TokenVerifier;
  clients: InternalClients;
  limits?: Partial<ExportLimits>;
  registry?: Registry;
  /** Guards /internal/* (receipts for billing); without it those routes are not mounted. */
  internalToken?: string;
}

export interface ExportService extends RunnableService {
  limits: ExportLimits;
}

export async function createExportService(deps: ExportDeps): Promise<ExportService> {
  const limits: ExportLimits = { ...DEFAULT_EXPORT_LIMITS, ...deps.limits };
  const { app, finish, registry } = createServiceApp({
    name: 'export',
    logger: deps.logger,
    registry: deps.registry,
    bodyLimit: '16kb',
    readiness: { postgres: () => pingDatabase(deps.pool), events: () => deps.transport.healthy() },
  });
  const fonts = fontFiles();
  const pool = createRenderPool({
    threads: limits.workers,
    nice: limits.workerNice,
    maxHeapMb: limits.workerMaxHeapMb,
    recycleAfter: limits.workerRecycleTasks,
    onError: (err) => deps.logger.warn({ err }, 'a render thread failed outside a task; piscina replaces it'),
  });
  const gate = createGate({
    concurrency: limits.workers,
    maxWaiting: limits.maxWaiting,
    perUser: limits.perUser,
    perUserWaiting: limits.perUserWaiting,
    timeoutMs: limits.queueTimeoutMs,
  });
  app.use(
    '/api',
    exportRouter({
      verifier: deps.verifier,
      clients: deps.clients,
      entitlement: (userId) => findEntitlement(deps.pool, userId),
      gate,
      pool,
      fonts,
      limits,
      metrics: createExportMetrics(registry, gate),
    }),
  );
  if (deps.internalToken) app.use('/internal', internalAuth(deps.internalToken), receiptsRouter());
  finish();

  eventMetrics(registry, { transport: deps.transport, consumers: ['export-entitlements'] });
  const events = serviceEvents({
    pool: deps.pool,
    transport: deps.transport,
    logger: deps.logger,
    publishes: false,
    consumers: [() => subscribeEntitlements(deps.pool, deps.transport)],
  });
  return {
    name: 'export',
    app,
    limits,
    async start() {
      await migrate(deps.pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
      await events.start();
    },
    async stop() {
      await events.stop();
      await pool.close();
    },
  };
}

/** The export service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const exportService = defineService({
  name: 'export',
  configSchema: ExportConfigSchema,
  reachedBy: (url) => ({ EXPORT_URL: url }),
  create: (config, rt) =>
    createExportService({
      pool: rt.pool(SCHEMA),
      transport: rt.transport,
      logger: rt.logger,
      verifier: rt.verifier,
      clients: createInternalClients({
        boardsUrl: config.BOARDS_INTERNAL_URL,
        realtimeUrl: config.REALTIME_INTERNAL_URL,
        internalToken: rt.internalToken,
      }),
      limits: limitsFromConfig(config),
      registry: rt.registry,
      internalToken: rt.internalToken,
    }),
});

export default exportService;
