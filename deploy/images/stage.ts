// Lays out what one service image holds: the service's compiled JavaScript and migrations, the
// compiled workspace libraries it imports, and the production npm packages it needs, found by
// walking `dependencies` (and present optional and peer dependencies) from its package.json
// through Node's resolution in the checkout's node_modules. Paths keep the checkout's layout
// (/app/services/<name>, /app/libs/<lib>, /app/node_modules/...), so resolution in the image is the
// same as in the checkout. No dev dependency, no TypeScript source, no test.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readPkg = (dir: string): PackageJson => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;

/** Node's lookup of `name` from a package at `fromDir`, up to the checkout's root. */
function resolvePackage(name: string, fromDir: string, repoRoot: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === repoRoot || path.dirname(dir) === dir) return undefined;
    dir = path.dirname(dir);
  }
}

/** Files a running service never reads. */
const UNNEEDED = /(\.d\.[cm]?ts|\.map|\.tsbuildinfo|\/(README|CHANGELOG|HISTORY)(\.md)?|\.md)$/i;

export interface StagedService {
  /** npm packages copied (name@dir relative to the checkout). */
  packages: string[];
  /** Workspace libraries copied. */
  libs: string[];
  /** Every directory or link copied, relative to `appDir` (the service's own directory excluded). */
  paths: string[];
}

/** Only these files of a package are read at run time; the rest (other weights, subsets) is left out. */
const KEEP_ONLY: Record<string, RegExp> = {
  'dejavu-fonts-ttf': /\/(package\.json|ttf\/DejaVuSans\.ttf)$/,
  '@fontsource/noto-emoji': /\/(package\.json|files\/noto-emoji-emoji-400-normal\.woff)$/,
};

/**
 * Copies into `appDir` everything service `serviceDir` (relative to the checkout, e.g.
 * services/auth) needs at run time. Its dist/ and those of the libraries must be built already.
 */
export function stageService(repoRoot: string, serviceDir: string, appDir: string): StagedService {
  const copied = new Set<string>();
  const packages: string[] = [];
  const libs: string[] = [];
  const paths: string[] = [];
  const own = realpathSync(path.join(repoRoot, serviceDir));
  const queue: string[] = [path.join(repoRoot, serviceDir)];

  const copyWorkspace = (real: string) => {
    const rel = path.relative(repoRoot, real);
    const out = path.join(appDir, rel);
    if (!existsSync(path.join(real, 'dist'))) throw new Error(`${rel}/dist is missing: build the backend first (node deploy/build.mjs)`);
    mkdirSync(out, { recursive: true });
    cpSync(path.join(real, 'package.json'), path.join(out, 'package.json'));
    cpSync(path.join(real, 'dist'), path.join(out, 'dist'), { recursive: true, filter: (f) => !UNNEEDED.test(f) });
    if (existsSync(path.join(real, 'migrations'))) cpSync(path.join(real, 'migrations'), path.join(out, 'migrations'), { recursive: true });
  };

  while (queue.length) {
    const dir = queue.shift()!;
    const real = realpathSync(dir);
    if (copied.has(real)) continue;
    copied.add(real);
    const pkg = readPkg(real);
    const inWorkspace = !path.relative(repoRoot, real).split(path.sep).includes('node_modules');
    const rel = path.relative(repoRoot, real);
    if (inWorkspace) {
      copyWorkspace(real);
      if (real !== own) {
        libs.push(pkg.name);
        paths.push(rel);
      }
    } else {
      const keep = KEEP_ONLY[pkg.name];
      cpSync(real, path.join(appDir, rel), {
        recursive: true,
        // Its own nested node_modules are copied when the walk reaches them, so only what is used.
        filter: (f) =>
          !f.startsWith(path.join(real, 'node_modules')) &&
          !UNNEEDED.test(f) &&
          (!keep || f === real || keep.test(f) || statSync(f).isDirectory()),
      });
      packages.push(`${pkg.name}@${rel}`);
      paths.push(rel);
    }
    // An optional peer is for a mode the images do not run (e.g. @wb/db's embedded PostgreSQL).
    const peers = Object.keys(pkg.peerDependencies ?? {}).filter((n) => !pkg.peerDependenciesMeta?.[n]?.optional);
    const wanted = { ...Object.fromEntries(peers.map((n) => [n, '*'])), ...pkg.optionalDependencies, ...pkg.dependencies };
    for (const name of Object.keys(wanted)) {
      const found = resolvePackage(name, real, repoRoot);
      if (!found) {
        if (pkg.dependencies?.[name]) throw new Error(`${pkg.name} depends on ${name}, which is not installed`);
        continue; // an optional or peer dependency that is not installed here
      }
      const foundReal = realpathSync(found);
      // A workspace package is linked from node_modules/@wb/<name>, as npm links it in the checkout.
      if (!path.relative(repoRoot, foundReal).split(path.sep).includes('node_modules')) {
        const link = path.join(appDir, path.relative(repoRoot, found));
        if (!existsSync(link)) {
          mkdirSync(path.dirname(link), { recursive: true });
          symlinkSync(path.relative(path.dirname(link), path.join(appDir, path.relative(repoRoot, foundReal))), link);
          paths.push(path.relative(appDir, link));
        }
      }
      queue.push(found);
    }
  }
  return { packages, libs, paths };
}
