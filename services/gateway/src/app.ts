import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import helmet from 'helmet';
import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import { ERRORS } from '@wb/contracts';
import {
  appError,
  clientAddress,
  promClient,
  createServiceApp,
  defineService,
  internalHeaders,
  listen,
  type Logger,
  type Registry,
  type RunnableService,
  type RunningServer,
  type TokenVerifier,
} from '@wb/service-kit';
import { GatewayConfigSchema, type GatewayConfig } from './config.ts';
import { collectHealth } from './health.ts';
import { adminGate, cachePolicy } from './policies.ts';
import { forwarderFor, type Forwarder, type ServiceTarget } from './proxy.ts';
import { ReplicaSet } from './replicas.ts';
import { routeFor, SERVICES, type ServiceName } from './routeTable.ts';
import { spaRouter } from './spa.ts';

export { GatewayConfigSchema, type GatewayConfig } from './config.ts';
export type { ServiceTarget } from './proxy.ts';
export { ROUTE_TABLE, routeFor } from './routeTable.ts';
/** How the gateway places a board's sockets on realtime replicas (the benchmark places its clients the same way). */
export { boardOfRealtimePath, rendezvous } from './domain/rendezvous.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** How to reach each service; a missing one answers 503 SERVICE_UNAVAILABLE. */
  targets: Partial<Record<ServiceName, ServiceTarget>>;
  /** Sent with the health checks: the embedded mode's loopback ports answer nothing without it. */
  internalToken?: string;
  registry?: Registry;
  /** Auth's token verifier: /api/admin/* is refused to non-administrators here, deployed or not. */
  verifier?: TokenVerifier;
}

