import type { Pool } from '@wb/db';
import { migrate, pingDatabase } from '@wb/db';
import { ensureEventTables, startOutboxRelay, type EventTransport } from '@wb/events';
import {
  appError,
  createServiceApp,
  eventMetrics,
  createRevocationList,
  createTokenVerifier,
  defineService,
  internalAuth,
  type Logger,
  promClient,
  type Registry,
  type RevocationList,
  type ServiceRuntime,
  type RunnableService,
} from '@wb/service-kit';
import { natsRevocationFeed, natsRevocationPublisher, type RevocationPublisher } from '@wb/service-kit/run';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthConfigSchema, type AuthConfig } from './config.ts';
import { createSigner, signingKeyFromPem, type Signer } from './domain/tokens.ts';
import { accountRouter } from './routes/account.ts';
import { adminUsersRouter } from './routes/admin-users.ts';
import { authRouter } from './routes/auth.ts';
import type { AuthContext } from './routes/context.ts';
import { createUserCache } from './store/userCache.ts';
import { internalRouter } from './routes/internal.ts';
import { bootstrapAdmin } from './store/admin.ts';
import { loadOrCreateSigningKey } from './store/keys.ts';
import { deleteExpiredTokens, revokedSince } from './store/sessions.ts';
import { subscribePlanAndBoards } from './events/plan-and-boards.ts';
import { systemClock, type Clock } from './domain/email-links.ts';
import { createEmailFlows } from './mail/flows.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { emailRouter } from './routes/email.ts';
import { deleteStaleEmailState } from './store/email-links.ts';

export { AuthConfigSchema, type AuthConfig } from './config.ts';
export { deleteUser } from './store/users.ts';

type NatsConnection = NonNullable<Awaited<ReturnType<ServiceRuntime['nats']>>>;

export interface AuthDeps {
  /** A pool whose search_path is the `auth` schema (createPool({schema: 'auth'})). */
  pool: Pool;
  transport: EventTransport;
  logger: Logger;
  config: AuthConfig;
  /** The shared secret /internal/* requires; the runners always pass one (tests may leave it open). */
  internalToken?: string;
  registry?: Registry;
  /** Time of the e-mail links and their throttles (tests move it instead of waiting an hour). */
  clock?: Clock;
  /** Where mails go; default: SMTP_URL through nodemailer (or the log without it). */
  mailer?: Mailer;
  /** Core NATS: revocations are published on it and answered only once every verifier has them. */
  nats?: NatsConnection;
  /** In-process runners: the list every verifier of the process shares (ServiceRuntime.revocations). */
  revocations?: RevocationList;
}

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const CLEANUP_EVERY_MS = 60 * 60_000;

