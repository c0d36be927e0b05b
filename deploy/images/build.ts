// `npm run images`: one container image per service of the topology manifest, on a real Docker
// engine (deploy/images/engine.ts), from the shared base (base.ts): the service's compiled
// JavaScript and production dependencies only (stage.ts), the gateway's with the built SPA; run as
// user 10001 with a read-only root filesystem in mind (only /tmp is written), a health check on
// /health, SIGTERM as the stop signal (runService stops in order and exits 0).
//
//   npm run images [-- <service>...]     build (all services by default) and print each image's size
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOPOLOGY, type ServiceTopology } from '@wb/topology';
import { APP_UID, ensureBaseImage } from './base.ts';
import { ensureEngine, type Engine } from './engine.ts';
import { stageService } from './stage.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The tag every image gets: the chart's appVersion, which the chart's default image tag is too. */
export function imageTag(): string {
  const chart = readFileSync(path.join(repoRoot, 'charts', 'whiteboard', 'Chart.yaml'), 'utf8');
  return /^appVersion:\s*"?([^"\s]+)"?/m.exec(chart)?.[1] ?? 'dev';
}

export const imageName = (service: string, tag = imageTag()) => `whiteboard-${service}:${tag}`;

/** Services that have a package to put in an image. */
export const IMAGE_SERVICES = (TOPOLOGY as readonly ServiceTopology[]).filter((s): s is ServiceTopology & { package: string } => s.package !== undefined);