/** TRUST_PROXY as express wants it: unset or 'false' = trust no one, a number = that many hops, else addresses/CIDRs/names. */
export function trustProxySetting(value: string | undefined): string | number | boolean {
  const v = value?.trim();
  if (!v || v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

const tooMany = (_req: unknown, res: { status(n: number): { json(b: unknown): void } }) =>
  res.status(429).json({ error: ERRORS.RATE_LIMITED.message, code: 'RATE_LIMITED' });

export function createGateway(deps: GatewayDeps): RunnableService {
  const { config, logger } = deps;
  let metricsServer: RunningServer | undefined;
  const { app, registry, finish } = createServiceApp({
    name: 'gateway',
    logger,
    parseJson: false,
    serveMetrics: false,
    registry: deps.registry,
    // The edge: a client's own X-Forwarded-For is ignored unless it came through a configured proxy.
    trustProxy: trustProxySetting(config.TRUST_PROXY),
  });
  const internal = deps.internalToken ? internalHeaders(deps.internalToken) : {};
  const replicaSet = deps.targets.realtime?.replicas;
  if (replicaSet) {
    new promClient.Gauge({
      name: 'gateway_realtime_replicas',
      help: 'Realtime replicas the gateway routes boards to, by state (down: passed over after a refused connection or a failed /ready)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const states = replicaSet.states();
        this.set({ state: 'up' }, states.filter((r) => r.up).length);
        this.set({ state: 'down' }, states.filter((r) => !r.up).length);
      },
    });
  }
  // Sockets this gateway proxies to another process. They are not the HTTP server's to close: at
  // stop they would hold it open until the process is killed, so stop() ends them and the clients
  // reconnect through another gateway. (Embedded, the services own their sockets and close them.)
  const proxiedSockets = new Set<Duplex>();
  const forwarders = Object.fromEntries(
    SERVICES.map((s) => [s, forwarderFor(s, deps.targets[s], logger, config.UPGRADE_TIMEOUT_MS)]),
  ) as Record<ServiceName, Forwarder>;

  // Pages get the full set of security headers; JSON and WebSocket answers only need nosniff, and
  // skipping a dozen headers that mean nothing to fetch() is measurable on the hottest calls.
  const pageHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        // Images come from the board's own store or data URLs only (issue 32 item 9: an outside
        // picture is a tracking pixel); an image pasted from another site is fetched by the page and
        // uploaded, hence fetch() may reach other sites (http: only matters on a plain-http host).
        'connect-src': ["'self'", 'ws:', 'wss:', 'https:', 'http:'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'script-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false, // TLS ends at the ingress, which sets HSTS
  });
  app.use(cachePolicy);
  app.use((req, res, next) => {
    if (req.path.startsWith('/api/') || req.path.startsWith('/yjs/')) {
      res.setHeader('x-content-type-options', 'nosniff');
      return next();
    }
    pageHeaders(req, res, next);
  });

  if (config.AUTH_RATE_LIMIT_PER_MIN > 0) {
    const limiter = rateLimit({
      windowMs: 60_000,
      limit: config.AUTH_RATE_LIMIT_PER_MIN,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: tooMany as never,
      // A client's own X-Forwarded-For is ignored on purpose (TRUST_PROXY unset): not a misconfiguration.
      validate: { xForwardedForHeader: false },
    });
    app.post(['/api/auth/login', '/api/auth/register', '/api/auth/refresh'], limiter);
  }

  app.get('/api/health', async (_req, res) => {
    const health = await collectHealth(deps.targets, SERVICES, undefined, internal);
    res.status(health.ok ? 200 : 503).json({ status: health.ok ? 'ok' : 'degraded', ...health });
  });

  // Internal calls stay between services and metrics stay on each service's own port: the
  // outside world reaches neither (without this, /metrics would fall through to the SPA).
  app.use(['/internal', '/metrics'], (_req, _res, next) => next(appError('NOT_FOUND')));

  const bodyLimit: RequestHandler = (req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = req.originalUrl.startsWith('/yjs/images/') ? config.IMAGE_BODY_LIMIT_BYTES : config.BODY_LIMIT_BYTES;
    if (length > limit) return next(appError(limit === config.BODY_LIMIT_BYTES ? 'PAYLOAD_TOO_LARGE' : 'IMAGE_TOO_LARGE'));
    next();
  };

  if (deps.verifier) app.use('/api/admin', ...adminGate(deps.verifier));

  app.use(['/api', '/yjs'], bodyLimit, (req, res, next) => {
    const service = routeFor(req.originalUrl.split('?')[0] ?? '');
    if (!service) return next(appError('NOT_FOUND'));
    // Services see the full path, as they would behind a proxy, and log under the same request id.
    req.url = req.originalUrl;
    // Services believe X-Forwarded-For from the gateway: it carries the address judged here, never the client's own.
    req.headers['x-forwarded-for'] = req.ip;
    delete req.headers.forwarded;
    req.headers['x-request-id'] = req.id;
    forwarders[service].http(req, res, next);
  });

  app.use(spaRouter(config.STATIC_DIR));
  finish();

  return {
    name: 'gateway',
    app,
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const service = routeFor(path);
      const upgrade = service ? forwarders[service].upgrade : undefined;
      if (!upgrade) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      // As for HTTP calls: the service believes the address judged here, never the client's own header.
      req.headers['x-forwarded-for'] = clientAddress(req, app.get('trust proxy fn'));
      delete req.headers.forwarded;
      if (service && !deps.targets[service]?.local) {
        proxiedSockets.add(socket);
        socket.once('close', () => proxiedSockets.delete(socket));
      }
      upgrade(req, socket, head);
    },
    async start() {
      await replicaSet?.start();
      if (config.METRICS_PORT === undefined) return;
      metricsServer = await listen(async (_req, res) => {
        res.setHeader('content-type', registry.contentType);
        res.end(await registry.metrics());
      }, config.METRICS_PORT);
      logger.info({ port: metricsServer.port }, 'gateway metrics listening');
    },
    async stop() {
      for (const socket of proxiedSockets) socket.destroy();
      replicaSet?.stop();
      await metricsServer?.close();
      metricsServer = undefined;
    },
  };
}

const TARGET_URLS = {
  auth: 'AUTH_URL',
  boards: 'BOARDS_URL',
  realtime: 'REALTIME_URL',
  billing: 'BILLING_URL',
  admin: 'ADMIN_URL',
  export: 'EXPORT_URL',
} as const satisfies Record<ServiceName, keyof GatewayConfig>;

/** The gateway as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const gatewayService = defineService({
  name: 'gateway',
  configSchema: GatewayConfigSchema,
  async create(config, rt) {
    const targets: Partial<Record<ServiceName, ServiceTarget>> = {};
    for (const service of SERVICES) {
      const url = config[TARGET_URLS[service]];
      // In the embedded mode the services run in this process: calls skip the loopback hop.
      const local = rt.local?.[service];
      if (url || local) targets[service] = { url, local: local && { app: local.app as never, handleUpgrade: local.handleUpgrade?.bind(local) } };
    }
    if (config.REALTIME_REPLICA_URLS.length > 0 && !rt.local?.realtime) {
      const replicas = new ReplicaSet({
        urls: config.REALTIME_REPLICA_URLS,
        logger: rt.logger,
        headers: rt.internalToken ? internalHeaders(rt.internalToken) : {},
      });
      targets.realtime = { replicas };
    }
    return createGateway({ config, logger: rt.logger, targets, internalToken: rt.internalToken, registry: rt.registry, verifier: rt.verifier });
  },
});

export default gatewayService;
