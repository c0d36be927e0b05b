/**
 * Which service owns which path (DESIGN.md, "Services: what each owns"). Order matters: the first
 * matching rule wins, so the more specific paths come first. `/internal/*` is never routed.
 */
export type ServiceName = 'auth' | 'boards' | 'realtime' | 'billing' | 'admin' | 'export';

export interface RouteRule {
  service: ServiceName;
  pattern: RegExp;
}

export const ROUTE_TABLE: RouteRule[] = [
  { service: 'auth', pattern: /^\/api\/auth(\/|$)/ },
  { service: 'auth', pattern: /^\/api\/admin\/users(\/|$)/ },
  { service: 'billing', pattern: /^\/api\/admin\/(plans|subscriptions|payments|config)(\/|$)/ },
  { service: 'admin', pattern: /^\/api\/admin\/(stats|activity|system|docker|update)(\/|$)/ },
  // Snapshot debugging reads the realtime store, though it sits under /api/boards.
  { service: 'realtime', pattern: /^\/api\/boards\/[^/]+\/debug(\/|$)/ },
  { service: 'boards', pattern: /^\/api\/(boards|folders|tags)(\/|$)/ },
  { service: 'billing', pattern: /^\/api\/billing(\/|$)/ },
  { service: 'export', pattern: /^\/api\/export(\/|$)/ },
  { service: 'realtime', pattern: /^\/yjs(\/|$)/ },
];

export function routeFor(path: string): ServiceName | undefined {
  return ROUTE_TABLE.find((r) => r.pattern.test(path))?.service;
}

export const SERVICES: ServiceName[] = ['auth', 'boards', 'realtime', 'billing', 'admin', 'export'];
