import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { belowFloor, tierCounts } from '../ci-floors.mjs';

const project = (passed: number, failed = 0, skipped = 0) => ({ files: 1, passed, failed, skipped, fileSeconds: 1 });
const floors = { unit: 430, services: 600, chart: 13 };

describe('the floor check of .ci/run', () => {
  it('counts passed and failed tests as run, not skipped ones', () => {
    const summary = { projects: { unit: project(400, 3, 50), services: project(610) } };
    expect(tierCounts(summary, { chart: 13 })).toEqual({ unit: 403, services: 610, chart: 13 });
  });

  it('passes tiers at or above their floor and names the ones below, a vanished tier as 0', () => {
    expect(belowFloor(floors, { unit: 430, services: 700, chart: 13 })).toEqual([]);
    expect(belowFloor(floors, { unit: 429, chart: 13 })).toEqual([
      { tier: 'unit', floor: 430, ran: 429 },
      { tier: 'services', floor: 600, ran: 0 },
    ]);
  });

  it('as a command: exit 1 with one line per tier below, exit 0 otherwise', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ci-floors-'));
    const summaryFile = path.join(dir, 'summary.json');
    const floorsFile = path.join(dir, 'floors.json');
    writeFileSync(floorsFile, JSON.stringify(floors));
    writeFileSync(summaryFile, JSON.stringify({ passed: 1000, failed: 0, projects: { unit: project(440), services: project(590, 0, 20) } }));
    const script = path.join(import.meta.dirname, '..', 'ci-floors.mjs');
    const run = (...args: string[]) => {
      try {
        return { code: 0, out: execFileSync(process.execPath, [script, summaryFile, floorsFile, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) };
      } catch (err) {
        const e = err as { status: number; stdout: string };
        return { code: e.status, out: e.stdout };
      }
    };
    expect(run('chart=13')).toEqual({ code: 1, out: 'tier services ran 590 tests, below its floor of 600 (.ci/floors.json)\n' });
    expect(run('chart=12').out.split('\n').filter(Boolean)).toHaveLength(2);
    writeFileSync(summaryFile, JSON.stringify({ projects: { unit: project(440), services: project(600) } }));
    expect(run('chart=13')).toEqual({ code: 0, out: '' });
  });
});
