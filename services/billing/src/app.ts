import express from 'express';
import { fileURLToPath } from 'node:url';
import { migrate, pingDatabase, type Pool } from '@wb/db';
import { serviceEvents, type EventTransport } from '@wb/events';
import { createServiceApp, defineService, eventMetrics, type Logger, type Registry, type RunnableService, type TokenVerifier } from '@wb/service-kit';
import { runExpiryPass } from './actions/subscriptions.ts';
import { systemClock, type Clock } from './clock.ts';
import { BillingConfigSchema, billingServiceConfig, type BillingServiceConfig } from './config.ts';
import { subscribeUsers } from './events/users.ts';
import { startExpiryJob } from './jobs/expiry.ts';
import { createProviders } from './providers/index.ts';
import { adminRouter } from './routes/admin.ts';
import { billingRouter } from './routes/billing.ts';
import { createRouteContext } from './routes/context.ts';
import { myPlanRouter } from './routes/my-plan.ts';
import { testCheckoutRouter } from './routes/test-checkout.ts';
import { webhooksRouter } from './routes/webhooks.ts';

export { BillingConfigSchema, billingServiceConfig, type BillingConfig, type BillingServiceConfig } from './config.ts';
export { stripeSignatureHeader } from './domain/stripe-signature.ts';
export type { Clock } from './clock.ts';

export const SCHEMA = 'billing';
const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface BillingDeps {
  /** A pool whose search_path is the `billing` schema (createPool({schema: 'billing'})). */
  pool: Pool;
  transport: EventTransport;
  logger: Logger;
  config: BillingServiceConfig;
  verifier: TokenVerifier;
  /** Time for subscriptions and signatures; tests move it. */
  clock?: Clock;
  registry?: Registry;
  /** The credential of calls to export's /internal/receipts. */
  internalToken?: string;
}

export interface BillingService extends RunnableService {
  flushOutbox(): Promise<void>;
  /** One expiry pass now (tests; the job runs it on its own every interval). */
  runExpiry(): Promise<number>;
}

export async function createBillingService(deps: BillingDeps): Promise<BillingService> {
  const { pool, transport, logger, config, verifier } = deps;
  const clock = deps.clock ?? systemClock;
  // Webhooks need the raw body, so JSON parsing is added after their router rather than globally.
  const { app, finish, registry } = createServiceApp({
    name: 'billing',
    logger,
    registry: deps.registry,
    parseJson: false,
    readiness: { postgres: () => pingDatabase(pool), events: () => transport.healthy() },
  });
  const providers = createProviders(config.providers, { clock });
  const ctx = createRouteContext({ pool, verifier, providers, clock, logger, publicUrl: config.http.publicUrl });
  app.use('/api/billing', webhooksRouter(ctx));
  app.use(express.json({ limit: config.http.bodyLimit, type: ['application/json', 'application/*+json'] }));
  app.use('/api/billing', billingRouter(ctx), myPlanRouter(ctx, { exportUrl: config.exportUrl, internalToken: deps.internalToken }), testCheckoutRouter(ctx));
  app.use('/api/admin', adminRouter(ctx));
  finish();

  eventMetrics(registry, { outbox: pool, transport, consumers: ['billing-users'] });
  const events = serviceEvents({ pool, transport, logger, publishes: true, consumers: [() => subscribeUsers(pool, transport, clock)] });
  let job: { stop(): Promise<void> } | null = null;

  return {
    name: 'billing',
    app,
    async start() {
      await migrate(pool, { schema: SCHEMA, dir: MIGRATIONS_DIR });
      await events.start();
      job = startExpiryJob({ pool, clock, logger, intervalMs: config.jobs.expiryIntervalMs });
      if (config.providers.test && !providers.test) {
        logger.warn('PAYMENTS_TEST_PROVIDER is set but a real provider is configured: the test provider stays off');
      }
      logger.info({ providers: ['test', 'yookassa', 'stripe'].filter((n) => providers.byName(n)) }, 'billing started');
    },
    async stop() {
      await job?.stop();
      job = null;
      await events.stop();
    },
    flushOutbox: () => events.flush(),
    runExpiry: () => runExpiryPass(pool, clock()),
  };
}

/** The billing service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const billingService = defineService({
  name: 'billing',
  configSchema: BillingConfigSchema,
  reachedBy: (url) => ({ BILLING_URL: url }),
  create: (config, rt) =>
    createBillingService({
      pool: rt.pool(SCHEMA, { max: config.DATABASE_POOL_MAX }),
      transport: rt.transport,
      logger: rt.logger,
      config: billingServiceConfig(config),
      verifier: rt.verifier,
      registry: rt.registry,
      internalToken: rt.internalToken,
    }),
});

export default billingService;
