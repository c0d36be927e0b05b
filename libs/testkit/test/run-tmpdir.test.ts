import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleRunDirs, useRunTmpdir } from '../src/run-tmpdir.ts';

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the run temporary directory', () => {
  it('points TMPDIR at a fresh directory of its own and removes it, with what was written there, at the end', async () => {
    const before = process.env.TMPDIR;
    const remove = await useRunTmpdir();
    const dir = os.tmpdir();
    expect(dir).not.toBe(before ?? '/tmp');
    expect(path.basename(dir)).toMatch(/^wb-run-/);
    mkdirSync(path.join(dir, 'pg-x', 'data'), { recursive: true });
    writeFileSync(path.join(dir, 'pg-x', 'data', 'PG_VERSION'), '18');
    await remove();
    expect(existsSync(dir)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });

  it('counts as stale the run directories whose owner is gone, not those of a live or starting run, nor other files', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'wb-stale-test-'));
    const dead = path.join(parent, 'wb-run-dead');
    const live = path.join(parent, 'wb-run-live');
    const noOwner = path.join(parent, 'wb-run-noowner');
    const starting = path.join(parent, 'wb-run-starting');
    const other = path.join(parent, 'wb-pg-other');
    for (const d of [dead, live, noOwner, starting, other]) mkdirSync(d);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(noOwner, anHourAgo, anHourAgo);
    writeFileSync(path.join(dead, 'owner.pid'), String(await deadPid()));
    writeFileSync(path.join(live, 'owner.pid'), String(process.ppid));
    writeFileSync(path.join(other, 'owner.pid'), String(await deadPid()));
    expect(staleRunDirs(parent).sort()).toEqual([dead, noOwner].sort());
  });
});
