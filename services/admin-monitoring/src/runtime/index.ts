import type { AdminConfig } from '../config.ts';
import type { Logger } from '@wb/service-kit';
import { noRuntime } from './none.ts';
import type { ContainerRuntime } from './types.ts';

export type { ContainerRuntime, RestartStep } from './types.ts';

/**
 * The adapter CONTAINER_RUNTIME names. Adapters are imported only when picked, so a Kubernetes
 * pod never loads dockerode and the local runner never loads the Kubernetes client.
 */
export async function createRuntime(config: AdminConfig, logger: Logger): Promise<ContainerRuntime> {
  switch (config.CONTAINER_RUNTIME) {
    case 'none':
      return noRuntime();
    case 'docker': {
      const { createDockerRuntime } = await import('./docker.ts');
      return createDockerRuntime({ socketPath: config.DOCKER_SOCKET, label: config.DOCKER_LABEL, logger });
    }
    case 'kubernetes': {
      const { kubernetesRuntime } = await import('./kubernetes.ts');
      return kubernetesRuntime({ release: config.KUBE_RELEASE, namespace: config.KUBE_NAMESPACE }, logger);
    }
    case 'local': {
      const { localRuntime } = await import('./local.ts');
      return localRuntime({ supervisorUrl: config.LOCAL_SUPERVISOR_URL, token: config.LOCAL_SUPERVISOR_TOKEN, logger });
    }
    default:
      // Filled in by each adapter's author (docker.ts, kubernetes.ts, local.ts).
      logger.warn({ runtime: config.CONTAINER_RUNTIME }, 'container runtime not built yet');
      return noRuntime();
  }
}
