import { fileURLToPath } from 'node:url';
import { migrate, pingDatabase, type Pool } from '@wb/db';
import { serviceEvents, type EventTransport } from '@wb/events';
import {
  createServiceApp,
  defineService,
  eventMetrics,
  requireAdmin,
  requireAuth,
  type Logger,
  type Registry,
  type RunnableService,
  type TokenVerifier,
} from '@wb/service-kit';
import { AdminConfigSchema, type AdminConfig } from './config.ts';
import { ADMIN_CONSUMERS, adminConsumers } from './events/index.ts';
import { statsRouter } from './routes/stats.ts';
import { systemRouter } from './routes/system.ts';
import { createRuntime, type ContainerRuntime } from './runtime/index.ts';
import { updateRunner } from './system/update.ts';

export { AdminConfigSchema, type AdminConfig } from './config.ts';
export type { ContainerRuntime, RestartStep } from './runtime/index.ts';

export const SCHEMA = 'admin';
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface AdminDeps {
  /** A pool whose search_path is the `admin` schema. */
  pool: Pool;
  transport: EventTransport;
  logger: Logger;
  verifier: TokenVerifier;
  config: AdminConfig;
  /** Tests hand in an adapter of their own runtime; absent: the one CONTAINER_RUNTIME names. */
  runtime?: ContainerRuntime;
  registry?: Registry;
}

export interface AdminService extends RunnableService {
  runtime: ContainerRuntime;
}

export async function createAdminService(deps: AdminDeps): Promise<AdminService> {
  const { pool, transport, logger, verifier, config } = deps;
  const runtime = deps.runtime ?? (await createRuntime(config, logger));
  const { app, finish, registry } = createServiceApp({
    name: 'admin',
    logger,
    registry: deps.registry,
    readiness: { postgres: () => pingDatabase(pool), events: () => transport.healthy() },
  });
  const updates = updateRunner({ pool, runtime, logger });
  // Every call is an administrator's: a visitor gets 401, a user 403, before anything is read.
  const admin = [requireAuth(verifier), requireAdmin];
  app.use('/api/admin', statsRouter({ admin, pool }), systemRouter({ admin, runtime, pool, config, logger, updates }));
  finish();

  eventMetrics(registry, { outbox: pool, transport, consumers: ADMIN_CONSUMERS });
  const events = serviceEvents({ pool, transport, logger, publishes: false, consumers: adminConsumers(pool, transport) });

  return {
    name: 'admin',
    app,
    runtime,
    async start() {
      await migrate(pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
      await events.start();
      // A system update whose last step was this service's restart ends here, in the new process.
      await updates.resume();
      logger.info({ runtime: runtime.name }, 'admin-monitoring started');
    },
    async stop() {
      await updates.stop();
      await events.stop();
      await runtime.close();
    },
  };
}

/** The admin-monitoring service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const adminService = defineService({
  name: 'admin',
  configSchema: AdminConfigSchema,
  reachedBy: (url) => ({ ADMIN_URL: url }),
  create: (config, rt) =>
    createAdminService({
      pool: rt.pool(SCHEMA, { max: config.DATABASE_POOL_MAX }),
      transport: rt.transport,
      logger: rt.logger,
      verifier: rt.verifier,
      config,
      registry: rt.registry,
    }),
});

export default adminService;
