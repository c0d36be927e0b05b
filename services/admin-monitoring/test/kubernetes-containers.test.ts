import { describe, expect, it } from 'vitest';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { ContainerInfo } from '@wb/contracts';
import { containersOfPods, parseQuantity, restartOrder, rolloutPending, rolloutStalled, usageByContainer } from '../src/runtime/kubernetes-containers.ts';

// The Kubernetes adapter's rules on the API's objects (the objects themselves are read from a real
// control plane in deploy/test/admin-kubernetes.test.ts; here: the arithmetic and the edge cases a
// kwok cluster never produces, such as a crash loop or a metrics server's numbers).

const pod = (name: string, status: V1Pod['status'], resources = { requests: { cpu: '250m' }, limits: { memory: '512Mi' } }): V1Pod => ({
  metadata: { name, uid: `uid-${name}`, creationTimestamp: new Date('2026-11-27T10:00:00Z') },
  spec: { containers: [{ name: 'app', image: 'wb/app:1', resources }] },
  status,
});

describe('Kubernetes quantities', () => {
  it('reads CPU and memory in every unit the API writes', () => {
    expect(parseQuantity('250m')).toBeCloseTo(0.25);
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('123456789n')).toBeCloseTo(0.123456789);
    expect(parseQuantity('1500u')).toBeCloseTo(0.0015);
    expect(parseQuantity('384Mi')).toBe(384 * 1024 * 1024);
    expect(parseQuantity('2Gi')).toBe(2 * 1024 ** 3);
    expect(parseQuantity('1k')).toBe(1000);
    expect(parseQuantity('129e6')).toBe(129e6);
    expect(parseQuantity('1.5')).toBe(1.5);
  });

  it('gives null, never NaN, for what is not a quantity', () => {
    for (const q of [undefined, null, '', 'abc', '12Xi', '--1', '1e999']) expect(parseQuantity(q)).toBeNull();
  });
});

describe('containers of pods', () => {
  const running = pod('wb-boards-1', {
    startTime: new Date('2026-11-27T10:00:01Z'),
    containerStatuses: [
      { name: 'app', image: 'wb/app:1', imageID: '', ready: true, restartCount: 0, containerID: 'containerd://abc123', state: { running: { startedAt: new Date('2026-11-27T10:00:05Z') } } },
    ],
  });

  it('marks usage unknown (null), not zero, when the metrics API is absent, and keeps the limit from the spec', () => {
    const [c] = containersOfPods([running], undefined);
    expect(ContainerInfo.parse(c)).toEqual(c);
    expect(c).toMatchObject({
      id: 'abc123',
      name: 'wb-boards-1/app',
      image: 'wb/app:1',
      state: 'running',
      created: Date.parse('2026-11-27T10:00:05Z') / 1000,
      cpu: { usage: null },
      memory: { usage: null, used: null, limit: 512 },
      network: { rx: null, tx: null },
      disk: { size: null },
    });
    expect(c!.reason).toBeUndefined();
  });

  it("computes CPU against the request when there is no CPU limit, and memory against the limit, from the metrics API's numbers", () => {
    const usage = usageByContainer([
      { metadata: { name: 'wb-boards-1', namespace: 'wb', selfLink: '', creationTimestamp: '' }, timestamp: '', window: '30s', containers: [{ name: 'app', usage: { cpu: '125000000n', memory: '256Mi' } }] },
    ]);
    const [c] = containersOfPods([running], usage);
    expect(c!.cpu.usage).toBe(50);
    expect(c!.memory).toEqual({ usage: 50, used: 256, limit: 512 });
  });

  it('leaves CPU unknown when the container has neither a limit nor a request, and memory % unknown without a limit', () => {
    const bare = { ...running, spec: { containers: [{ name: 'app', image: 'wb/app:1' }] } };
    const usage = usageByContainer([
      { metadata: { name: 'wb-boards-1', namespace: 'wb', selfLink: '', creationTimestamp: '' }, timestamp: '', window: '30s', containers: [{ name: 'app', usage: { cpu: '10m', memory: '10Mi' } }] },
    ]);
    const [c] = containersOfPods([bare], usage);
    expect(c!.cpu.usage).toBeNull();
    expect(c!.memory).toEqual({ usage: null, used: 10, limit: null });
  });

  it('says waiting with its reason (a crash loop), exited for a terminated container, and waiting for a pod not yet scheduled', () => {
    const crashing = pod('wb-auth-1', {
      startTime: new Date('2026-11-27T10:00:01Z'),
      containerStatuses: [{ name: 'app', image: 'wb/app:1', imageID: '', ready: false, restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
    });
    const done = pod('wb-job-1', {
      containerStatuses: [
        { name: 'app', image: 'wb/app:1', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: new Date('2026-11-27T10:00:02Z') } } },
      ],
    });
    const pending = pod('wb-export-1', { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] });
    const [a, b, c] = containersOfPods([crashing, done, pending], undefined);
    expect(a).toMatchObject({ state: 'waiting', reason: 'CrashLoopBackOff', id: 'uid-wb-auth-1/app', created: Date.parse('2026-11-27T10:00:01Z') / 1000 });
    expect(b).toMatchObject({ state: 'exited', reason: 'Completed', created: Date.parse('2026-11-27T10:00:02Z') / 1000 });
    expect(c).toMatchObject({ state: 'waiting', reason: 'Unschedulable', created: Date.parse('2026-11-27T10:00:00Z') / 1000 });
  });
});

