import { randomUUID } from 'node:crypto';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { SERVICE_TRUSTED_PROXIES } from './client-address.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import { inputGuard } from './input-guard.ts';
import { createRegistry, httpMetrics, type Registry } from './metrics.ts';
import './request-types.ts';

export type ReadinessCheck = () => Promise<boolean>;

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** Dependencies /ready reports on; the answer is 503 when any is false. */
  readiness?: Record<string, ReadinessCheck>;
  /** JSON body limit, e.g. '100kb'. */
  bodyLimit?: string;
  registry?: Registry;
  /** Proxies whose X-Forwarded-For is believed ('trust proxy' syntax; false = none). */
  trustProxy?: string | number | boolean;
  /** False for the gateway, which streams bodies on to the services untouched. */
  parseJson?: boolean;
  /** False for the gateway: its public port must not show metrics (it serves them on a port of its own). */
  serveMetrics?: boolean;
}

export interface ServiceApp {
  app: Express;
  registry: Registry;
  /** Call after the service's routes: adds the 404 and error handlers. */
  finish(): Express;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const STARTED = Symbol('requestStarted');
// Credentials that travel in query strings (image URLs and sockets cannot send headers) stay out of logs.
const SECRET_PARAMS = /([?&](?:token|share|access_token)=)[^&#]*/gi;
export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');
type ObservedRequest = Request & { [STARTED]?: number };

/**
 * `req.log` made on first use. Most requests never log, and a pino child per request (twice in the
 * embedded mode: the gateway's app, then the service's) was a measurable share of the hottest calls.
 * The getter sits on this app's request prototype, keyed per app, so each service logs under its name.
 */
function lazyRequestLog(app: Express, logger: Logger): void {
  const own = Symbol('log');
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [own]?: Logger }) {
      return (this[own] ??= logger.child({ reqId: this.id }));
    },
    set(this: Request & { [own]?: Logger }, value: Logger) {
      this[own] = value;
    },
  });
}

/**
 * Request id, the request log line and the duration histogram, with one 'finish' listener per app.
 * The log line is written at debug level (error for 5xx), so it is skipped unless that level is on.
 */
export const requestContext = (logger: Logger, observe?: (req: Request, res: Response, seconds: number) => void): RequestHandler =>
  (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    req.id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    const observed = req as ObservedRequest;
    // The first app a request passes (the gateway in the embedded mode) starts the clock for all.
    const started = (observed[STARTED] ??= performance.now());
    const debug = logger.isLevelEnabled('debug');
    res.on('finish', () => {
      const ms = performance.now() - started;
      observe?.(req, res, ms / 1000);
      if (res.statusCode >= 500 || debug) {
        const level = res.statusCode >= 500 ? 'error' : 'debug';
        req.log[level]({ method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
      }
    });
    next();
  };

/**
 * The common skeleton of every service: request ids and logs, metrics, JSON bodies with a limit,
 * /health, /ready and /metrics. The service mounts its routes, then calls finish().
 */
export function createServiceApp(opts: ServiceAppOptions): ServiceApp {
  const app = express();
  app.disable('x-powered-by');
  // API answers change with every write and clients do not revalidate them: hashing each body for an ETag is wasted CPU.
  app.set('etag', false);
  // Forwarded headers count only from these peers (express 'trust proxy' syntax). Services sit behind
  // the gateway, which rewrites X-Forwarded-For to the address it judged; the gateway passes TRUST_PROXY.
  app.set('trust proxy', opts.trustProxy ?? SERVICE_TRUSTED_PROXIES);
  const registry = opts.registry ?? createRegistry(opts.name);
  lazyRequestLog(app, opts.logger);
  app.use(requestContext(opts.logger, httpMetrics(app, registry)));
  if (opts.parseJson !== false) {
    app.use(express.json({ limit: opts.bodyLimit ?? '100kb', type: ['application/json', 'application/*+json'] }));
  }
  app.use(inputGuard);

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: opts.name });
  });
  app.get('/ready', async (_req, res) => {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      Object.entries(opts.readiness ?? {}).map(async ([k, check]) => {
        checks[k] = await check().catch(() => false);
      }),
    );
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', service: opts.name, checks });
  });
  if (opts.serveMetrics !== false) {
    app.get('/metrics', async (_req, res) => {
      res.setHeader('content-type', registry.contentType);
      res.send(await registry.metrics());
    });
  }

  return {
    app,
    registry,
    finish() {
      app.use(notFoundHandler);
      app.use(errorHandler);
      return app;
    },
  };
}
