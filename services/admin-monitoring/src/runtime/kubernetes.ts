import { readFileSync } from 'node:fs';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderMiddleware,
  type ConfigurationOptions,
  type ObservableMiddleware,
  type PodMetric,
  type V1Deployment,
} from '@kubernetes/client-node';
import type { Logger } from '@wb/service-kit';
import { componentOf, containersOfPods, restartOrder, rolloutPending, rolloutStalled, usageByContainer } from './kubernetes-containers.ts';
import type { ContainerRuntime, RestartStep } from './types.ts';

// The control-plane test (deploy/test/admin-kubernetes.test.ts) imports this file as
// @wb/admin-monitoring/kubernetes, with what it checks the rollout by.
export type { ContainerRuntime } from './types.ts';
export { rolloutPending } from './kubernetes-containers.ts';

export interface KubernetesRuntimeOptions {
  /** The Helm release: its pods and Deployments carry app.kubernetes.io/instance=<release>. */
  release: string | undefined;
  /** Absent: the pod's own namespace (its service account's). */
  namespace?: string | undefined;
  /** Absent: the in-cluster config (the pod's service account token). Tests pass a kubeconfig. */
  kubeConfig?: KubeConfig;
  /** Each API call's limit: an API server that does not answer must not hold the admin panel. */
  timeoutMs?: number;
  /** How long one Deployment's rollout may take before the update stops with an error. */
  rolloutTimeoutMs?: number;
  pollMs?: number;
  /** The component restarted last: the one running the update (this service). */
  self?: string;
}

const SA_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

/** Options that abort the request after `ms` (the generated client passes the signal to fetch). */
function withTimeout(ms: number, extra: ObservableMiddleware[] = []): ConfigurationOptions<ObservableMiddleware> {
  const ua = setHeaderMiddleware('User-Agent', 'wb-admin-monitoring');
  const timeout: ObservableMiddleware = {
    pre: (ctx) => {
      ctx.setSignal(AbortSignal.timeout(ms));
      return ua.pre(ctx);
    },
    post: (res) => ua.post(res),
  };
  return { middleware: [timeout, ...extra], middlewareMergeStrategy: 'append' };
}

