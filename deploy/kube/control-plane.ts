// A real Kubernetes control plane on this machine (../shared/INFRA.md §3): etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler built from their Go modules, and kwok faking one node
// and its pods' status. Everything listens on 127.0.0.1; the fake pod and service addresses it hands
// out are never sent anything. The chart test installs, upgrades and uninstalls the chart on it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@wb/db';
import { tempDir } from '@wb/testkit';
import { ensureEtcd, ensureHelm, ensureKubernetes, ensureKwok } from '../../scripts/cluster-tools.mjs';

export interface ControlPlane {
  /** A kubeconfig with the cluster-admin token (system:masters). */
  kubeconfig: string;
  server: string;
  helm: string;
  /** kubectl with this kubeconfig; throws with its output when it fails. */
  kubectl(args: string[], input?: string): string;
  /** helm with this kubeconfig. */
  helmRun(args: string[]): string;
  stop(): Promise<void>;
}

function waitExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

async function until(what: string, check: () => boolean, timeoutMs: number, procs: ChildProcess[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    const dead = procs.find((p) => p.exitCode !== null);
    if (dead) throw new Error(`${what}: ${dead.spawnfile} exited with ${dead.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function startControlPlane(opts: { logs?: boolean } = {}): Promise<ControlPlane> {
  const etcdBin = ensureEtcd();
  const kubeDir = ensureKubernetes();
  const kwokDir = ensureKwok();
  const helm = ensureHelm();
  const dir = await tempDir('kube');
  const procs: ChildProcess[] = [];
  const start = (bin: string, args: string[]) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', opts.logs ? 'inherit' : 'ignore'], detached: true });
    procs.push(child);
    return child;
  };
  const stop = async () => {
    for (const p of [...procs].reverse()) {
      if (p.exitCode === null) p.kill('SIGTERM');
      await Promise.race([waitExit(p), new Promise((r) => setTimeout(r, 10_000))]);
      if (p.exitCode === null) p.kill('SIGKILL');
    }
  };
  try {
    const [etcdClient, etcdPeer, apiPort, cmPort, schedPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    start(etcdBin, [
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=default=http://127.0.0.1:${etcdPeer}`,
      '--unsafe-no-fsync',
      '--log-level=error',
    ]);

    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(path.join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const token = randomBytes(24).toString('hex');
    writeFileSync(path.join(dir, 'tokens.csv'), `${token},admin,admin,"system:masters"\n`);
    mkdirSync(path.join(dir, 'certs'), { recursive: true });
    const server = `https://127.0.0.1:${apiPort}`;
    start(path.join(kubeDir, 'kube-apiserver'), [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(dir, 'certs')}`,
      `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--endpoint-reconciler-type=none',
      '--service-cluster-ip-range=10.96.0.0/16',
      '--v=0',
    ]);
    const kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: local\n  cluster:\n    server: ${server}\n    insecure-skip-tls-verify: true`,
        'users:',
        `- name: admin\n  user:\n    token: ${token}`,
        'contexts:',
        '- name: local\n  context:\n    cluster: local\n    user: admin',
        'current-context: local',
        '',
      ].join('\n'),
    );
    const env = { ...process.env, KUBECONFIG: kubeconfig, HELM_CACHE_HOME: path.join(dir, 'helm-cache'), HELM_CONFIG_HOME: path.join(dir, 'helm-config'), HELM_DATA_HOME: path.join(dir, 'helm-data') };
    const kubectl = (args: string[], input?: string) => {
      const r = spawnSync(path.join(kubeDir, 'kubectl'), args, { env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}${r.stdout}`);
      return r.stdout;
    };
    const helmRun = (args: string[]) => {
      const r = spawnSync(helm, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`helm ${args.join(' ')}: ${r.stderr || r.stdout}`);
      return r.stdout;
    };
    const answers = () => spawnSync(path.join(kubeDir, 'kubectl'), ['get', '--raw', '/readyz'], { env, encoding: 'utf8' }).stdout === 'ok';
    await until('kube-apiserver ready', answers, 120_000, procs);

    start(path.join(kubeDir, 'kube-controller-manager'), [
      `--kubeconfig=${kubeconfig}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${cmPort}`,
      `--service-account-private-key-file=${path.join(dir, 'sa.key')}`,
      '--controllers=*,-nodeipam,-cloud-node-lifecycle',
    ]);
    start(path.join(kubeDir, 'kube-scheduler'), [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${schedPort}`]);
    start(path.join(kwokDir, 'kwok'), [
      `--kubeconfig=${kubeconfig}`,
      '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      `--config=${path.join(kwokDir, 'stages.yaml')}`,
      '--node-ip=10.240.0.1',
      '--cidr=10.244.0.0/16',
    ]);
    kubectl(['apply', '-f', '-'], NODE_MANIFEST);
    // Ready, and the not-ready taint set at registration lifted by the node lifecycle controller.
    await until(
      'the kwok node ready and untainted',
      () => {
        try {
          const node = JSON.parse(kubectl(['get', 'node', 'kwok-node-0', '-o', 'json'])) as {
            spec: { taints?: unknown[] };
            status: { conditions?: Array<{ type: string; status: string }> };
          };
          return node.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true && !node.spec.taints?.length;
        } catch {
          return false;
        }
      },
      60_000,
      procs,
    );
    // The default ServiceAccount of a namespace comes from the controller-manager; wait for it.
    await until('default service account', () => kubectl(['get', 'sa', '-n', 'default', '-o', 'name']).includes('serviceaccount/default'), 60_000, procs);
    return { kubeconfig, server, helm, kubectl, helmRun, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const NODE_MANIFEST = `apiVersion: v1
kind: Node
metadata:
  name: kwok-node-0
  annotations:
    kwok.x-k8s.io/node: fake
    node.alpha.kubernetes.io/ttl: "0"
  labels:
    kubernetes.io/hostname: kwok-node-0
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    type: kwok
spec: {}
status:
  allocatable: { cpu: "64", memory: 256Gi, pods: "250" }
  capacity: { cpu: "64", memory: 256Gi, pods: "250" }
  nodeInfo:
    architecture: amd64
    operatingSystem: linux
    kubeletVersion: fake
`;
