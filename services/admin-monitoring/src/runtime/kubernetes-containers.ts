import type { ContainerInfo } from '@wb/contracts';
import type { PodMetric, V1Deployment, V1Pod } from '@kubernetes/client-node';

// What the Kubernetes adapter makes of the API's objects, free of I/O (unit-tested without a cluster;
// runtime/kubernetes.ts reads the objects and the metrics API).

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * A Kubernetes quantity ('250m', '384Mi', '1.5', '12345678n', '1e3') as a plain number (cores or
 * bytes); null when it is absent or not a quantity (never NaN in an answer).
 */
export function parseQuantity(q: string | number | undefined | null): number | null {
  if (q === undefined || q === null) return null;
  if (typeof q === 'number') return Number.isFinite(q) ? q : null;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(n|u|m|k|K|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) return null;
  const value = Number(m[1]) * SUFFIX[m[2] ?? '']!;
  return Number.isFinite(value) ? value : null;
}

const MB = 1024 * 1024;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Usage of one container from the metrics API: CPU in cores, memory in bytes. */
export interface ContainerUsage {
  cpuCores: number | null;
  memoryBytes: number | null;
}

/** pod name → container name → usage, from a metrics.k8s.io PodMetricsList's items. */
export function usageByContainer(items: readonly PodMetric[]): Map<string, Map<string, ContainerUsage>> {
  const byPod = new Map<string, Map<string, ContainerUsage>>();
  for (const pod of items) {
    const containers = new Map<string, ContainerUsage>();
    for (const c of pod.containers ?? []) {
      containers.set(c.name, { cpuCores: parseQuantity(c.usage?.cpu), memoryBytes: parseQuantity(c.usage?.memory) });
    }
    byPod.set(pod.metadata.name, containers);
  }
  return byPod;
}

function unixSeconds(t: Date | string | undefined): number | null {
  if (t === undefined) return null;
  const ms = (t instanceof Date ? t : new Date(t)).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * Each container of each pod as spec §3's container. State is Kubernetes' own word, except that a
 * terminated container is 'exited' (Docker's word, the one the panel colours red, spec §4
 * Indicators); the waiting or terminated reason goes to `reason`. `usage` is undefined when the
 * metrics API is absent: usage is then unknown (null), not zero. CPU is a percentage of the
 * container's limit, or of its request when it has no limit (the chart sets only a CPU request);
 * memory of its limit.
 */
export function containersOfPods(pods: readonly V1Pod[], usage: Map<string, Map<string, ContainerUsage>> | undefined): ContainerInfo[] {
  const out: ContainerInfo[] = [];
  for (const pod of pods) {
    const podName = pod.metadata?.name ?? '';
    const podStart = unixSeconds(pod.status?.startTime) ?? unixSeconds(pod.metadata?.creationTimestamp) ?? 0;
    const statuses = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
    for (const spec of pod.spec?.containers ?? []) {
      const status = statuses.get(spec.name);
      let state: string;
      let reason: string | undefined;
      let started: number | null = null;
      if (status?.state?.running) {
        state = 'running';
        started = unixSeconds(status.state.running.startedAt);
      } else if (status?.state?.terminated) {
        state = 'exited';
        reason = status.state.terminated.reason ?? `код ${status.state.terminated.exitCode}`;
        started = unixSeconds(status.state.terminated.startedAt);
      } else {
        // Waiting, or no status yet (a pod not scheduled or not started has none).
        state = 'waiting';
        reason = status?.state?.waiting?.reason ?? pod.status?.conditions?.find((c) => c.status === 'False')?.reason ?? pod.status?.phase;
      }
      const limits = spec.resources?.limits ?? {};
      const requests = spec.resources?.requests ?? {};
      const memLimit = parseQuantity(limits.memory);
      const cpuBase = parseQuantity(limits.cpu) ?? parseQuantity(requests.cpu);
      const u = usage?.get(podName)?.get(spec.name);
      const memUsed = u?.memoryBytes ?? null;
      const cpuUsed = u?.cpuCores ?? null;
      const id = status?.containerID?.replace(/^[a-z0-9-]+:\/\//, '') || `${pod.metadata?.uid ?? podName}/${spec.name}`;
      out.push({
        id,
        name: `${podName}/${spec.name}`,
        image: status?.image || spec.image || '',
        state,
        ...(reason ? { reason } : {}),
        created: started ?? podStart,
        cpu: { usage: cpuUsed !== null && cpuBase ? round1((cpuUsed / cpuBase) * 100) : null },
        memory: {
          usage: memUsed !== null && memLimit ? round1((memUsed / memLimit) * 100) : null,
          used: memUsed !== null ? round1(memUsed / MB) : null,
          limit: memLimit ? round1(memLimit / MB) : null,
        },
        network: { rx: null, tx: null },
        disk: { size: null },
      });
    }
  }
  return out;
}

/** The service a Deployment of the chart runs (its component label), else its name. */
export function componentOf(d: V1Deployment): string {
  return d.metadata?.labels?.['app.kubernetes.io/component'] ?? d.metadata?.name ?? '';
}

/**
 * The restart order: by name, the admin-monitoring service last (restarting it ends the process
 * that runs the update, so everything else must be done by then).
 */
export function restartOrder(deployments: readonly V1Deployment[], self = 'admin'): V1Deployment[] {
  return [...deployments].sort((a, b) => {
    const sa = componentOf(a) === self ? 1 : 0;
    const sb = componentOf(b) === self ? 1 : 0;
    return sa - sb || componentOf(a).localeCompare(componentOf(b));
  });
}

/**
 * `kubectl rollout status`'s test: the controller saw the latest spec, every desired replica is of
 * the new template and available, and no pod of an old ReplicaSet is left (status.replicas counts
 * every non-terminated pod the selector matches). Returns what is still missing, or null when done.
 */
export function rolloutPending(d: V1Deployment, opts: { ownPodLeaving?: boolean } = {}): string | null {
  const want = d.spec?.replicas ?? 1;
  const st = d.status ?? {};
  if ((st.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) return 'контроллер ещё не увидел изменение';
  if ((st.updatedReplicas ?? 0) < want) return `обновлено ${st.updatedReplicas ?? 0} из ${want}`;
  const old = Math.max(0, (st.replicas ?? 0) - (st.updatedReplicas ?? 0));
  if (opts.ownPodLeaving) {
    // The Deployment running this very process: its old pods (this one) go only after the new ones
    // are available, and this process ends with them. Done as soon as every desired new pod is
    // available, i.e. available counts all old pods still there plus the desired new ones.
    if ((st.availableReplicas ?? 0) < want + old) return `доступно новых ${Math.max(0, (st.availableReplicas ?? 0) - old)} из ${want}`;
    return null;
  }
  if (old > 0) return `старых подов осталось ${old}`;
  if ((st.availableReplicas ?? 0) < want) return `доступно ${st.availableReplicas ?? 0} из ${want}`;
  return null;
}

/** The controller gave up on the rollout (progressDeadlineSeconds passed): waiting longer is pointless. */
export function rolloutStalled(d: V1Deployment): string | null {
  const c = d.status?.conditions?.find((x) => x.type === 'Progressing' && x.reason === 'ProgressDeadlineExceeded');
  return c ? (c.message ?? c.reason ?? 'ProgressDeadlineExceeded') : null;
}
