#!/usr/bin/env node
// Installs what the container and Kubernetes work needs (../shared/INFRA.md): Helm, helm-unittest,
// kubeconform with offline Kubernetes schemas, etcd, kube-apiserver / controller-manager / scheduler /
// kubectl, kwok, and a Docker engine with debootstrap. Only the Go module proxy, PyPI and Debian are
// reachable here, so every Go tool is built from its module once and cached by version in a directory
// outside the repo (WB_TOOLS_CACHE, default ~/.cache/wb-tools): a reused machine skips the builds,
// and a fresh clone of the repo (CI) finds them there. Node built-ins only; every step checks first.
//
//   node scripts/cluster-tools.mjs [helm|kubeconform|schemas|unittest|etcd|kube|kwok|promtool|docker|all]...
//
// The Kubernetes build takes 12-15 minutes of two cores when cold (1.8 GB peak); GOCACHE lives in the
// cache too, so a rebuild after an interrupted one is fast.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSIONS = {
  helm: '4.3.1',
  helmUnittest: '1.1.2',
  kubeconform: '0.8.0',
  /** PyPI `kubernetes-validate` release that ships the schemas of KUBERNETES_SCHEMA_VERSION. */
  kubernetesValidate: '1.34.1',
  kubernetesSchema: '1.34.0',
  etcd: '3.7.3',
  kubernetes: '1.34.4',
  kwok: '0.8.0',
  /** Prometheus 3.16's Go module (v0.316.x is 3.16.x): promtool checks and unit-tests the chart's rules. */
  prometheus: '0.316.0',
};

export const cacheDir = process.env.WB_TOOLS_CACHE ?? path.join(os.homedir(), '.cache', 'wb-tools');
const goBin = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';

const say = (msg) => process.stdout.write(`[cluster-tools] ${msg}\n`);

