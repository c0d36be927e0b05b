import type { RouteDecl, ServiceName, ServiceTopology } from './types.ts';

export interface CompiledRoute extends RouteDecl {
  service: ServiceName;
  pattern: RegExp;
}

const PARAM = '[^/]+';

function compile(path: string): RegExp {
  const body = path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? PARAM : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^/${body}(/|$)`);
}

/** Longer prefixes first; at equal length a literal segment before a parameter, then by text. */
function specificity(a: RouteDecl, b: RouteDecl): number {
  const sa = a.path.split('/').filter(Boolean);
  const sb = b.path.split('/').filter(Boolean);
  if (sa.length !== sb.length) return sb.length - sa.length;
  for (let i = 0; i < sa.length; i++) {
    const pa = sa[i]!.startsWith(':');
    const pb = sb[i]!.startsWith(':');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The gateway's route table from the manifest, most specific first, so that the first match wins.
 * Throws when two services claim the same prefix: the manifest would be ambiguous.
 */
export function compileRoutes(services: readonly ServiceTopology[]): CompiledRoute[] {
  const all = services.flatMap((s) => s.routes.map((r) => ({ ...r, service: s.name, pattern: compile(r.path) })));
  const seen = new Map<string, ServiceName>();
  for (const r of all) {
    const key = r.path.replace(/:[^/]+/g, ':');
    const other = seen.get(key);
    if (other) throw new Error(`route ${r.path} is declared by both ${other} and ${r.service}`);
    seen.set(key, r.service);
  }
  return all.sort(specificity);
}

/** Which route of the table a path takes, if any (`/internal/*` is in no service's routes). */
export function matchRoute(table: readonly CompiledRoute[], path: string): CompiledRoute | undefined {
  return table.find((r) => r.pattern.test(path));
}
