// Production build of the backend: every library and service compiles with tsc into its own dist/
// (same layout as src/, so paths like '../migrations' still hold), non-TypeScript files under src/
// are copied beside, and the runners in deploy/ compile to deploy/dist/. Packages' "exports" have a
// "wb-dist" condition pointing there: production runs `node --conditions=wb-dist`, while development
// and tests keep reading src/ through tsx and Vitest.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** Libraries and services with a package.json (testkit is for tests only). */
export function buildTargets() {
  const dirs = [];
  for (const group of ['libs', 'services']) {
    for (const d of readdirSync(path.join(repoRoot, group), { withFileTypes: true })) {
      const dir = path.join(group, d.name);
      if (d.isDirectory() && d.name !== 'testkit' && existsSync(path.join(repoRoot, dir, 'package.json')))
        dirs.push(dir);
    }
  }
  return [...dirs, 'deploy'];
}

/** Compiles one target into its dist/ (scripts/lib/backend-build.mjs calls it for the stale ones). */
export function compile(dir) {
  const root = path.join(repoRoot, dir);
  const out = path.join(root, 'dist');
  rmSync(out, { recursive: true, force: true });
  const src = dir === 'deploy' ? '.' : 'src';
  // Written on the fly so there is one build setting for every package, not one file each.
  const config = path.join(root, '.tsconfig.build.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.relative(root, path.join(repoRoot, 'tsconfig.base.json')),
      // noCheck: emit only; type checking is CI's `npm run typecheck`, not the build's.
      compilerOptions: {
        noEmit: false,
        noCheck: true,
        rootDir: src,
        outDir: 'dist',
        rewriteRelativeImportExtensions: true,
        sourceMap: true,
        declaration: false,
      },
      include: dir === 'deploy' ? ['embedded', 'local', 'services.ts'] : ['src'],
    }),
  );
  try {
    const r = spawnSync(process.execPath, [tsc, '-p', config], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`tsc failed for ${dir}`);
  } finally {
    rmSync(config, { force: true });
  }
  // Assets under src/ (migrations kept beside code, worker scripts) travel with the code.
  if (dir !== 'deploy') {
    cpSync(path.join(root, 'src'), out, { recursive: true, filter: (f) => !/\.tsx?$/.test(f) });
  }
}

export function buildBackend() {
  for (const dir of buildTargets()) {
    console.log(`[build] ${dir}`);
    compile(dir);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildBackend();
