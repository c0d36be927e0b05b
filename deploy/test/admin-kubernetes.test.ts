import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig, Watch, type V1Deployment } from '@kubernetes/client-node';
import { ContainerInfo, UPDATE_FINISHED_STEP } from '@wb/contracts';
import { createPool, freePort } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { AdminConfigSchema, createAdminService } from '@wb/admin-monitoring';
import { createLogger, createTokenVerifier, listen, parseConfig } from '@wb/service-kit';
import { callJson, createDatabase, eventually, startPostgres, testTokens } from '@wb/testkit';
import { kubernetesRuntime, rolloutPending, RESTARTED_AT, type ContainerRuntime } from '@wb/admin-monitoring/kubernetes';
import { startControlPlane, type ControlPlane } from '../kube/control-plane.ts';

const chart = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'charts', 'whiteboard');
const NS = 'wb';
const RELEASE = 'wb';
const SA = `${RELEASE}-whiteboard-admin`;
const COMPONENTS = ['admin', 'auth', 'billing', 'boards', 'export', 'gateway', 'realtime'];

interface PodJson {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: Array<{ name: string; image: string }> };
}

/** A kubeconfig that authenticates as `token` (the admin service account's) on the control plane. */
function kubeConfigFor(server: string, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'cp', server, skipTLSVerify: true }],
    users: [{ name: 'sa', token }],
    contexts: [{ name: 'cp', cluster: 'cp', user: 'sa' }],
    currentContext: 'cp',
  });
  return kc;
}

