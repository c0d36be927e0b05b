import type { ContainerRuntime } from './types.ts';

/** CONTAINER_RUNTIME=none: nothing to watch or restart (said, not hidden, in the answers). */
export function noRuntime(): ContainerRuntime {
  return {
    name: 'none',
    listContainers: async () => ({ containers: [], error: 'Среда выполнения контейнеров не настроена' }),
    restartPlan: async () => [],
    close: async () => {},
  };
}
