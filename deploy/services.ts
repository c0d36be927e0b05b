import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyServiceDefinition } from '@wb/service-kit';
import { BACKEND_SERVICES, serviceTopology, TOPOLOGY } from '@wb/topology';

/** The checkout's root, from deploy/ in development or deploy/dist/ in a production build. */
export function repoRootFrom(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, 'package-lock.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * Every backend service the runners start, in start order (stopped in reverse): the topology
 * manifest's entries that have a package (libs/topology). Each package's entry exports its
 * definition as default (see defineService in @wb/service-kit). The gateway is not listed: it
 * fronts the others and starts last.
 */
export const SERVICE_PACKAGES: string[] = BACKEND_SERVICES.flatMap((s) => (s.package ? [s.package] : []));

export const GATEWAY_PACKAGE = serviceTopology('gateway').package!;

export async function loadDefinition(pkg: string): Promise<AnyServiceDefinition> {
  const mod = (await import(pkg)) as { default?: AnyServiceDefinition };
  if (!mod.default?.create) throw new Error(`${pkg} does not export a service definition as default`);
  return mod.default;
}

export const loadServices = (): Promise<AnyServiceDefinition[]> => Promise.all(SERVICE_PACKAGES.map(loadDefinition));

/** The environment every service uses to reach the others (AUTH_URL, AUTH_JWKS_URL, BOARDS_URL, ...). */
export function reachEnv(urls: Array<[AnyServiceDefinition, string]>): Record<string, string> {
  return Object.assign({}, ...urls.map(([d, url]) => d.reachedBy?.(url) ?? {}));
}

/**
 * V8 flags a service starts with when it runs as a process of its own (the local cluster, the
 * realtime bench, the container images): the manifest's `nodeFlags`. The embedded mode's single
 * process keeps V8's defaults: it also renders exports, which these flags were not tuned for.
 * Why each one is there: docs/decisions.md.
 */
export function nodeFlagsOf(pkg: string): string[] {
  return [...(TOPOLOGY.find((s) => 'package' in s && s.package === pkg)?.nodeFlags ?? [])];
}