// Issue 34 item 1, Kubernetes: the admin-monitoring adapter against a real kube-apiserver,
// controller-manager and scheduler with a kwok node, after the chart is installed, running with
// the token of the chart's admin service account (so with the chart's Role and nothing more).
// The limit of what this shows: kwok fakes the pods' status, so no container runs and nothing
// serves requests; "the product keeps answering during the update" is shown here only as far as
// Kubernetes can tell it: no Deployment ever has fewer available (ready) replicas than desired.
// Whether the processes behind those replicas really answer is the local cluster's and Docker's test.
describe("the Kubernetes adapter on a real control plane, with the chart's admin Role", () => {
  let cp: ControlPlane;
  let runtime: ContainerRuntime;
  let token: string;
  const pods = () => (JSON.parse(cp.kubectl(['get', 'pods', '-n', NS, '-l', `app.kubernetes.io/instance=${RELEASE}`, '-o', 'json'])) as { items: PodJson[] }).items;
  const deployments = () => (JSON.parse(cp.kubectl(['get', 'deployments', '-n', NS, '-l', `app.kubernetes.io/instance=${RELEASE}`, '-o', 'json'])) as { items: V1Deployment[] }).items;

  beforeAll(async () => {
    cp = await startControlPlane();
    cp.kubectl(['create', 'namespace', NS]);
    cp.kubectl(['create', 'namespace', 'elsewhere']);
    cp.kubectl(['create', 'secret', 'generic', 'whiteboard-database', '-n', NS, '--from-literal=DATABASE_URL=postgres://wb:pw@db.invalid:5432/wb']);
    cp.kubectl(['create', 'secret', 'generic', 'whiteboard-secrets', '-n', NS, '--from-literal=INTERNAL_TOKEN=internal']);
    cp.helmRun(['install', RELEASE, chart, '-n', NS, '--wait', '--timeout', '5m', '--set', 'services.admin.enabled=true', '--set', 'secrets.existingSecret=whiteboard-secrets']);
    // Steady: the autoscalers have raised their Deployments to minReplicas (2), all available.
    await eventually(
      () =>
        deployments().every(
          (d) => d.status?.availableReplicas === d.spec?.replicas && (!/-(gateway|realtime|export)$/.test(d.metadata!.name!) || (d.spec?.replicas ?? 0) >= 2),
        ),
      { timeoutMs: 180_000, intervalMs: 500, what: 'every Deployment available at its steady size' },
    );
    token = cp.kubectl(['create', 'token', SA, '-n', NS, '--duration', '2h']).trim();
    runtime = kubernetesRuntime({ release: RELEASE, namespace: NS, kubeConfig: kubeConfigFor(cp.server, token), timeoutMs: 10_000, pollMs: 200 });
  }, 900_000);
  afterAll(async () => {
    await runtime?.close();
    await cp?.stop();
  }, 60_000);

  it("lists every container of the release's pods, and only those, with state, image and start, usage unknown without a metrics API", { timeout: 180_000 }, async () => {
    // Beside the chart's pods: a finished Job's pod and an unschedulable pod of the release, and a pod of another release.
    const other = (name: string, instance: string, extra: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${NS}\n  labels: { app.kubernetes.io/instance: ${instance} }\nspec:\n  containers: [{ name: main, image: wb/other:1 }]\n${extra}`;
    cp.kubectl(['apply', '-f', '-'], other('wb-unschedulable', RELEASE, '  nodeSelector: { nowhere: "true" }\n'));
    cp.kubectl(['apply', '-f', '-'], other('another-release-pod', 'another', ''));
    cp.kubectl(
      ['apply', '-f', '-'],
      `apiVersion: batch/v1\nkind: Job\nmetadata: { name: wb-migrate, namespace: ${NS} }\nspec:\n  template:\n    metadata: { labels: { app.kubernetes.io/instance: ${RELEASE} } }\n    spec:\n      restartPolicy: Never\n      containers: [{ name: migrate, image: wb/migrate:1 }]\n`,
    );
    await eventually(
      () => cp.kubectl(['get', 'pods', '-n', NS, '-l', 'job-name=wb-migrate', '-o', 'jsonpath={.items[*].status.phase}']) === 'Succeeded',
      { timeoutMs: 60_000, intervalMs: 500, what: 'the Job pod completed by kwok' },
    );

    const started = Date.now();
    const answer = await runtime.listContainers();
    const ms = Date.now() - started;
    expect(answer.error).toBeUndefined();
    const expected = pods();
    expect(answer.containers.map((c) => c.name).sort()).toEqual(expected.flatMap((p) => p.spec.containers.map((c) => `${p.metadata.name}/${c.name}`)).sort());
    expect(answer.containers.some((c) => c.name.startsWith('another-release-pod'))).toBe(false);
    for (const c of answer.containers) {
      expect(ContainerInfo.parse(c)).toEqual(c);
      expect(c.cpu.usage, c.name).toBeNull();
      expect(c.memory.usage, c.name).toBeNull();
      expect(c.memory.used, c.name).toBeNull();
      expect(c.network).toEqual({ rx: null, tx: null });
      expect(c.disk).toEqual({ size: null });
      expect(Math.abs(c.created - Date.now() / 1000), c.name).toBeLessThan(3600);
    }
    const chartOnes = answer.containers.filter((c) => /^wb-whiteboard-/.test(c.name));
    expect(new Set(chartOnes.map((c) => c.name.split('/')[1]))).toEqual(new Set(COMPONENTS));
    for (const c of chartOnes) {
      expect(c.state, c.name).toBe('running');
      expect(c.image, c.name).toMatch(new RegExp(`-${c.name.split('/')[1]}:`));
    }
    // The chart's limits (MB) come with the containers even when usage is unknown.
    expect(chartOnes.find((c) => c.name.endsWith('/admin'))!.memory.limit).toBe(384);
    expect(answer.containers.find((c) => c.name.startsWith('wb-unschedulable/'))).toMatchObject({ state: 'waiting', reason: 'Unschedulable' });
    expect(answer.containers.find((c) => c.name.endsWith('/migrate'))).toMatchObject({ state: 'exited', reason: 'Completed' });
    console.log(`listContainers as the admin service account: ${answer.containers.length} containers in ${ms} ms`);
  });

  it('reads usage from metrics.k8s.io where the API serves it (a stand-in served by the API server itself)', { timeout: 120_000 }, async () => {
    // No metrics-server here. The API server serves metrics.k8s.io/v1beta1 pods from a
    // CustomResourceDefinition instead, with objects of PodMetrics' shape written by the test: the
    // adapter's request, the Role's metrics rule and the label selector go through the real API server.
    cp.kubectl(
      ['apply', '-f', '-'],
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pods.metrics.k8s.io
  annotations: { api-approved.kubernetes.io: "unapproved, a test stand-in for metrics-server" }
spec:
  group: metrics.k8s.io
  scope: Namespaced
  names: { plural: pods, singular: pod, kind: PodMetrics, listKind: PodMetricsList }
  versions:
    - name: v1beta1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`,
    );
    await eventually(() => cp.kubectl(['get', 'crd', 'pods.metrics.k8s.io', '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']) === 'True', {
      timeoutMs: 60_000,
      intervalMs: 500,
      what: 'the metrics stand-in established',
    });
    const admin = pods().find((p) => p.metadata.labels?.['app.kubernetes.io/component'] === 'admin')!;
    const metrics = `apiVersion: metrics.k8s.io/v1beta1
kind: PodMetrics
metadata: { name: ${admin.metadata.name}, namespace: ${NS}, labels: { app.kubernetes.io/instance: ${RELEASE} } }
timestamp: "${new Date().toISOString()}"
window: 15s
containers: [{ name: admin, usage: { cpu: 25000000n, memory: 192Mi } }]
`;
    await eventually(
      () => {
        cp.kubectl(['apply', '-f', '-'], metrics);
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'a PodMetrics object written' },
    );
    try {
      const answer = await runtime.listContainers();
      expect(answer.error).toBeUndefined();
      const c = answer.containers.find((x) => x.name === `${admin.metadata.name}/admin`)!;
      // 25m of the 50m CPU request; 192 MB of the 384 MB limit.
      expect(c.cpu.usage).toBe(50);
      expect(c.memory).toEqual({ usage: 50, used: 192, limit: 384 });
      // A pod the metrics do not cover stays unknown.
      expect(answer.containers.find((x) => x.name.includes('-boards-'))!.cpu.usage).toBeNull();
    } finally {
      cp.kubectl(['delete', 'crd', 'pods.metrics.k8s.io', '--wait=true', '--timeout=60s']);
    }
  });

  it('answers an empty list and a Russian error text, never a throw, when the API server is down, silent or refuses', { timeout: 60_000 }, async () => {
    const closedPort = await freePort();
    const down = kubernetesRuntime({ release: RELEASE, namespace: NS, kubeConfig: kubeConfigFor(`https://127.0.0.1:${closedPort}`, token), timeoutMs: 2_000 });
    const a = await down.listContainers();
    expect(a.containers).toEqual([]);
    expect(a.error).toMatch(/^Kubernetes API недоступен/);
    await expect(down.restartPlan()).rejects.toThrow(/^Не удалось прочитать Deployment'ы: Kubernetes API недоступен/);

    // Accepts the connection and never answers: the call's timeout answers instead.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    const silentPort = await freePort();
    await new Promise<void>((r) => silent.listen(silentPort, '127.0.0.1', r));
    try {
      const hung = kubernetesRuntime({ release: RELEASE, namespace: NS, kubeConfig: kubeConfigFor(`https://127.0.0.1:${silentPort}`, token), timeoutMs: 1_000 });
      const started = Date.now();
      const b = await hung.listContainers();
      const ms = Date.now() - started;
      expect(b).toEqual({ containers: [], error: 'Kubernetes API не ответил за 1 с' });
      expect(ms).toBeLessThan(10_000);
      console.log(`a silent API server: the error answered after ${ms} ms (timeout 1 s)`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }

    // The Role is for the release's namespace only.
    const elsewhere = kubernetesRuntime({ release: RELEASE, namespace: 'elsewhere', kubeConfig: kubeConfigFor(cp.server, token) });
    const c = await elsewhere.listContainers();
    expect(c.containers).toEqual([]);
    expect(c.error).toMatch(/^Kubernetes API отказал в доступе \(HTTP 403\): pods is forbidden/);

    // Configuration missing: said, not thrown.
    expect(await kubernetesRuntime({ release: undefined, namespace: NS }).listContainers()).toEqual({ containers: [], error: expect.stringMatching(/KUBE_RELEASE/) });
  });

  it('restarts every Deployment one at a time, admin last, each to completion, never below the desired available replicas', { timeout: 600_000 }, async () => {
    // Watched as cluster admin from before the first step to after the last.
    const adminKc = new KubeConfig();
    adminKc.loadFromFile(cp.kubeconfig);
    const latest = new Map<string, V1Deployment>();
    const belowSince = new Map<string, number>();
    const longestBelowMs = new Map<string, number>();
    const lowestGap = new Map<string, number>();
    const overlaps: string[] = [];
    const watching = await new Watch(adminKc).watch(
      `/apis/apps/v1/namespaces/${NS}/deployments`,
      { labelSelector: `app.kubernetes.io/instance=${RELEASE}` },
      (_type: string, d: V1Deployment) => {
        const name = d.metadata!.name!;
        const now = Date.now();
        latest.set(name, d);
        const gap = (d.status?.availableReplicas ?? 0) - (d.spec?.replicas ?? 0);
        lowestGap.set(name, Math.min(lowestGap.get(name) ?? Infinity, gap));
        if (gap < 0 && !belowSince.has(name)) belowSince.set(name, now);
        if (gap >= 0 && belowSince.has(name)) {
          longestBelowMs.set(name, Math.max(longestBelowMs.get(name) ?? 0, now - belowSince.get(name)!));
          belowSince.delete(name);
        }
        // One at a time: at most one restarted Deployment whose rollout is not done.
        const rolling = [...latest.values()].filter((x) => x.spec?.template?.metadata?.annotations?.[RESTARTED_AT] && rolloutPending(x) !== null);
        if (rolling.length > 1) overlaps.push(rolling.map((x) => x.metadata!.name).join(' + '));
      },
      () => {},
    );
    try {
      await eventually(() => latest.size === COMPONENTS.length, { timeoutMs: 30_000, intervalMs: 100, what: 'the watch listing every Deployment' });
      const plan = await runtime.restartPlan();
      expect(plan.map((s) => s.name)).toEqual(['auth', 'billing', 'boards', 'export', 'gateway', 'realtime', 'admin'].map((c) => `Перезапуск ${c}`));
      const stepMs: Record<string, number> = {};
      const started = Date.now();
      for (const [i, step] of plan.entries()) {
        const component = step.name.replace('Перезапуск ', '');
        // Nothing after this step has been touched yet.
        for (const later of plan.slice(i).map((s) => s.name.replace('Перезапуск ', ''))) {
          expect(deployments().find((d) => d.metadata!.labels!['app.kubernetes.io/component'] === later)!.spec!.template!.metadata!.annotations?.[RESTARTED_AT], later).toBeUndefined();
        }
        const t = Date.now();
        await step.run();
        stepMs[component] = Date.now() - t;
        const live = pods().filter((p) => p.metadata.labels?.['app.kubernetes.io/component'] === component && !p.metadata.deletionTimestamp);
        const d = deployments().find((x) => x.metadata!.labels!['app.kubernetes.io/component'] === component)!;
        if (component === 'admin') {
          // Its own step ends when the new pods are available; the old pod (the process running the
          // update, in production) goes after, and the watch below sees that rollout finish too.
          expect(live.filter((p) => p.metadata.annotations?.[RESTARTED_AT]).length, component).toBeGreaterThanOrEqual(d.spec!.replicas!);
          expect(rolloutPending(d, { ownPodLeaving: true }), component).toBeNull();
        } else {
          // Done means done: every live pod of the Deployment is of the restarted template.
          expect(live.length, component).toBeGreaterThan(0);
          for (const p of live) expect(p.metadata.annotations?.[RESTARTED_AT], p.metadata.name).toBeDefined();
          expect(rolloutPending(d), component).toBeNull();
        }
      }
      const totalMs = Date.now() - started;
      await eventually(() => [...latest.values()].every((d) => rolloutPending(d) === null), { timeoutMs: 30_000, intervalMs: 100, what: 'the watch seeing every rollout done' });
      const end = Date.now();
      for (const [name, since] of belowSince) longestBelowMs.set(name, Math.max(longestBelowMs.get(name) ?? 0, end - since));
      const longest = Math.max(0, ...longestBelowMs.values());
      console.log(
        `rolling restart of ${plan.length} Deployments in ${(totalMs / 1000).toFixed(1)} s (per step, ms: ${JSON.stringify(stepMs)}); ` +
          `lowest available minus desired: ${JSON.stringify(Object.fromEntries(lowestGap))}; ` +
          `longest time a Deployment had fewer available replicas than desired: ${longest} ms`,
      );
      expect(overlaps).toEqual([]);
      for (const [name, gap] of lowestGap) expect(gap, name).toBeGreaterThanOrEqual(0);
      expect(longest).toBe(0);
      for (const d of deployments()) expect(d.spec!.template!.metadata!.annotations?.[RESTARTED_AT], d.metadata!.name).toBeDefined();
    } finally {
      watching.abort();
    }
  });

  it("POST /api/admin/update runs the Kubernetes plan to 'Завершено' through the service, and refuses a second start meanwhile", { timeout: 600_000 }, async () => {
    const pg = await startPostgres();
    const databaseUrl = await createDatabase(pg.url);
    const pool = createPool({ url: databaseUrl, schema: 'admin', max: 5 });
    const tokens = await testTokens();
    const admin = await tokens.sign({ admin: true });
    const service = await createAdminService({
      pool,
      transport: createInProcessTransport(),
      logger: createLogger('admin-kube-test', 'silent'),
      verifier: createTokenVerifier({ jwks: tokens.jwks }),
      config: parseConfig(AdminConfigSchema, { DATABASE_URL: databaseUrl, AUTH_JWKS_URL: 'http://127.0.0.1:1/jwks', CONTAINER_RUNTIME: 'kubernetes', LOG_LEVEL: 'silent' }),
      // The adapter with the admin service account's token, as the chart's pod would have it.
      runtime: kubernetesRuntime({ release: RELEASE, namespace: NS, kubeConfig: kubeConfigFor(cp.server, token), timeoutMs: 10_000, pollMs: 200 }),
    });
    await service.start();
    const server = await listen(service.app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const before = new Map(deployments().map((d) => [d.metadata!.name!, d.spec!.template!.metadata!.annotations?.[RESTARTED_AT]]));
      expect((await callJson(base, 'POST', '/api/admin/update', { token: admin })).status).toBe(202);
      expect((await callJson(base, 'POST', '/api/admin/update', { token: admin })).status).toBe(409);
      const steps = new Set<string>();
      let done: { is_running: boolean; current_step: string; progress: number; error?: string } | undefined;
      await eventually(
        async () => {
          const s = (await callJson(base, 'GET', '/api/admin/update/status', { token: admin })).body;
          steps.add(s.current_step);
          if (s.is_running || s.current_step !== UPDATE_FINISHED_STEP) return false;
          done = s;
          return true;
        },
        { timeoutMs: 540_000, intervalMs: 250, what: "the update's status reaching 'Завершено'" },
      );
      expect(done).toMatchObject({ is_running: false, progress: 100 });
      expect(done!.error).toBeUndefined();
      expect(steps).toContain('Перезапуск admin');
      // Every Deployment got a new restart annotation from this run.
      for (const d of deployments()) expect(d.spec!.template!.metadata!.annotations?.[RESTARTED_AT], d.metadata!.name).not.toBe(before.get(d.metadata!.name!));
    } finally {
      await server.close();
      await service.stop();
      await pool.end();
      await pg.stop();
    }
  });
});
