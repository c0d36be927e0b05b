#!/usr/bin/env node
// Brings a machine (a developer's or a bare CI box) to the state the tests and `npm start` need:
// node_modules, nats-server, Chromium, the FerretDB wrapper and Mailpit. Every step checks first, so a
// second run costs well under a second. Uses only Node built-ins: it runs before node_modules exists.
//
//   node scripts/ensure-infra.mjs [--no-browser] [--no-go] [--no-apt] [--quiet]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, accessSync, constants, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const toolsBin = path.join(repoRoot, '.tools', 'bin');

let quiet = false;
const say = (msg) => {
  if (!quiet) process.stdout.write(`[infra] ${msg}\n`);
};

function run(cmd, args, opts = {}) {
  say(
    `$ ${[cmd, ...args].join(' ')}${opts.cwd && opts.cwd !== repoRoot ? `   (in ${path.relative(repoRoot, opts.cwd)})` : ''}`,
  );
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...opts });
  if (r.error) return { ok: false, why: r.error.message };
  return { ok: r.status === 0, why: r.status === 0 ? '' : `exit code ${r.status ?? r.signal}` };
}

const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

/** Absolute path of an executable on PATH (or in the usual sbin dirs that a non-login PATH may lack). */
export function which(name) {
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/sbin',
    toolsBin,
  ];
  for (const dir of dirs) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- node_modules

const stampFile = path.join(repoRoot, 'node_modules', '.wb-install-stamp');

function lockHash() {
  const lock = path.join(repoRoot, 'package-lock.json');
  return existsSync(lock) ? createHash('sha256').update(readFileSync(lock)).digest('hex') : 'no-lock';
}

/**
 * Installs dependencies when node_modules is missing or older than package-lock.json. A hash of
 * the lock is kept in a stamp so touching the file without changing it costs nothing.
 * Returns a problem description, or undefined when node_modules is usable.
 */
export function ensureNodeModules() {
  const nm = path.join(repoRoot, 'node_modules');
  const hash = lockHash();
  const hasLock = hash !== 'no-lock';
  if (existsSync(nm)) {
    const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
    if (stamp === hash) {
      say('node_modules up to date');
      return undefined;
    }
    // npm's own record of the last install being newer than the lock also counts (someone ran
    // `npm install -w x pkg` by hand, which rewrites both).
    const hidden = path.join(nm, '.package-lock.json');
    if (existsSync(hidden) && mtime(hidden) >= mtime(path.join(repoRoot, 'package-lock.json'))) {
      writeFileSync(stampFile, hash);
      say('node_modules up to date (matches the last npm install)');
      return undefined;
    }
  }
  // `npm ci` wipes node_modules, which is right on a fresh clone but would pull the rug from under
  // anyone else using a shared checkout; an existing tree is updated in place instead.
  const fresh = !existsSync(nm);
  const args = fresh && hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  say(
    fresh ? 'node_modules missing: installing' : 'package-lock.json changed since the last install: updating',
  );
  // Engineers sharing a checkout serialise npm through this lock (see docs/team-notes.md).
  const r = which('flock') ? run('flock', ['/tmp/npm.lock', 'npm', ...args]) : run('npm', args);
  if (!r.ok) return `npm ${args[0]} failed (${r.why})`;
  writeFileSync(stampFile, lockHash());
  return undefined;
}

// ---------------------------------------------------------------- Debian packages

let aptUpdated = false;

/**
 * Installs Debian packages whose marker file or binary is missing. `wanted` maps a package name to
 * a test: a binary name (looked up on PATH) or an absolute path that the package provides.
 */
export function ensureAptPackages(wanted) {
  const missing = Object.entries(wanted)
    .filter(([, probe]) => (probe.startsWith('/') ? !existsSync(probe) : !which(probe)))
    .map(([pkg]) => pkg);
  if (missing.length === 0) {
    say(`present: ${Object.keys(wanted).join(', ')}`);
    return undefined;
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    const msg = `missing ${missing.join(', ')}; not root, so not running apt-get (install them: sudo apt-get install ${missing.join(' ')})`;
    say(msg);
    return msg;
  }
  if (!which('apt-get')) return `missing ${missing.join(', ')} and apt-get is not available`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    const u = run('apt-get', ['update', '-qq'], { env });
    if (!u.ok) say(`apt-get update failed (${u.why}); trying the install with the lists at hand`);
    aptUpdated = true;
  }
  const r = run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
  if (!r.ok) return `apt-get install ${missing.join(' ')} failed (${r.why})`;
  return undefined;
}

// ---------------------------------------------------------------- FerretDB wrapper

/**
 * Builds deploy/tools/ferretdb into .tools/bin/wb-ferretdb. `go install` of FerretDB's own command
 * is no option: the module proxy refuses the deprecation lookup and that binary panics without its
 * generated version files, hence the small wrapper around the embeddable package.
 */
