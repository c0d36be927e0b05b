import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import type { Pool } from '@wb/db';
import type { EventTransport } from '@wb/events';
import type { TokenVerifier } from './auth.ts';
import { env } from './config.ts';
import type { Logger } from './logger.ts';
import type { Registry } from './metrics.ts';
import type { RevocationList } from './revocation.ts';
import type { RunnableService } from './runnable.ts';

/**
 * The settings every service shares, read by whoever runs it (runService, the embedded and cluster
 * runners). Each service's config schema starts from these through `serviceConfig`, so the names,
 * defaults and meaning are written once:
 * - NATS_URL absent: no NATS; the runner supplies the transport (in-process in the embedded mode).
 * - DATABASE_URL: the PostgreSQL server `runtime.pool(schema)` connects to.
 * - AUTH_JWKS_URL: auth's public keys behind `runtime.verifier`.
 * - INTERNAL_TOKEN: the shared secret every /internal/* call carries (header `x-internal-token`);
 *   absent, the runner makes up a random one, so /internal/* of that process refuses every caller.
 */
export const commonConfigShape = {
  LOG_LEVEL: env.logLevel(),
  NATS_URL: env.optionalString(),
  DATABASE_URL: env.optionalString(),
  AUTH_JWKS_URL: env.optionalString(),
  INTERNAL_TOKEN: env.optionalString(),
};

export interface CommonConfig {
  PORT: number;
  LOG_LEVEL: string;
  NATS_URL?: string;
  DATABASE_URL?: string;
  AUTH_JWKS_URL?: string;
  INTERNAL_TOKEN?: string;
}

/**
 * A service's environment schema: its port's default, the common settings, then its own fields
 * (which may tighten a common one, e.g. `DATABASE_URL: env.url()` to make it required).
 */
export function serviceConfig<S extends z.ZodRawShape>(defaultPort: number, own: S) {
  // Spelled out for the compiler: a spread of a generic shape would intersect a common field with
  // the service's own definition of it instead of replacing it.
  const shape = { PORT: env.port(defaultPort), ...commonConfigShape, ...own } as Omit<CommonShape, keyof S> & S;
  return z.object(shape);
}

type CommonShape = typeof commonConfigShape & { PORT: ReturnType<typeof env.port> };

/** A service running in this same process (embedded mode): the gateway calls it without a socket. */
export interface LocalService {
  app: Express;
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** What the runner hands to `create`: everything that is process-wide or shared with other services. */
export interface ServiceRuntime {
  logger: Logger;
  /** A pool whose search_path is `schema`, on the runner's PostgreSQL. The runner closes it after stop(). */
  pool(schema: string, opts?: { max?: number }): Pool;
  /** Domain events: NATS JetStream when NATS_URL is set, else the runner's in-process transport. */
  transport: EventTransport;
  /** Core NATS (not JetStream) when NATS_URL is set; opened on first call, drained by the runner after stop(). */
  nats(): Promise<NatsConnection | undefined>;
  /** Checks access tokens against auth's keys (AUTH_JWKS_URL); every call to it fails without that setting. */
  verifier: TokenVerifier;
  /**
   * In-process runners (embedded, testkit): the one revocation list every verifier of the process
   * checks; auth adds to it directly, so a revocation holds everywhere before auth answers.
   */
  revocations?: RevocationList;
  /** The credential /internal/* calls carry and check (see `internalAuth`, `internalHeaders`). */
  internalToken: string;
  /** Where the service's /metrics come from. */
  registry: Registry;
  /** Embedded mode only: the services already started in this process, by name. */
  local?: Record<string, LocalService>;
}

export interface ServiceDefinition<C extends CommonConfig = CommonConfig> {
  /** Also the logger's name, the default Postgres schema and the `<NAME>_URL` others use. */
  name: string;
  /** Parses the environment (process.env, or the runner's composed env). */
  configSchema: z.ZodType<C, unknown>;
  /** Builds the service; nothing listens or runs until the runner calls start(). */
  create(config: C, runtime: ServiceRuntime): Promise<RunnableService>;
  /**
   * The environment other services use to reach this one at `url` (e.g. auth gives AUTH_URL and
   * AUTH_JWKS_URL). The runners merge these for every service in their list.
   */
  reachedBy?(url: string): Record<string, string>;
}

/**
 * The one contract between a service and whatever runs it. A service package exports exactly one
 * definition from its entry (`@wb/<name>`); main.ts is `await runService(definition)` and the
 * embedded and cluster runners loop over a list of definitions.
 *
 * @example
 * // services/billing/src/config.ts
 * export const BillingConfigSchema = serviceConfig(3005, {
 *   DATABASE_URL: env.url(),                  // required here, optional in the common part
 *   GRACE_DAYS: z.coerce.number().int().min(0).default(3),
 * });
 * // services/billing/src/definition.ts  (package.json "exports": {".": "./src/definition.ts"})
 * export const billing = defineService({
 *   name: 'billing',
 *   configSchema: BillingConfigSchema,
 *   reachedBy: (url) => ({ BILLING_URL: url }),
 *   async create(config, rt) {
 *     return createBillingService({ pool: rt.pool('billing'), transport: rt.transport, logger: rt.logger,
 *       verifier: rt.verifier, internalToken: rt.internalToken, registry: rt.registry, config });
 *   },
 * });
 * // services/billing/src/main.ts
 * import { runService } from '@wb/service-kit/run';
 * import { billing } from './definition.ts';
 * await runService(billing);
 * // createBillingService mounts `internalAuth(internalToken)` before its /internal router and
 * // passes `registry` to createServiceApp.
 */
export function defineService<C extends CommonConfig>(definition: ServiceDefinition<C>): ServiceDefinition<C> {
  return definition;
}

/** A list of definitions of different config types (what the runners take). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry keeps its own config type
export type AnyServiceDefinition = ServiceDefinition<any>;
