import { z } from 'zod';
import { CONTAINER_RUNTIMES } from '@wb/contracts';
import { env, serviceConfig } from '@wb/service-kit';

/**
 * The admin-monitoring service's environment (common settings in serviceConfig). CONTAINER_RUNTIME
 * picks the adapter the containers and the system update go through; each adapter's own settings
 * are read only when it is the one picked.
 */
export const AdminConfigSchema = serviceConfig(3006, {
  DATABASE_URL: env.url(),
  DATABASE_POOL_MAX: env.int(5, { min: 1, max: 100 }),
  AUTH_JWKS_URL: env.url(),
  /** kubernetes (the chart), docker (containers on one engine), local (the runners' processes), none. */
  CONTAINER_RUNTIME: z.enum(CONTAINER_RUNTIMES).default('none'),
  /** How long system and container data are served from the cache (spec: `cached`, `cacheTime`). */
  MONITOR_CACHE_MS: env.int(15_000, { min: 0, max: 3_600_000 }),
  /** The filesystem whose usage the system tab shows. */
  DISK_PATH: env.string('/'),
  /** Docker: the engine's socket. */
  DOCKER_SOCKET: env.string('/var/run/docker.sock'),
  /** Docker: only containers carrying this label (key=value) are the platform's. */
  DOCKER_LABEL: env.string('wb.platform=whiteboard'),
  /** Kubernetes: the namespace of the release; absent, the pod's own (from its service account). */
  KUBE_NAMESPACE: env.optionalString(),
  /** Kubernetes: the release's pods and Deployments carry app.kubernetes.io/instance=<this>. */
  KUBE_RELEASE: env.optionalString(),
  /** Local: the runner's supervisor (processes and restarts), on 127.0.0.1. */
  LOCAL_SUPERVISOR_URL: env.optionalString(),
  /** Local: the bearer token the supervisor wants (the runner makes one per start). */
  LOCAL_SUPERVISOR_TOKEN: env.optionalString(),
});

export type AdminConfig = z.infer<typeof AdminConfigSchema>;