export function ensureFerretDB() {
  const src = path.join(repoRoot, 'deploy', 'tools', 'ferretdb');
  const bin = path.join(toolsBin, 'wb-ferretdb');
  if (!existsSync(path.join(src, 'main.go'))) return 'deploy/tools/ferretdb/main.go is missing';
  const newestSource = Math.max(...['main.go', 'go.mod', 'go.sum'].map((f) => mtime(path.join(src, f))));
  if (existsSync(bin) && mtime(bin) >= newestSource) {
    say('.tools/bin/wb-ferretdb up to date');
    return undefined;
  }
  const go = which('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go)
    return 'go is not installed, so .tools/bin/wb-ferretdb cannot be built (install Go 1.24+ or pass --no-go)';
  mkdirSync(toolsBin, { recursive: true });
  say(
    existsSync(bin)
      ? 'FerretDB wrapper sources changed: rebuilding'
      : 'building the FerretDB wrapper (first time takes a minute or two)',
  );
  const goflags = [process.env.GOFLAGS ?? '', '-mod=mod'].join(' ').trim();
  const r = run(go, ['build', '-o', bin, '.'], { cwd: src, env: { ...process.env, GOFLAGS: goflags } });
  if (!r.ok) return `go build of deploy/tools/ferretdb failed (${r.why})`;
  return undefined;
}

// ---------------------------------------------------------------- Mailpit (development and test mail server)

export const MAILPIT_VERSION = '1.33.1';
/** Go tools are built once per version into a cache outside the repo, so a reused machine or a fresh clone skips the build. */
export const toolsCache = process.env.WB_TOOLS_CACHE ?? path.join(os.homedir(), '.cache', 'wb-tools');
export const mailpitBinary = path.join(toolsCache, `mailpit-${MAILPIT_VERSION}`, 'mailpit');

/**
 * `go install github.com/axllent/mailpit@v<version>` into the cache (a few minutes the first time),
 * then .tools/bin/mailpit links to it. The build goes to a scratch directory renamed when complete,
 * so an interrupted build never leaves a half-written binary behind.
 */
export function ensureMailpit() {
  const link = path.join(toolsBin, 'mailpit');
  if (!existsSync(mailpitBinary)) {
    const go = which('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
    if (!go) return 'go is not installed, so Mailpit cannot be built (install Go 1.24+ or pass --no-go)';
    const target = path.dirname(mailpitBinary);
    const scratch = `${target}.part-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    say(`building Mailpit ${MAILPIT_VERSION} into ${target} (first time takes a few minutes)`);
    const r = run(go, ['install', `-ldflags=-X github.com/axllent/mailpit/config.Version=v${MAILPIT_VERSION}`, `github.com/axllent/mailpit@v${MAILPIT_VERSION}`], {
      cwd: os.tmpdir(),
      env: { ...process.env, GOBIN: scratch, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOCACHE: process.env.GOCACHE ?? path.join(toolsCache, 'gocache') },
    });
    if (!r.ok || !existsSync(path.join(scratch, 'mailpit'))) {
      rmSync(scratch, { recursive: true, force: true });
      return `go install github.com/axllent/mailpit@v${MAILPIT_VERSION} failed (${r.why || 'no binary'})`;
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(scratch, target);
  } else say(`Mailpit ${MAILPIT_VERSION} present (${path.dirname(mailpitBinary)})`);
  let current;
  try {
    current = readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== mailpitBinary) {
    mkdirSync(toolsBin, { recursive: true });
    rmSync(link, { force: true });
    symlinkSync(mailpitBinary, link);
  }
  return undefined;
}

// ---------------------------------------------------------------- all of it

/**
 * Runs every step and returns the list of problems (empty when all is in place). Steps after a
 * failed one still run, so a single report names everything that is missing.
 */
export function ensureInfra({ browser = true, go = true, apt = true, quiet: q = false } = {}) {
  quiet = q;
  const started = Date.now();
  const problems = [];
  const note = (p) => p && problems.push(p);
  note(ensureNodeModules());
  if (apt) {
    // poppler-utils: the export tests turn PDFs into images with pdftoppm.
    // docker.io and debootstrap: the container image tests build and run every image on a real engine.
    const pkgs = { 'nats-server': 'nats-server', 'poppler-utils': 'pdftoppm', 'docker.io': '/usr/sbin/dockerd', debootstrap: '/usr/sbin/debootstrap' };
    if (browser) {
      pkgs.chromium = 'chromium';
      pkgs['fonts-dejavu-core'] = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
    }
    note(ensureAptPackages(pkgs));
  } else say('skipping Debian packages (--no-apt)');
  if (go) {
    note(ensureFerretDB());
    note(ensureMailpit());
  } else say('skipping the FerretDB wrapper and Mailpit (--no-go)');
  for (const p of problems) say(`PROBLEM: ${p}`);
  say(
    `done in ${((Date.now() - started) / 1000).toFixed(1)} s${problems.length ? ` with ${problems.length} problem(s)` : ''}`,
  );
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  const problems = ensureInfra({
    browser: !args.has('--no-browser'),
    go: !args.has('--no-go'),
    apt: !args.has('--no-apt'),
    quiet: args.has('--quiet'),
  });
  process.exit(problems.length ? 1 : 0);
}