function run(cmd, args, opts = {}) {
  say(`$ ${[cmd, ...args].join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
}

function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return r.stdout;
}

/** Environment for Go: the build cache inside the tools cache, modules fetched through the proxy. */
function goEnv(extra = {}) {
  return {
    ...process.env,
    GOCACHE: path.join(cacheDir, 'gocache'),
    GOFLAGS: '-mod=mod -buildvcs=false',
    GOTOOLCHAIN: 'local',
    ...extra,
  };
}

/** Runs `build(dir)` into a scratch directory and renames it to `target` only when it succeeded. */
function buildInto(target, build) {
  if (existsSync(target)) return target;
  mkdirSync(path.dirname(target), { recursive: true });
  const scratch = `${target}.part-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    build(scratch);
    renameSync(scratch, target);
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  return target;
}

/** A module's source as a writable copy (the module cache is read-only). */
function moduleSource(module, version, into) {
  const info = JSON.parse(capture(goBin, ['mod', 'download', '-json', `${module}@${version}`], { env: goEnv() }));
  if (!info.Dir) throw new Error(`go mod download ${module}@${version}: no Dir`);
  cpSync(info.Dir, into, { recursive: true });
  run('chmod', ['-R', 'u+w', into]);
  return into;
}

export function ensureHelm() {
  const dir = buildInto(path.join(cacheDir, `helm-${VERSIONS.helm}`), (d) =>
    run(goBin, ['install', `helm.sh/helm/v4/cmd/helm@v${VERSIONS.helm}`], { env: goEnv({ GOBIN: d }) }),
  );
  return path.join(dir, 'helm');
}

export function ensureKubeconform() {
  const dir = buildInto(path.join(cacheDir, `kubeconform-${VERSIONS.kubeconform}`), (d) =>
    run(goBin, ['install', `github.com/yannh/kubeconform/cmd/kubeconform@v${VERSIONS.kubeconform}`], {
      env: goEnv({ GOBIN: d }),
    }),
  );
  return path.join(dir, 'kubeconform');
}

/**
 * The JSON schemas of one Kubernetes version from PyPI's kubernetes-validate, with their root-relative
 * `$ref`s rewritten to absolute file URLs (kubeconform cannot load "/api/_definitions.json").
 * Returns the directory that holds `v<version>-local` and `v<version>-local-strict`.
 */
export function ensureSchemas() {
  const v = VERSIONS.kubernetesSchema;
  return buildInto(path.join(cacheDir, `k8s-schemas-${v}`), (d) => {
    const dl = mkdtempSync(path.join(os.tmpdir(), 'wb-kv-'));
    try {
      run('python3', ['-m', 'pip', 'download', '--no-deps', '-q', '-d', dl, `kubernetes-validate==${VERSIONS.kubernetesValidate}`]);
      const wheel = readdirSync(dl).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error('kubernetes-validate: no wheel downloaded');
      run('python3', ['-m', 'zipfile', '-e', path.join(dl, wheel), dl]);
      for (const flavour of ['local', 'local-strict']) {
        const name = `v${v}-${flavour}`;
        const out = path.join(d, name);
        cpSync(path.join(dl, 'kubernetes_validate', 'kubernetes-json-schema', name), out, { recursive: true });
        // The final location (not the scratch dir) goes into the refs.
        const finalDir = path.join(cacheDir, `k8s-schemas-${v}`, name);
        for (const f of readdirSync(out)) {
          const p = path.join(out, f);
          const text = readFileSync(p, 'utf8');
          writeFileSync(p, text.replaceAll('"/api/_definitions.json', `"file://${finalDir}/_definitions.json`));
        }
      }
    } finally {
      rmSync(dl, { recursive: true, force: true });
    }
  });
}

/** helm-unittest as a Helm plugin directory (point HELM_PLUGINS at its parent). */
export function ensureHelmUnittest() {
  const v = VERSIONS.helmUnittest;
  const plugins = buildInto(path.join(cacheDir, `helm-plugins-unittest-${v}`), (d) => {
    const src = moduleSource('github.com/helm-unittest/helm-unittest', `v${v}`, path.join(d, 'src'));
    const plugin = path.join(d, 'unittest');
    mkdirSync(plugin, { recursive: true });
    run(goBin, ['build', '-o', path.join(plugin, 'untt'), './cmd/helm-unittest'], { cwd: src, env: goEnv() });
    writeFileSync(
      path.join(plugin, 'plugin.yaml'),
      [
        'name: unittest',
        `version: ${v}`,
        'usage: unit test helm charts',
        'description: helm-unittest built from its Go module',
        'platformCommand:',
        '  - os: linux',
        '    arch: amd64',
        '    command: $HELM_PLUGIN_DIR/untt',
        '',
      ].join('\n'),
    );
    rmSync(src, { recursive: true, force: true });
  });
  return plugins;
}

export function ensureEtcd() {
  const v = VERSIONS.etcd;
  const dir = buildInto(path.join(cacheDir, `etcd-${v}`), (d) => {
    const src = moduleSource('go.etcd.io/etcd/server/v3', `v${v}`, path.join(d, 'src'));
    const mod = readFileSync(path.join(src, 'go.mod'), 'utf8');
    for (const m of mod.matchAll(/^\s*(go\.etcd\.io\/etcd\/\S+)\s*=>\s*\.\.?\//gm)) {
      run(goBin, ['mod', 'edit', `-dropreplace=${m[1]}`], { cwd: src, env: goEnv() });
    }
    run(goBin, ['build', '-o', path.join(d, 'etcd'), '.'], { cwd: src, env: goEnv() });
    rmSync(src, { recursive: true, force: true });
  });
  return path.join(dir, 'etcd');
}

/** kube-apiserver, kube-controller-manager, kube-scheduler and kubectl of one Kubernetes release. */
export function ensureKubernetes() {
  const v = VERSIONS.kubernetes;
  const [major, minor] = v.split('.');
  return buildInto(path.join(cacheDir, `kubernetes-${v}`), (d) => {
    const src = moduleSource('k8s.io/kubernetes', `v${v}`, path.join(d, 'src'));
    for (const f of ['vendor', 'go.work', 'go.work.sum']) rmSync(path.join(src, f), { recursive: true, force: true });
    const mod = readFileSync(path.join(src, 'go.mod'), 'utf8');
    const staged = [...mod.matchAll(/^\s*(k8s\.io\/\S+)\s*=>\s*\.\/staging\//gm)].map((m) => m[1]);
    const edits = staged.flatMap((m) => [`-dropreplace=${m}`, `-replace=${m}=${m}@v0.${minor}.${v.split('.')[2]}`]);
    run(goBin, ['mod', 'edit', ...edits], { cwd: src, env: goEnv() });
    const ldflags = [
      '-s -w',
      `-X k8s.io/component-base/version.gitVersion=v${v}`,
      `-X k8s.io/component-base/version.gitMajor=${major}`,
      `-X k8s.io/component-base/version.gitMinor=${minor}`,
    ].join(' ');
    run(
      goBin,
      ['build', '-trimpath', '-ldflags', ldflags, '-o', d + '/', './cmd/kube-apiserver', './cmd/kube-controller-manager', './cmd/kube-scheduler', './cmd/kubectl'],
      { cwd: src, env: goEnv() },
    );
    rmSync(src, { recursive: true, force: true });
  });
}

/**
 * promtool (`check rules`, `test rules`), built from the downloaded module as etcd is (stripped of
 * symbols) and niced: it links every service-discovery SDK (AWS, Azure, GCE, Kubernetes); the first
 * build took 55 minutes beside a Kubernetes build on two shared cores, then it is cached.
 */
export function ensurePromtool() {
  const v = VERSIONS.prometheus;
  const dir = buildInto(path.join(cacheDir, `promtool-${v}`), (d) => {
    const src = moduleSource('github.com/prometheus/prometheus', `v${v}`, path.join(d, 'src'));
    // Its go.work (tools, examples) would put the build in workspace mode, where -mod=mod is refused.
    run('nice', [goBin, 'build', '-trimpath', '-ldflags', '-s -w', '-o', path.join(d, 'promtool'), './cmd/promtool'], { cwd: src, env: goEnv({ GOWORK: 'off' }) });
    rmSync(src, { recursive: true, force: true });
  });
  return path.join(dir, 'promtool');
}

/** kwok and one Stage config file (nodes ready and heart-beating, pods ready, completed, deleted). */
export function ensureKwok() {
  const v = VERSIONS.kwok;
  return buildInto(path.join(cacheDir, `kwok-${v}`), (d) => {
    run(goBin, ['install', `sigs.k8s.io/kwok/cmd/kwok@v${v}`], { env: goEnv({ GOBIN: d }) });
    const info = JSON.parse(capture(goBin, ['mod', 'download', '-json', `sigs.k8s.io/kwok@v${v}`], { env: goEnv() }));
    const stages = [
      'kustomize/stage/node/fast/node-initialize.yaml',
      'kustomize/stage/node/heartbeat/node-heartbeat.yaml',
      'kustomize/stage/pod/fast/pod-ready.yaml',
      'kustomize/stage/pod/fast/pod-complete.yaml',
      'kustomize/stage/pod/fast/pod-delete.yaml',
    ].map((p) => readFileSync(path.join(info.Dir, p), 'utf8').trim());
    writeFileSync(path.join(d, 'stages.yaml'), `${stages.join('\n---\n')}\n`);
  });
}

/** Debian's Docker engine and debootstrap (the engine itself is started by the tests, never by apt). */
export function ensureDocker() {
  const missing = [
    ['docker.io', '/usr/sbin/dockerd'],
    ['debootstrap', '/usr/sbin/debootstrap'],
  ].filter(([, bin]) => !existsSync(bin));
  if (!missing.length) return '/usr/sbin/dockerd';
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing.map(([p]) => p)], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return '/usr/sbin/dockerd';
}

const steps = {
  helm: ensureHelm,
  kubeconform: ensureKubeconform,
  schemas: ensureSchemas,
  unittest: ensureHelmUnittest,
  etcd: ensureEtcd,
  kube: ensureKubernetes,
  kwok: ensureKwok,
  promtool: ensurePromtool,
  docker: ensureDocker,
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2).filter((a) => a !== 'all');
  const names = wanted.length ? wanted : Object.keys(steps);
  let failed = 0;
  for (const name of names) {
    const step = steps[name];
    if (!step) {
      say(`unknown step ${name}; steps: ${Object.keys(steps).join(', ')}`);
      process.exit(2);
    }
    const started = Date.now();
    try {
      const where = step();
      say(`${name}: ${where} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    } catch (err) {
      failed++;
      say(`${name}: FAILED: ${err.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
