import type { ContainerInfo, ContainerRuntimeName } from '@wb/contracts';

/** One step of the system update's rolling restart: one service (or container) restarted and healthy again. */
export interface RestartStep {
  /** Russian, shown as the update's `current_step` while it runs, e.g. 'Перезапуск boards'. */
  name: string;
  /** Restarts it and resolves only when the new instance is healthy (or throws with a Russian reason). */
  run(): Promise<void>;
}

/**
 * What the platform runs on, as the admin panel sees it: its containers (spec §3 Docker data) and
 * the system update's rolling restart. One adapter per runtime (runtime/<name>.ts), picked by
 * CONTAINER_RUNTIME, each tested against the real thing.
 */
export interface ContainerRuntime {
  name: ContainerRuntimeName;
  /**
   * Every container (or process) of the platform, read now; the caller caches. Never throws: a
   * runtime that cannot be reached answers `{ containers: [], error }`, one container that cannot
   * be read carries its own `error`.
   */
  listContainers(): Promise<{ containers: ContainerInfo[]; error?: string }>;
  /** The rolling restart, one step per service, in order; this service's own restart comes last. */
  restartPlan(): Promise<RestartStep[]>;
  close(): Promise<void>;
}
