import type { RequestHandler } from 'express';
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
  }
  return registry;
}

/** Request duration by route template (never by raw path: ids would explode the label set). */
export function httpMetrics(registry: client.Registry): RequestHandler {
  const histogram = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (req, res, next) => {
    const end = histogram.startTimer();
    // The template is taken when the router matches: once an error leaves a mounted router,
    // Express has already reset req.baseUrl and '/api/boards/:id' would read as a bare '/:id'.
    let matched: string | undefined;
    let current: unknown = req.route;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (route: { path?: unknown } | undefined) => {
        current = route;
        if (route?.path !== undefined) matched = `${req.baseUrl}${String(route.path)}`;
      },
    });
    res.on('finish', () => {
      const route = matched ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'other');
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