function packageDir(pkg: string): string {
  return path.join('services', pkg.replace(/^@wb\//, ''));
}

/** The image's entry file, beside the service's directory in /app. */
const ENTRY = 'container-main.mjs';

/**
 * The service's own main.ts (runService of its package's definition), listening with SO_REUSEPORT:
 * on the host's network the Docker update starts a service's new container beside the old one, on
 * the same port, before it stops the old one (docs/decisions.md "Docker update").
 */
export function containerMain(svc: ServiceTopology & { package: string }): string {
  return [
    `import { runService } from '@wb/service-kit/run';`,
    `import definition from './${packageDir(svc.package)}/dist/app.js';`,
    '',
    'await runService(definition, { reusePort: true });',
    '',
  ].join('\n');
}

export function dockerfile(base: string, svc: ServiceTopology & { package: string }): string {
  const entry = ['node', ...svc.nodeFlags, '--conditions=wb-dist', '--import', '@wb/service-kit/tracing-preload', ENTRY];
  const health = `fetch('http://127.0.0.1:'+(process.env.PORT||${svc.port})+'${svc.probes.health}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`;
  return [
    `FROM ${base}`,
    `COPY --chown=0:0 app /app`,
    'WORKDIR /app',
    `ENV NODE_ENV=production PORT=${svc.port}`,
    `EXPOSE ${svc.port}`,
    `USER ${APP_UID}:${APP_UID}`,
    `HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ${JSON.stringify(['node', '-e', health])}`,
    'STOPSIGNAL SIGTERM',
    `ENTRYPOINT ${JSON.stringify(entry)}`,
    `LABEL org.opencontainers.image.title="whiteboard ${svc.name}" org.opencontainers.image.source="libs/topology"`,
    '',
  ].join('\n');
}

function buildInputs(log: (m: string) => void) {
  log('compiling the backend (only packages whose sources changed)');
  const r = spawnSync(process.execPath, ['-e', "import('./scripts/lib/backend-build.mjs').then((m) => m.buildBackendIfStale())"], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('backend build failed');
  const f = spawnSync(process.execPath, ['-e', "import('./scripts/lib/frontend-build.mjs').then((m) => m.buildFrontendIfStale())"], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (f.status !== 0) throw new Error('SPA build failed');
}

export interface BuiltImage {
  service: string;
  image: string;
  /** Bytes of the service's own layer, above the shared base (Debian, Node and the shared runtime packages). */
  aboveBase: number;
}

/**
 * What two or more services need (workspace libraries, OpenTelemetry, zod, express, pg, ...) goes
 * into one shared layer above the Debian and Node base, so a node pulls it once; each service's own
 * layer holds the rest. The runtime image's tag is a hash of its content's list and the lock file.
 */
function splitShared(staged: Map<string, { app: string; paths: string[] }>): string[] {
  const count = new Map<string, number>();
  for (const { paths } of staged.values()) for (const p of new Set(paths)) count.set(p, (count.get(p) ?? 0) + 1);
  return [...count].filter(([, n]) => n >= 2).map(([p]) => p).sort();
}

export async function buildImages(opts: { services?: string[]; engine?: Engine; log?: (m: string) => void } = {}): Promise<BuiltImage[]> {
  const log = opts.log ?? ((m: string) => process.stdout.write(`[images] ${m}\n`));
  const engine = opts.engine ?? (await ensureEngine());
  const work = mkdtempSync(path.join(os.tmpdir(), 'wb-images-'));
  try {
    buildInputs(log);
    const base = ensureBaseImage(engine, repoRoot, log);
    // Every service is staged (cheap), so the shared layer is the same whichever ones are built.
    const staged = new Map<string, { app: string; paths: string[] }>();
    for (const svc of IMAGE_SERVICES) {
      const app = path.join(work, svc.name, 'app');
      const { paths } = stageService(repoRoot, packageDir(svc.package), app);
      writeFileSync(path.join(app, ENTRY), containerMain(svc));
      if (svc.name === 'gateway') cpSync(path.join(repoRoot, 'frontend', 'dist'), path.join(app, 'frontend', 'dist'), { recursive: true });
      staged.set(svc.name, { app, paths });
    }
    const shared = splitShared(staged);
    const runtimeApp = path.join(work, 'runtime', 'app');
    for (const rel of shared) {
      let moved = false;
      for (const { app, paths } of staged.values()) {
        // A nested package travels with its parent, which comes first in the sorted list.
        if (!paths.includes(rel) || !existsSync(path.join(app, rel))) continue;
        if (!moved) {
          mkdirSync(path.dirname(path.join(runtimeApp, rel)), { recursive: true });
          renameSync(path.join(app, rel), path.join(runtimeApp, rel));
          moved = true;
        } else rmSync(path.join(app, rel), { recursive: true, force: true });
      }
    }
    const lock = readFileSync(path.join(repoRoot, 'package-lock.json'));
    const runtimeTag = `wb-runtime:${createHash('sha256').update(base).update(shared.join('\n')).update(lock).update(sharedLibsDigest(shared)).digest('hex').slice(0, 16)}`;
    try {
      engine.docker(['image', 'inspect', runtimeTag], { quiet: true });
    } catch {
      log(`${runtimeTag}: ${shared.length} packages and libraries used by two or more services`);
      writeFileSync(path.join(work, 'runtime', 'Dockerfile'), [`FROM ${base}`, 'COPY --chown=0:0 app /app', ''].join('\n'));
      engine.docker(['build', '--network', 'none', '-q', '-t', runtimeTag, path.join(work, 'runtime')], { quiet: true });
    }
    const sizeOf = (image: string) => Number(engine.docker(['image', 'inspect', '--format', '{{.Size}}', image], { quiet: true }).trim());
    const baseSize = sizeOf(runtimeTag);
    log(`shared base: ${base} ${(sizeOf(base) / 2 ** 20).toFixed(1)} MB, with the shared runtime layer ${(baseSize / 2 ** 20).toFixed(1)} MB`);
    const wanted = IMAGE_SERVICES.filter((s) => !opts.services?.length || opts.services.includes(s.name));
    const built: BuiltImage[] = [];
    for (const svc of wanted) {
      const dir = path.dirname(staged.get(svc.name)!.app);
      writeFileSync(path.join(dir, 'Dockerfile'), dockerfile(runtimeTag, svc));
      const image = imageName(svc.name);
      log(`${image}`);
      engine.docker(['build', '--network', 'none', '-q', '-t', image, '-t', imageName(svc.name, 'latest'), dir], { quiet: true });
      built.push({ service: svc.name, image, aboveBase: sizeOf(image) - baseSize });
    }
    return built;
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (!opts.engine) await engine.stop();
  }
}

/** The compiled libraries in the shared layer change with their sources, not with the lock file. */
function sharedLibsDigest(shared: string[]): string {
  const hash = createHash('sha256');
  for (const rel of shared.filter((p) => p.startsWith('libs/'))) {
    const stamp = path.join(repoRoot, rel, 'dist', '.build-stamp');
    hash.update(rel).update(existsSync(stamp) ? readFileSync(stamp) : String(Date.now()));
  }
  return hash.digest('hex');
}

const MB = 1024 * 1024;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const built = await buildImages({ services: process.argv.slice(2) });
  process.stdout.write(`\n| image | above the base |\n|---|---|\n`);
  for (const b of built) process.stdout.write(`| ${b.image} | ${(b.aboveBase / MB).toFixed(1)} MB |\n`);
  process.stdout.write(`\nnpm run images: ${built.length} images in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  const over = built.filter((b) => b.aboveBase > 80 * MB);
  if (over.length) {
    process.stderr.write(`over 80 MB above the base: ${over.map((b) => b.service).join(', ')}\n`);
    process.exit(1);
  }
}
