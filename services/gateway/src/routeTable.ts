import { ROUTES, TOPOLOGY, type CompiledRoute, type ServiceName as TopologyName } from '@wb/topology';

/**
 * Which service owns which path: the topology manifest's routes (libs/topology), most specific
 * first, so the first match wins. `/internal/*` is in no service's routes and is never routed.
 */
export type ServiceName = Exclude<TopologyName, 'gateway'>;

export type RouteRule = CompiledRoute & { service: ServiceName };

export const ROUTE_TABLE = ROUTES as RouteRule[];

export function routeFor(path: string): ServiceName | undefined {
  return ROUTE_TABLE.find((r) => r.pattern.test(path))?.service;
}

/** Every service behind the gateway, in the manifest's order. */
export const SERVICES: ServiceName[] = TOPOLOGY.flatMap((s) => (s.name === 'gateway' ? [] : [s.name]));