export async function createAuthService(deps: AuthDeps): Promise<RunnableService> {
  const { pool, transport, logger, config } = deps;
  let signer: Signer | undefined;
  let relay: { stop(): Promise<void> | void } | undefined;
  let cleanup: NodeJS.Timeout | undefined;
  let planAndBoards: { stop(): Promise<void> } | undefined;

  // This replica's own revocations go in at once. With NATS, other replicas' arrive over the feed
  // before they answer (the database poll stays as a safety net); in one process the list is shared.
  const fetchRevoked = async (since: string | undefined) => ({ ...(await revokedSince(pool, since, config.ACCESS_TOKEN_TTL)), keepSeconds: config.ACCESS_TOKEN_TTL });
  const onError = (err: unknown) => logger.warn({ err }, 'reading revoked sessions failed');
  const nc = deps.nats;
  const revocations = nc
    ? createRevocationList({ feed: natsRevocationFeed(async () => nc, { onError }), fetch: fetchRevoked, onError })
    : (deps.revocations ?? createRevocationList({ fetch: fetchRevoked, onError }));
  let publisher: RevocationPublisher | undefined;
  const revocationWait = deps.registry
    ? new promClient.Histogram({
        name: 'auth_revocation_wait_seconds',
        help: 'From publishing revoked sessions to every verifier having acknowledged them',
        buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 3],
        registers: [deps.registry],
      })
    : undefined;
  const clock = deps.clock ?? systemClock;
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger });
  const ctx: AuthContext = {
    emails: createEmailFlows({ pool, mailer, clock, publicUrl: config.PUBLIC_URL, logger }),
    pool,
    config,
    logger,
    // In-process: auth checks its own tokens against the same key set it serves at /internal/jwks.
    verifier: createTokenVerifier({ jwks: () => signer?.jwks ?? { keys: [] } }, { revocations }),
    revocations,
    async endSessions(sids) {
      revocations.add(sids);
      if (!nc || sids.length === 0) return;
      if (!publisher) throw appError('SERVICE_UNAVAILABLE');
      // NATS failing here: the revocation is committed and the verifiers' 1 s poll carries it; the
      // caller hears "try again" rather than a success that does not hold everywhere yet.
      const r = await publisher.publish(sids).catch((err: unknown) => {
        logger.error({ err, sessions: sids.length }, 'publishing revoked sessions failed');
        throw appError('SERVICE_UNAVAILABLE');
      });
      revocationWait?.observe(r.waitedMs / 1000);
      // A verifier alive but not acknowledging (stuck event loop): answer anyway, it learns on its next read.
      if (!r.complete) logger.warn({ behind: r.behind, waitedMs: Math.round(r.waitedMs) }, 'revocation not acknowledged by every verifier in time');
    },
    async accountEnded(userId, sids) {
      ctx.users.forget(userId);
      await ctx.endSessions(sids);
    },
    users: createUserCache(config.USER_CACHE_TTL_MS),
    signer() {
      if (!signer) throw appError('SERVICE_UNAVAILABLE');
      return signer;
    },
  };

  const svc = createServiceApp({
    name: 'auth',
    logger,
    registry: deps.registry,
    bodyLimit: '100kb',
    readiness: {
      started: async () => signer !== undefined,
      database: () => pingDatabase(pool),
      events: () => transport.healthy(),
    },
  });
  svc.app.use('/api/auth', authRouter(ctx));
  svc.app.use('/api/auth', accountRouter(ctx));
  svc.app.use('/api/auth', emailRouter(ctx));
  svc.app.use('/api/admin/users', adminUsersRouter(ctx));
  if (deps.internalToken) svc.app.use('/internal', internalAuth(deps.internalToken));
  svc.app.use('/internal', internalRouter(ctx));
  svc.finish();
  eventMetrics(svc.registry, { outbox: pool, transport, consumers: ['auth-plan-and-boards'] });

  return {
    name: 'auth',
    app: svc.app,
    async start() {
      await migrate(pool, { schema: 'auth', dir: MIGRATIONS });
      await ensureEventTables(pool);
      const key = config.AUTH_PRIVATE_KEY_PEM ? await signingKeyFromPem(config.AUTH_PRIVATE_KEY_PEM) : await loadOrCreateSigningKey(pool);
      signer = await createSigner(key);
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const result = await bootstrapAdmin(pool, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
        logger.info({ result }, 'admin account ensured');
      }
      if (nc) publisher = await natsRevocationPublisher(nc, { keepSeconds: config.ACCESS_TOKEN_TTL, waitMs: config.REVOCATION_WAIT_MS });
      await revocations.start();
      relay = startOutboxRelay({ pool, transport, logger });
      planAndBoards = await subscribePlanAndBoards(pool, transport, (id) => ctx.users.forget(id));
      cleanup = setInterval(() => {
        deleteExpiredTokens(pool).catch((err) => logger.warn({ err }, 'refresh token cleanup failed'));
        deleteStaleEmailState(pool, clock.now()).catch((err) => logger.warn({ err }, 'e-mail link cleanup failed'));
      }, CLEANUP_EVERY_MS);
      cleanup.unref();
      logger.info({ kid: signer.kid }, 'auth started');
    },
    async stop() {
      revocations.stop();
      if (cleanup) clearInterval(cleanup);
      cleanup = undefined;
      await planAndBoards?.stop();
      planAndBoards = undefined;
      await relay?.stop();
      relay = undefined;
      await mailer.stop();
    },
  };
}

/** The auth service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const authService = defineService({
  name: 'auth',
  configSchema: AuthConfigSchema,
  reachedBy: (url) => ({ AUTH_URL: url, AUTH_JWKS_URL: `${url}/internal/jwks` }),
  create: async (config, rt) =>
    createAuthService({
      pool: rt.pool('auth'),
      transport: rt.transport,
      logger: rt.logger,
      config,
      internalToken: rt.internalToken,
      registry: rt.registry,
      nats: await rt.nats(),
      revocations: rt.revocations,
    }),
});

export default authService;
