import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import helmet from 'helmet';
import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import { ERRORS } from '@wb/contracts';
import { appError, createServiceApp, type Logger, type RunnableService } from '@wb/service-kit';
import type { GatewayConfig } from './config.ts';
import { collectHealth } from './health.ts';
import { forwarderFor, type Forwarder, type ServiceTarget } from './proxy.ts';
import { routeFor, SERVICES, type ServiceName } from './routeTable.ts';
import { spaRouter } from './spa.ts';

export { GatewayConfigSchema, type GatewayConfig } from './config.ts';
export type { ServiceTarget } from './proxy.ts';
export { ROUTE_TABLE, routeFor } from './routeTable.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** How to reach each service; a missing one answers 503 SERVICE_UNAVAILABLE. */
  targets: Partial<Record<ServiceName, ServiceTarget>>;
}

const tooMany = (_req: unknown, res: { status(n: number): { json(b: unknown): void } }) =>
  res.status(429).json({ error: ERRORS.RATE_LIMITED.message, code: 'RATE_LIMITED' });

export function createGateway(deps: GatewayDeps): RunnableService {
  const { config, logger } = deps;
  const { app, finish } = createServiceApp({ name: 'gateway', logger, parseJson: false });
  const forwarders = Object.fromEntries(
    SERVICES.map((s) => [s, forwarderFor(s, deps.targets[s], logger)]),
  ) as Record<ServiceName, Forwarder>;

  // Pages get the full set of security headers; JSON and WebSocket answers only need nosniff, and
  // skipping a dozen headers that mean nothing to fetch() is measurable on the hottest calls.
  const pageHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'script-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false, // TLS ends at the ingress, which sets HSTS
  });
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
    });
    app.post(['/api/auth/login', '/api/auth/register', '/api/auth/refresh'], limiter);
  }

  app.get('/api/health', async (_req, res) => {
    const health = await collectHealth(deps.targets, SERVICES);
    res.status(health.ok ? 200 : 503).json({ status: health.ok ? 'ok' : 'degraded', ...health });
  });

  // Internal calls stay between services; the outside world never reaches them.
  app.use('/internal', (_req, _res, next) => next(appError('NOT_FOUND')));

  const bodyLimit: RequestHandler = (req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > config.BODY_LIMIT_BYTES) return next(appError('PAYLOAD_TOO_LARGE'));
    next();
  };

  app.use(['/api', '/yjs'], bodyLimit, (req, res, next) => {
    const service = routeFor(req.originalUrl.split('?')[0] ?? '');
    if (!service) return next(appError('NOT_FOUND'));
    // Services see the full path, as they would behind a proxy, and log under the same request id.
    req.url = req.originalUrl;
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
      upgrade(req, socket, head);
    },
    async start() {},
    async stop() {},
  };
}
