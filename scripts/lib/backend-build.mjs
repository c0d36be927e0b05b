// Production start builds the backend only where its inputs changed. Each package's dist/ carries a
// stamp: a hash of everything its compile reads (sources, its package.json, the shared tsconfig, the
// build script and the TypeScript version). A package whose stamp matches is left alone, so an
// unchanged checkout starts at once instead of compiling ten packages (minutes on a busy machine).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './frontend-build.mjs';

export const STAMP_FILE = '.build-stamp';

/** What deploy/build.mjs compiles for one target (a lib, a service, or deploy's runners). */
function sourceRoots(dir) {
  return dir === 'deploy' ? ['embedded', 'local', 'services.ts'] : ['src', 'package.json'];
}

function listFiles(p, out) {
  if (!existsSync(p)) return;
  if (!statSync(p).isDirectory()) {
    out.push(p);
    return;
  }
  for (const entry of readdirSync(p).sort()) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    listFiles(path.join(p, entry), out);
  }
}

/** Inputs every target shares: a change to any of them rebuilds everything. */
function sharedInputs() {
  const ts = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'typescript', 'package.json'), 'utf8'));
  return [
    `typescript ${ts.version}`,
    readFileSync(path.join(repoRoot, 'tsconfig.base.json'), 'utf8'),
    readFileSync(path.join(repoRoot, 'deploy', 'build.mjs'), 'utf8'),
  ];
}

/** The stamp `dir`'s build would have: paths and contents, so a touched but unchanged file costs nothing. */
export function inputsHash(dir, shared = sharedInputs()) {
  const hash = createHash('sha256');
  for (const s of shared) hash.update(s).update('\0');
  const root = path.join(repoRoot, dir);
  const files = [];
  for (const r of sourceRoots(dir)) listFiles(path.join(root, r), files);
  for (const f of files) hash.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

const stampPath = (dir) => path.join(repoRoot, dir, 'dist', STAMP_FILE);

function readStamp(dir) {
  try {
    return readFileSync(stampPath(dir), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Targets whose dist/ is missing or was built from other inputs. */
export function staleBackendTargets(targets, shared = sharedInputs()) {
  return targets.filter((dir) => readStamp(dir) !== inputsHash(dir, shared));
}

/**
 * Compiles the stale targets with deploy/build.mjs and stamps each one after it succeeded (a build
 * cut short leaves no stamp, so the next start compiles that package again).
 */
export async function buildBackendIfStale({ force = false } = {}) {
  const { buildTargets, compile } = await import('../../deploy/build.mjs');
  const targets = buildTargets();
  const shared = sharedInputs();
  const stale = force ? targets : staleBackendTargets(targets, shared);
  if (stale.length === 0) {
    console.log('[build] backend up to date');
    return [];
  }
  for (const dir of stale) {
    // Hashed before compiling: a source edited during the build makes the stamp stale, not wrong.
    const stamp = inputsHash(dir, shared);
    console.log(`[build] ${dir}`);
    compile(dir);
    writeFileSync(stampPath(dir), `${stamp}\n`);
  }
  return stale;
}
