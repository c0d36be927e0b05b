import { readdir } from 'node:fs/promises';
import type { Express, Request, Response } from 'express';
import client from 'prom-client';

export type Registry = client.Registry;
export { client as promClient };

let defaultMetricsRegistry: client.Registry | undefined;

/**
 * A registry per service (the embedded mode runs several services in one process, and each keeps
 * its own /metrics). Process metrics are collected once per process, into the first registry.
 */
export function createRegistry(service: string): client.Registry {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  if (!defaultMetricsRegistry) {
    defaultMetricsRegistry = registry;
    client.collectDefaultMetrics({ register: registry });
    withoutPerSocketScans(registry);
  }
  return registry;
}

/**
 * prom-client's defaults list every libuv handle, request and resource (twice over for handles) and
 * read /proc/self/fd synchronously on each scrape: with 2,000 sockets open that held the event loop
 * for 4 to 8 ms per scrape on our 2-core machine (16 to 32 ms with 10,000), a stall every scrape
 * interval for everyone on a realtime replica. The per-type handle and resource counts go (the
 * services count their own sockets); the open descriptors stay, counted off the event loop.
 */
const PER_SOCKET_SCANS = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'process_open_fds',
];

function withoutPerSocketScans(registry: client.Registry): void {
  for (const name of PER_SOCKET_SCANS) registry.removeSingleMetric(name);
  if (process.platform !== 'linux') return;
  new client.Gauge({
    name: 'process_open_fds',
    help: 'Number of open file descriptors.',
    registers: [registry],
    async collect() {
      // readdir runs in libuv's thread pool; only the list of names comes back to this thread.
      const fds = await readdir('/proc/self/fd').catch(() => null);
      if (fds) this.set(fds.length);
    },
  });
}

const MATCHED = Symbol('matchedRoute');
const ROUTE = Symbol('route');
type RoutedRequest = Request & { [MATCHED]?: string; [ROUTE]?: unknown };

/**
 * Remembers the route template when the router matches (`req.route = route`): once an error leaves
 * a mounted router, Express has already reset req.baseUrl and '/api/boards/:id' would read as a bare
 * '/:id'. An accessor on the app's request prototype, defined once, rather than one per request.
 */
function rememberMatchedRoute(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    get(this: RoutedRequest) {
      return this[ROUTE];
    },
    set(this: RoutedRequest, route: { path?: unknown } | undefined) {
      this[ROUTE] = route;
      if (route?.path !== undefined) this[MATCHED] = `${this.baseUrl}${String(route.path)}`;
    },
  });
}

/**
 * Request duration by route template (never by raw path: ids would explode the label set). Returns
 * the observer requestContext calls when the answer is finished.
 */
export function httpMetrics(app: Express, registry: client.Registry): (req: Request, res: Response, seconds: number) => void {
  const histogram = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  rememberMatchedRoute(app);
  // Bound children by label set: labels are hashed once per set, not on every observation.
  const children = new Map<string, { observe(value: number): void }>();
  return (req, res, seconds) => {
    const route = (req as RoutedRequest)[MATCHED] ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other');
    const status = String(res.statusCode);
    const key = `${req.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) children.set(key, (child = histogram.labels({ method: req.method, route, status })));
    child.observe(seconds);
  };
}