/** A failed call in Russian, with what the API or the network said (shown in the admin panel). */
export function describeKubeError(err: unknown, timeoutMs: number): string {
  if (err instanceof ApiException) {
    let detail: string;
    try {
      const body = typeof err.body === 'string' ? (JSON.parse(err.body) as { message?: string }) : (err.body as { message?: string } | undefined);
      detail = body?.message ?? '';
    } catch {
      detail = String(err.body ?? '').slice(0, 200);
    }
    if (err.code === 401 || err.code === 403) return `Kubernetes API отказал в доступе (HTTP ${err.code})${detail ? `: ${detail}` : ''}`;
    return `Kubernetes API ответил ошибкой (HTTP ${err.code})${detail ? `: ${detail}` : ''}`;
  }
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `Kubernetes API не ответил за ${timeoutMs / 1000} с`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `Kubernetes API недоступен: ${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

function ownNamespace(): string | undefined {
  try {
    return readFileSync(SA_NAMESPACE_FILE, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A runtime that can only say why it cannot work (configuration missing), never throwing. */
function broken(error: string): ContainerRuntime {
  return {
    name: 'kubernetes',
    listContainers: async () => ({ containers: [], error }),
    restartPlan: async () => {
      throw new Error(error);
    },
    close: async () => {},
  };
}

/**
 * CONTAINER_RUNTIME=kubernetes: the release's pods from the Kubernetes API, their usage from
 * metrics.k8s.io where a metrics server serves it, and the system update as one rollout restart
 * per Deployment. Needs only the chart's Role (pods get/list, metrics pods list, deployments
 * get/list/patch in the namespace).
 */
export function kubernetesRuntime(opts: KubernetesRuntimeOptions, logger?: Logger): ContainerRuntime {
  const release = opts.release;
  if (!release) return broken('Не задан KUBE_RELEASE: неизвестно, какие поды принадлежат платформе');
  const namespace = opts.namespace || ownNamespace();
  if (!namespace) return broken('Не задан KUBE_NAMESPACE, и пространство имён пода неизвестно');
  let kc = opts.kubeConfig;
  if (!kc) {
    kc = new KubeConfig();
    try {
      kc.loadFromCluster();
    } catch (err) {
      return broken(`Нет настроек доступа к Kubernetes API: ${(err as Error).message}`);
    }
  }
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const rolloutTimeoutMs = opts.rolloutTimeoutMs ?? 600_000;
  const pollMs = opts.pollMs ?? 500;
  const self = opts.self ?? 'admin';
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const labelSelector = `app.kubernetes.io/instance=${release}`;
  let closed = false;

  /** Usage per pod and container, or undefined when the metrics API is absent or refuses (unknown, not an error). */
  async function readUsage() {
    try {
      const list = (await custom.listNamespacedCustomObject(
        { group: 'metrics.k8s.io', version: 'v1beta1', namespace: namespace!, plural: 'pods', labelSelector },
        withTimeout(timeoutMs),
      )) as { items?: PodMetric[] };
      return usageByContainer(list.items ?? []);
    } catch (err) {
      // 404: no metrics server (its APIService is not registered); 503: registered but down.
      logger?.debug({ err: describeKubeError(err, timeoutMs) }, 'metrics API not available: usage unknown');
      return undefined;
    }
  }

  async function listContainers() {
    try {
      const [pods, usage] = await Promise.all([core.listNamespacedPod({ namespace: namespace!, labelSelector }, withTimeout(timeoutMs)), readUsage()]);
      return { containers: containersOfPods(pods.items, usage) };
    } catch (err) {
      const error = describeKubeError(err, timeoutMs);
      logger?.warn({ err: error }, 'kubernetes: pods not read');
      return { containers: [], error };
    }
  }

  const readDeployment = (name: string) => apps.readNamespacedDeployment({ name, namespace: namespace! }, withTimeout(timeoutMs));

  async function waitForRollout(name: string, component: string): Promise<void> {
    const deadline = Date.now() + rolloutTimeoutMs;
    let pending: string | null = 'не прочитан';
    let lastError = '';
    while (!closed) {
      try {
        const d = await readDeployment(name);
        const stalled = rolloutStalled(d);
        if (stalled) throw new Error(`Перезапуск ${component} остановлен Kubernetes: ${stalled}`);
        pending = rolloutPending(d, { ownPodLeaving: component === self });
        if (pending === null) return;
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('Перезапуск ')) throw err;
        // One failed read (API server busy or restarting) is not the rollout failing: keep waiting.
        lastError = describeKubeError(err, timeoutMs);
      }
      if (Date.now() > deadline) {
        throw new Error(`Перезапуск ${component} не завершился за ${Math.round(rolloutTimeoutMs / 1000)} с: ${pending}${lastError ? `; ${lastError}` : ''}`);
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
    throw new Error(`Перезапуск ${component} прерван: служба останавливается`);
  }

  async function restart(d: V1Deployment): Promise<void> {
    const name = d.metadata!.name!;
    const component = componentOf(d);
    // What `kubectl rollout restart` does: a new pod template, so a new ReplicaSet rolled out by the
    // Deployment's own strategy (the chart's maxUnavailable 0: a new pod is ready before an old one goes).
    const patch = { spec: { template: { metadata: { annotations: { [RESTARTED_AT]: new Date().toISOString() } } } } };
    try {
      await apps.patchNamespacedDeployment(
        { name, namespace: namespace!, body: patch, fieldManager: 'wb-admin-monitoring' },
        withTimeout(timeoutMs, [setHeaderMiddleware('Content-Type', PatchStrategy.StrategicMergePatch)]),
      );
    } catch (err) {
      throw new Error(`Перезапуск ${component} не начат: ${describeKubeError(err, timeoutMs)}`, { cause: err });
    }
    logger?.info({ deployment: name }, 'kubernetes: rollout restart started');
    await waitForRollout(name, component);
    logger?.info({ deployment: name }, 'kubernetes: rollout restart done');
  }

  return {
    name: 'kubernetes',
    listContainers,
    async restartPlan(): Promise<RestartStep[]> {
      let list;
      try {
        list = await apps.listNamespacedDeployment({ namespace: namespace!, labelSelector }, withTimeout(timeoutMs));
      } catch (err) {
        throw new Error(`Не удалось прочитать Deployment'ы: ${describeKubeError(err, timeoutMs)}`, { cause: err });
      }
      return restartOrder(list.items, self).map((d) => ({ name: `Перезапуск ${componentOf(d)}`, run: () => restart(d) }));
    },
    close: async () => {
      closed = true;
    },
  };
}
