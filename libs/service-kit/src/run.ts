// The process side of the service contract: `await runService(definition)` is a service's whole
// main.ts. Kept out of the package's main entry so code that only defines a service does not load
// pg, NATS and the transports.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { connect, type NatsConnection } from 'nats';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, createNatsTransport, type EventTransport } from '@wb/events';
import { createTokenVerifier, type TokenVerifier } from './auth.ts';
import { createRevocationList, fetchRevokedFrom, revokedSessionsUrl, type FetchRevoked, type RevocationList } from './revocation.ts';
import { natsRevocationFeed } from './revocation-feed.ts';
import { ConfigError, loadConfig } from './config.ts';
import { appError } from './errors.ts';
import { internalHeaders } from './internal.ts';
import { createLogger, type Logger } from './logger.ts';
import { createRegistry } from './metrics.ts';
import type { RunnableService } from './runnable.ts';
import { listen, onShutdown, type RunningServer } from './server.ts';
import type { CommonConfig, ServiceDefinition, ServiceRuntime } from './service.ts';
import { stopTracing } from './tracing.ts';

/** A verifier for services without AUTH_JWKS_URL (auth itself; a gateway without it refuses every /api/admin call): every token is refused. */
const noVerifier: TokenVerifier = {
  async verify() {
    throw appError('TOKEN_INVALID');
  },
};

/**
 * `revocations`: the list the verifier checks `sid` against. Runners pass one fed by NATS
 * (natsRevocationList) or shared in-process (embedded); without, it polls auth's HTTP list.
 */
export function verifierFor(jwksUrl: string | undefined, internalToken: string, revocations?: RevocationList): TokenVerifier {
  return jwksUrl ? createTokenVerifier({ jwksUrl, headers: internalHeaders(internalToken) }, { revocations }) : noVerifier;
}

/** Revoked sessions pushed over NATS JetStream (revocation-feed.ts): what auth waits for before answering. */
export function natsRevocationList(
  connection: () => Promise<NatsConnection | undefined>,
  opts: { logger?: Logger; fetch?: FetchRevoked; startTimeoutMs?: number } = {},
): RevocationList {
  const { logger, fetch } = opts;
  return createRevocationList({
    feed: natsRevocationFeed(connection, {
      onError: (err) => logger?.warn({ err }, 'unreadable revocation message'),
      startTimeoutMs: opts.startTimeoutMs,
    }),
    fetch,
    onError: (err) => logger?.warn({ err }, 'reading revoked sessions failed'),
  });
}

export { ensureRevocationStream, natsRevocationFeed, natsRevocationPublisher, REVOCATION_STREAM, type RevocationPublisher } from './revocation-feed.ts';

/** Pools by schema, created on demand on one server and all closed together. */
export function poolSet(url: string | undefined, applicationName: string) {
  const pools = new Map<string, Pool>();
  return {
    pool(schema: string, opts: { max?: number } = {}): Pool {
      if (!url) throw new ConfigError(`Invalid configuration:\n  DATABASE_URL: required by ${applicationName}`);
      let p = pools.get(schema);
      if (!p) {
        p = createPool({ url, schema, max: opts.max, applicationName });
        pools.set(schema, p);
      }
      return p;
    },
    async end(): Promise<void> {
      await Promise.all([...pools.values()].map((p) => p.end().catch(() => {})));
      pools.clear();
    },
  };
}

/**
 * Core NATS opened on first use, so services that never ask hold no extra connection.
 * `noEcho`: a process never receives what it published itself. Its subscribers are its peers
 * (realtime's relay between replicas), and the echo was half of every replica's NATS deliveries.
 */
export function lazyNats(url: string | undefined, name: string) {
  let conn: Promise<NatsConnection> | undefined;
  return {
    get(): Promise<NatsConnection | undefined> {
      if (!url) return Promise.resolve(undefined);
      conn ??= connect({ servers: url, name: `${name}-core`, maxReconnectAttempts: -1, waitOnFirstConnect: true, noEcho: true });
      return conn;
    },
    async drain(): Promise<void> {
      const c = await conn?.catch(() => undefined);
      if (c && !c.isClosed()) await c.drain().catch(() => {});
    },
  };
}

