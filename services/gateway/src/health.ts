import type { ServiceName } from './routeTable.ts';
import type { ServiceTarget } from './proxy.ts';

export type ServiceHealth = {
  status: 'up' | 'down' | 'not deployed';
  checks?: Record<string, boolean>;
  /** Realtime behind REALTIME_REPLICA_URLS: each replica as the gateway's probes last saw it. */
  replicas?: Record<string, 'up' | 'down'>;
};

/** Asks each deployed service's /ready; a service with no address is "not deployed". */
export async function collectHealth(
  targets: Partial<Record<ServiceName, ServiceTarget>>,
  services: ServiceName[],
  timeoutMs = 2_000,
  /** The internal credential: the embedded mode's loopback ports answer nothing without it. */
  headers: Record<string, string> = {},
): Promise<{ ok: boolean; services: Record<string, ServiceHealth> }> {
  const entries = await Promise.all(
    services.map(async (name): Promise<[string, ServiceHealth]> => {
      const set = targets[name]?.replicas;
      if (set) {
        // The probes run every 2 s anyway: one replica that answers keeps every board served.
        const states = set.states();
        if (states.length === 0) return [name, { status: 'down', replicas: {} }];
        const replicas = Object.fromEntries(states.map((r) => [r.url, r.up ? ('up' as const) : ('down' as const)]));
        return [name, { status: states.some((r) => r.up) ? 'up' : 'down', replicas }];
      }
      const url = targets[name]?.url;
      if (!url) return [name, { status: 'not deployed' }];
      try {
        const res = await fetch(new URL('/ready', url), { headers, signal: AbortSignal.timeout(timeoutMs) });
        const body = (await res.json().catch(() => ({}))) as { checks?: Record<string, boolean> };
        return [name, { status: res.ok ? 'up' : 'down', checks: body.checks }];
      } catch {
        return [name, { status: 'down' }];
      }
    }),
  );
  const servicesHealth = Object.fromEntries(entries);
  const ok = entries.every(([, h]) => h.status !== 'down');
  return { ok, services: servicesHealth };
}
