/**
 * One temporary directory per test run, removed when the run ends. Test files, the servers they
 * start (PostgreSQL data directories of 300–500 MiB, NATS and FerretDB stores) and Chromium
 * profiles all write under os.tmpdir(); left in /tmp, a day of runs filled the machine's disk
 * (75 GiB seen). The run points TMPDIR at its own directory, which the workers and every process
 * they start inherit, so nothing has to remember to clean up after itself.
 *
 * A run killed before its teardown leaves its directory behind: the next run removes every run
 * directory whose owner process is gone.
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'wb-run-';
const OWNER = 'owner.pid';
/** A run directory without its owner file is another run's that is just starting, until it is this old. */
const STARTING_MS = 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Run directories in `parent` whose owner is gone (or never wrote its pid, long ago). */
export function staleRunDirs(parent: string): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(PREFIX))
    .map((n) => path.join(parent, n))
    .filter((dir) => {
      const file = path.join(dir, OWNER);
      if (!existsSync(file)) return Date.now() - statSync(dir).mtimeMs > STARTING_MS;
      const pid = Number(readFileSync(file, 'utf8').trim());
      return !Number.isInteger(pid) || pid <= 0 || (pid !== process.pid && !alive(pid));
    });
}

/**
 * Makes a fresh run directory under the current temporary directory and points TMPDIR at it.
 * Returns the function that removes it and restores TMPDIR.
 */
export async function useRunTmpdir(): Promise<() => Promise<void>> {
  const parent = os.tmpdir();
  for (const dir of staleRunDirs(parent)) rmSync(dir, { recursive: true, force: true });
  const dir = await mkdtemp(path.join(parent, PREFIX));
  // Servers started as root run as the `postgres` user, which must reach its data directory.
  await chmod(dir, 0o755);
  writeFileSync(path.join(dir, OWNER), String(process.pid));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