describe('the rolling restart', () => {
  const dep = (component: string, status: V1Deployment['status'] = {}, replicas = 2, generation = 3): V1Deployment => ({
    metadata: { name: `wb-whiteboard-${component}`, generation, labels: { 'app.kubernetes.io/component': component } },
    spec: { replicas, selector: {}, template: {} },
    status,
  });

  it('restarts the admin service last, the others by name', () => {
    const order = restartOrder([dep('realtime'), dep('admin'), dep('auth'), dep('gateway')]).map((d) => d.metadata!.labels!['app.kubernetes.io/component']);
    expect(order).toEqual(['auth', 'gateway', 'realtime', 'admin']);
  });

  it('is done only when the controller saw the change, every replica is new and available, and no old pod is left', () => {
    expect(rolloutPending(dep('auth', { observedGeneration: 2, updatedReplicas: 2, replicas: 2, availableReplicas: 2 }))).toMatch(/не увидел/);
    expect(rolloutPending(dep('auth', { observedGeneration: 3, updatedReplicas: 1, replicas: 3, availableReplicas: 2 }))).toMatch(/обновлено 1 из 2/);
    expect(rolloutPending(dep('auth', { observedGeneration: 3, updatedReplicas: 2, replicas: 3, availableReplicas: 2 }))).toMatch(/старых подов осталось 1/);
    expect(rolloutPending(dep('auth', { observedGeneration: 3, updatedReplicas: 2, replicas: 2, availableReplicas: 1 }))).toMatch(/доступно 1 из 2/);
    expect(rolloutPending(dep('auth', { observedGeneration: 3, updatedReplicas: 2, replicas: 2, availableReplicas: 2 }))).toBeNull();
  });

  it("ends the own Deployment's step when its new pods are available, before the old pod (this process) is gone", () => {
    const own = { ownPodLeaving: true };
    // New pod created, not ready: the old one is the only available.
    expect(rolloutPending(dep('admin', { observedGeneration: 3, updatedReplicas: 1, replicas: 2, availableReplicas: 1 }, 1), own)).toMatch(/доступно новых 0 из 1/);
    // New pod ready, old one still there (about to get SIGTERM): done for the process that is leaving.
    expect(rolloutPending(dep('admin', { observedGeneration: 3, updatedReplicas: 1, replicas: 2, availableReplicas: 2 }, 1), own)).toBeNull();
    expect(rolloutPending(dep('admin', { observedGeneration: 3, updatedReplicas: 1, replicas: 2, availableReplicas: 2 }, 1))).toMatch(/старых подов осталось 1/);
    expect(rolloutPending(dep('admin', { observedGeneration: 3, updatedReplicas: 1, replicas: 1, availableReplicas: 1 }, 1), own)).toBeNull();
  });

  it('sees a rollout the controller gave up on', () => {
    const stuck = dep('auth', {
      conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "x" has timed out progressing.' }],
    });
    expect(rolloutStalled(stuck)).toMatch(/timed out/);
    expect(rolloutStalled(dep('auth'))).toBeNull();
  });
});
