import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@wb/testkit';
import { startControlPlane, type ControlPlane } from '../kube/control-plane.ts';

const chart = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'charts', 'whiteboard');
const NS = 'wb';
const RELEASE = 'wb';
const ADMIN_SA = `system:serviceaccount:${NS}:${RELEASE}-whiteboard-admin`;

interface DeploymentList {
  items: Array<{
    metadata: { name: string; generation: number };
    spec: { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };
    status: { availableReplicas?: number; updatedReplicas?: number; observedGeneration?: number };
  }>;
}

// Issue 33 item 4: the chart on a real kube-apiserver with controller-manager, scheduler and kwok
// nodes (pods are scheduled and their status faked; containers do not run here: the images test
// runs them on Docker).
describe('the Helm chart on a real control plane', () => {
  let cp: ControlPlane;
  const deployments = () => JSON.parse(cp.kubectl(['get', 'deployments', '-n', NS, '-o', 'json'])) as DeploymentList;
  const canI = (args: string[]) => {
    try {
      return cp.kubectl(['auth', 'can-i', ...args, '--as', ADMIN_SA]).trim();
    } catch (err) {
      // `can-i` exits 1 when the answer is no (kubectl's message then ends with it).
      return /\bno\s*$/.test(String(err).trim()) ? 'no' : String(err);
    }
  };
  /** A SubjectAccessReview for the admin service account (for what kubectl's discovery cannot name). */
  const allowed = (attrs: { group: string; resource: string; verb: string; namespace: string }) => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: ADMIN_SA, groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'], resourceAttributes: attrs },
    };
    return (JSON.parse(cp.kubectl(['create', '-o', 'json', '-f', '-'], JSON.stringify(review))) as { status: { allowed: boolean } }).status.allowed;
  };
  const values = ['--set', 'services.admin.enabled=true', '--set', 'secrets.existingSecret=whiteboard-secrets'];

  beforeAll(async () => {
    cp = await startControlPlane();
    cp.kubectl(['create', 'namespace', NS]);
    cp.kubectl(['create', 'namespace', 'elsewhere']);
    cp.kubectl(['create', 'secret', 'generic', 'whiteboard-database', '-n', NS, '--from-literal=DATABASE_URL=postgres://wb:pw@db.invalid:5432/wb']);
    cp.kubectl(['create', 'secret', 'generic', 'whiteboard-secrets', '-n', NS, '--from-literal=INTERNAL_TOKEN=internal', '--from-literal=SMTP_URL=smtp://mail.invalid:587']);
  }, 600_000);
  afterAll(async () => {
    await cp?.stop();
  }, 60_000);

  it('refuses a values file with a wrong type or an unknown key at install, naming the key', () => {
    expect(() => cp.helmRun(['install', RELEASE, chart, '-n', NS, '--set', 'services.auth.replicas=two'])).toThrow(/services\/auth\/replicas/);
    expect(() => cp.helmRun(['install', RELEASE, chart, '-n', NS, '--set', 'ingress.hots=x'])).toThrow(/hots/);
  });

  it('installs with --wait until every Deployment is available', { timeout: 600_000 }, () => {
    const started = Date.now();
    cp.helmRun(['install', RELEASE, chart, '-n', NS, '--wait', '--timeout', '5m', ...values]);
    const seconds = (Date.now() - started) / 1000;
    const list = deployments();
    expect(list.items.map((d) => d.metadata.name).sort()).toEqual(
      ['admin', 'auth', 'billing', 'boards', 'export', 'gateway', 'realtime'].map((s) => `${RELEASE}-whiteboard-${s}`),
    );
    for (const d of list.items) expect(d.status.availableReplicas, d.metadata.name).toBe(d.spec.replicas);
    console.log(`helm install --wait: every Deployment available after ${seconds.toFixed(1)} s`);
  });

  it('upgrades to a new image tag as a rolling update that never drops below the desired replicas', { timeout: 600_000 }, async () => {
    // Steady first: the autoscalers raise their Deployments to minReplicas (2) after the install.
    await eventually(
      () =>
        deployments().items.every(
          (d) => d.status.availableReplicas === d.spec.replicas && (!/-(gateway|realtime|export)$/.test(d.metadata.name) || d.spec.replicas >= 2),
        ),
      120_000,
      'the autoscaled Deployments at their minimum, every Deployment available',
    );
    const lowest = new Map<string, number>();
    let polling = true;
    const poll = (async () => {
      while (polling) {
        for (const d of deployments().items) {
          const seen = Math.min(lowest.get(d.metadata.name) ?? Infinity, (d.status.availableReplicas ?? 0) - d.spec.replicas);
          lowest.set(d.metadata.name, seen);
        }
        // wait-ok: the sampling pace of a watcher that observes the whole upgrade, not a wait for a result
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const upgrade = spawn(cp.helm, ['upgrade', RELEASE, chart, '-n', NS, '--wait', '--timeout', '5m', '--set', 'image.tag=0.1.1', ...values], {
      env: { ...process.env, KUBECONFIG: cp.kubeconfig },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    upgrade.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => upgrade.once('exit', r));
    polling = false;
    await poll;
    expect(code, stderr).toBe(0);
    await eventually(
      () => deployments().items.every((d) => d.status.observedGeneration === d.metadata.generation && d.status.updatedReplicas === d.spec.replicas),
      60_000,
      'every Deployment rolled out',
    );
    for (const d of deployments().items) expect(d.spec.template.spec.containers[0]!.image).toMatch(/:0\.1\.1$/);
    const pods = cp.kubectl(['get', 'pods', '-n', NS, '-o', 'jsonpath={.items[*].spec.containers[0].image}']).split(' ');
    await eventually(() => cp.kubectl(['get', 'pods', '-n', NS, '-o', 'jsonpath={.items[*].spec.containers[0].image}']).split(' ').every((i) => i.endsWith(':0.1.1')), 60_000, 'old pods gone');
    expect(pods.length).toBeGreaterThan(0);
    // Available minus desired, at its lowest, per Deployment: never below zero.
    console.log(`rolling update, lowest available minus desired: ${JSON.stringify(Object.fromEntries(lowest))}`);
    for (const [name, gap] of lowest) expect(gap, name).toBeGreaterThanOrEqual(0);
  });

  it("gives admin-monitoring's service account pods, their metrics and the Deployments' restart in its namespace and nothing more", () => {
    expect(canI(['list', 'pods', '-n', NS])).toBe('yes');
    expect(canI(['watch', 'pods', '-n', NS])).toBe('yes');
    // kubectl cannot name metrics.k8s.io without a metrics server (discovery does not know it): ask the API server directly.
    expect(allowed({ group: 'metrics.k8s.io', resource: 'pods', verb: 'list', namespace: NS })).toBe(true);
    // The system update: a restart annotation patched on each Deployment, then its rollout read.
    for (const verb of ['get', 'list', 'watch', 'patch']) expect(canI([verb, 'deployments.apps', '-n', NS]), verb).toBe('yes');
    expect(canI(['get', 'secrets', '-n', NS])).toBe('no');
    expect(canI(['list', 'pods', '-n', 'elsewhere'])).toBe('no');
    expect(canI(['patch', 'deployments.apps', '-n', 'elsewhere'])).toBe('no');
    expect(canI(['delete', 'pods', '-n', NS])).toBe('no');
    expect(canI(['create', 'pods/exec', '-n', NS])).toBe('no');
    for (const verb of ['create', 'update', 'delete']) expect(canI([verb, 'deployments.apps', '-n', NS]), verb).toBe('no');
    expect(canI(['patch', 'deployments.apps', '--subresource', 'scale', '-n', NS])).toBe('no');
    expect(canI(['list', 'replicasets.apps', '-n', NS])).toBe('no');
    expect(canI(['patch', 'statefulsets.apps', '-n', NS])).toBe('no');
    expect(canI(['list', 'nodes'])).toBe('no');
  });

  it('uninstalls without leaving anything of the release', { timeout: 300_000 }, async () => {
    cp.helmRun(['uninstall', RELEASE, '-n', NS, '--wait', '--timeout', '3m']);
    // ReplicaSets and pods go after their Deployments, by the garbage collector, in the background.
    const left = () =>
      cp
        .kubectl(['get', 'deploy,rs,pods,svc,sa,secret,cm,role,rolebinding,networkpolicy,pdb,hpa,ingress', '-n', NS, '-l', `app.kubernetes.io/instance=${RELEASE}`, '-o', 'name'])
        .trim();
    await eventually(() => left() === '', 60_000, 'nothing of the release left');
    expect(left()).toBe('');
    expect(cp.kubectl(['get', 'secrets', '-n', NS, '-o', 'name']).split('\n').filter((s) => s.includes('sh.helm.release'))).toEqual([]);
  });
});
