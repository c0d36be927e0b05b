import { compileRoutes } from './routes.ts';
import { TOPOLOGY } from './services.ts';
import type { ServiceName, ServiceTopology } from './types.ts';

export * from './types.ts';
export { compileRoutes, matchRoute, type CompiledRoute } from './routes.ts';
export { TOPOLOGY } from './services.ts';

const byName = new Map<string, ServiceTopology>(TOPOLOGY.map((s) => [s.name, s]));

/** One service's entry; throws on a name the manifest does not have. */
export function serviceTopology(name: ServiceName): ServiceTopology {
  const s = byName.get(name);
  if (!s) throw new Error(`no service named ${name} in the topology manifest`);
  return s;
}

/** The services behind the gateway, in start order (the gateway itself excluded). */
export const BACKEND_SERVICES: ServiceTopology[] = TOPOLOGY.filter((s) => s.name !== 'gateway');

/** The gateway's route table (most specific first). */
export const ROUTES = compileRoutes(TOPOLOGY);

/** The environment others use to reach `service` at `url` (AUTH_URL and AUTH_JWKS_URL, ...). */
export function reachEnvOf(service: ServiceTopology, url: string): Record<string, string> {
  const base = url.replace(/\/$/, '');
  return Object.fromEntries(Object.entries(service.reachedBy).map(([k, suffix]) => [k, `${base}${suffix}`]));
}

/** The variable that holds a service's base URL for the gateway (`AUTH_URL`, `ADMIN_URL`, ...). */
export const urlVariableOf = (name: ServiceName): string => `${name.toUpperCase()}_URL`;
