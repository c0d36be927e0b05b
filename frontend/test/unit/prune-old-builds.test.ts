import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneAssets } from '../../vite/prune-old-builds.ts';

let dir = '';
const at = (name: string, ms: number) => {
  const f = path.join(dir, 'assets', name);
  writeFileSync(f, name);
  utimesSync(f, ms / 1000, ms / 1000);
};
const assets = () => readdirSync(path.join(dir, 'assets')).sort();

describe('pruneAssets (frontend build output)', () => {
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wb-prune-'));
    mkdirSync(path.join(dir, 'assets'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('deletes nothing on the first recorded build: older files may belong to an open page', () => {
    at('ancient-1.js', 1_000_000);
    at('current-1.js', 5_000_000);
    expect(pruneAssets(dir, 5_000_000)).toEqual([]);
    expect(assets()).toEqual(['ancient-1.js', 'current-1.js']);
  });

  it('keeps the current and the previous build, deletes what only older builds wrote', () => {
    at('first.js', 1_000_000);
    pruneAssets(dir, 1_000_000);
    at('second.js', 2_000_000);
    expect(pruneAssets(dir, 2_000_000)).toEqual([]);
    at('third.js', 3_000_000);
    at('third.js.br', 3_000_500);
    expect(pruneAssets(dir, 3_000_000)).toEqual(['first.js']);
    expect(assets()).toEqual(['second.js', 'third.js', 'third.js.br']);
  });

  it('a chunk rewritten by the newest build survives even though an old build made it first', () => {
    pruneAssets(dir, 1_000_000);
    pruneAssets(dir, 2_000_000);
    at('shared.js', 3_000_100); // unchanged hash, written again
    at('gone.js', 1_500_000);
    expect(pruneAssets(dir, 3_000_000)).toEqual(['gone.js']);
    expect(assets()).toEqual(['shared.js']);
  });

  it('a broken history file counts as no history', () => {
    writeFileSync(path.join(dir, '.builds.json'), 'not json');
    at('old.js', 1_000);
    expect(pruneAssets(dir, 2_000_000)).toEqual([]);
    expect(assets()).toEqual(['old.js']);
  });
});