/**
 * The order every runner stops a service in (issue 8): stop accepting connections, let the service
 * stop its consumers and flush (realtime closes its sockets and writes every pending update), wait
 * for in-flight requests, then close what it used. Returns the steps as shutdown hooks.
 */
export function stopSteps(parts: {
  servers: RunningServer[];
  services: RunnableService[];
  logger: Logger;
  after: Array<() => Promise<void> | void>;
}): Array<() => Promise<void>> {
  let closing: Promise<unknown> | undefined;
  return [
    async () => {
      closing = Promise.all(parts.servers.map((s) => s.close()));
    },
    async () => {
      for (const s of [...parts.services].reverse()) {
        await s.stop().catch((err) => parts.logger.error({ err, service: s.name }, 'service stop failed'));
      }
    },
    async () => {
      await closing;
    },
    ...parts.after.map((step) => async () => {
      await step();
    }),
  ];
}

/** How long a process handing its port to a successor keeps answering its kept-alive callers (with Connection: close). */
const HANDOVER_DRAIN_MS = 1_500;

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Host to listen on; all interfaces by default. */
  host?: string;
  /** Share the port with a successor process (listen's reusePort): the local cluster's rolling restart. */
  reusePort?: boolean;
}

/**
 * Runs one service as its own process: parses its config from the environment, builds the runtime
 * (logger, pools, event transport, core NATS, token verifier, internal credential, metrics),
 * starts it, listens on PORT (WebSocket upgrades included) and stops it in order on SIGTERM/SIGINT.
 */
export async function runService<C extends CommonConfig>(definition: ServiceDefinition<C>, opts: RunOptions = {}): Promise<RunningServer> {
  const config = loadConfig(definition.configSchema, opts.env ?? process.env);
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  let internalToken = config.INTERNAL_TOKEN;
  if (!internalToken) {
    logger.warn('INTERNAL_TOKEN not set: /internal/* of this service refuses every caller');
    internalToken = randomBytes(32).toString('base64url');
  }
  let transport: EventTransport;
  if (config.NATS_URL) {
    transport = await createNatsTransport({ servers: config.NATS_URL, name: definition.name, logger });
  } else {
    // Standalone without NATS nothing else would receive the events; they are still kept in the outbox.
    logger.warn('NATS_URL not set: events stay in this process');
    transport = createInProcessTransport({ logger });
  }
  const pools = poolSet(config.DATABASE_URL, definition.name);
  const nats = lazyNats(config.NATS_URL, definition.name);
  const runtime: ServiceRuntime = {
    logger,
    pool: pools.pool,
    transport,
    nats: nats.get,
    // With NATS, auth waits for this process to acknowledge each revocation before it answers.
    verifier: verifierFor(
      config.AUTH_JWKS_URL,
      internalToken,
      config.NATS_URL && config.AUTH_JWKS_URL
        ? natsRevocationList(nats.get, { logger, fetch: fetchRevokedFrom(revokedSessionsUrl(config.AUTH_JWKS_URL), internalHeaders(internalToken)) })
        : undefined,
    ),
    internalToken,
    registry: createRegistry(definition.name),
  };

  const service = await definition.create(config, runtime);
  await service.start();
  const httpServer = http.createServer(service.app);
  if (service.handleUpgrade) httpServer.on('upgrade', (req, socket, head) => service.handleUpgrade!(req, socket, head));
  const server = await listen(httpServer, config.PORT, opts.host, { reusePort: opts.reusePort });
  logger.info({ port: server.port }, `${definition.name} listening`);

  onShutdown(
    logger,
    [
      // Its successor already listens on the port: callers are moved over before anything stops.
      ...(opts.reusePort && server.drain ? [() => server.drain!(HANDOVER_DRAIN_MS)] : []),
      ...stopSteps({
      servers: [server],
      services: [service],
      logger,
      after: [() => transport.close(), () => nats.drain(), () => pools.end(), () => stopTracing()],
      }),
    ],
  );
  return server;
}
