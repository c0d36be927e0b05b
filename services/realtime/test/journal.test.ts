/**
 * The update log's local journal (store/journal.ts) in front of a real PostgreSQL: shipping, replay
 * after a crash (a process that never closed it), a record cut short, deleted boards, and one
 * owner per directory.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createDatabase, eventually, startPostgres, tempDir } from '@wb/testkit';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { decodeSegment, encodeRecord, encodeRecords, JournaledStore, JournalInUse } from '../src/store/journal.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { silent } from './helpers.ts';

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let store: DocumentStore;

beforeAll(async () => {
  pg = await startPostgres();
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA, max: 4 });
  store = createPostgresStore(pool);
  await store.init();
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await pg?.stop();
});

/** An update adding `key` to the map `m`, from a document of its own. */
function update(key: string): Uint8Array {
  const d = new Y.Doc();
  d.getMap('m').set(key, key);
  return Y.encodeStateAsUpdate(d);
}

/** The keys a fresh load of the board holds. */
async function keys(s: DocumentStore, boardId: string): Promise<string[]> {
  const stored = await s.load(boardId);
  const d = new Y.Doc();
  if (stored.state) Y.applyUpdate(d, stored.state);
  for (const e of stored.log) Y.applyUpdate(d, e.update);
  return [...d.getMap('m').keys()].sort();
}

const segments = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.log')).sort();

/** A journal that never ships by itself: what it holds stays in its segments, as after a crash. */
async function stalled(dir: string): Promise<JournaledStore> {
  const j = new JournaledStore({ dir, store: createPostgresStore(pool), logger: silent, shipIntervalMs: 3_600_000 });
  await j.init();
  return j;
}

describe('the local journal', () => {
  it('shows an append as done before the store has it, ships it in the background, one row per board', async () => {
    const dir = await tempDir('journal-ship');
    const j = new JournaledStore({ dir, store: createPostgresStore(pool), logger: silent, shipIntervalMs: 20 });
    await j.init();
    await j.appendMany([
      { boardId: 'ship-a', update: update('a1') },
      { boardId: 'ship-b', update: update('b1') },
    ]);
    await j.appendMany([{ boardId: 'ship-a', update: update('a2') }]);
    expect(j.unshippedBytes()).toBeGreaterThan(0);
    await eventually(() => expect(j.unshippedBytes()).toBe(0));
    expect(await keys(store, 'ship-a')).toEqual(['a1', 'a2']);
    expect(await keys(store, 'ship-b')).toEqual(['b1']);
    await j.close();
    expect(segments(dir)).toEqual([]);
    expect(existsSync(path.join(dir, 'owner.pid'))).toBe(false);
  });

  it('keeps only the segments not yet shipped while people keep typing', async () => {
    const dir = await tempDir('journal-busy');
    const j = new JournaledStore({ dir, store: createPostgresStore(pool), logger: silent, shipIntervalMs: 10 });
    await j.init();
    const written: string[] = [];
    // Appends without a pause (only the event loop's turn between them): every shipment ends with
    // newer appends waiting, as on a busy board.
    for (const until = Date.now() + 400; Date.now() < until; ) {
      written.push(`k${String(written.length).padStart(5, '0')}`);
      await j.appendMany([{ boardId: 'busy-a', update: update(written.at(-1)!) }]);
      await new Promise((r) => setImmediate(r));
    }
    // Dozens of shipments happened while appends kept coming: their segments are gone.
    expect(segments(dir).length).toBeLessThanOrEqual(3);
    expect(await keys(j, 'busy-a')).toEqual(written);
    await j.close();
  });

  it('updates Yjs cannot merge are shipped one by one instead of blocking the journal', async () => {
    const dir = await tempDir('journal-unmergeable');
    const j = new JournaledStore({ dir, store: createPostgresStore(pool), logger: silent, shipIntervalMs: 3_600_000 });
    await j.init();
    const junk = [new Uint8Array([0xff, 0xff, 0xff]), new Uint8Array([0xfe, 0x01])];
    await j.appendMany(junk.map((update) => ({ boardId: 'junk-a', update })));
    const stored = await j.load('junk-a');
    expect(stored.log.map((e) => [...e.update])).toEqual(junk.map((u) => [...u]));
    expect(j.unshippedBytes()).toBe(0);
    await j.close();
  });

  it('a board is read only after its journaled updates reached the store', async () => {
    const dir = await tempDir('journal-load');
    const j = await stalled(dir);
    await j.appendMany([{ boardId: 'load-a', update: update('x') }]);
    expect(await keys(store, 'load-a')).toEqual([]);
    expect(await keys(j, 'load-a')).toEqual(['x']);
    expect(j.unshippedBytes()).toBe(0);
    await j.close();
  });

  it('replays what a crashed process journaled into the store before anything else, then removes it', async () => {
    const dir = await tempDir('journal-replay');
    const crashed = await stalled(dir);
    await crashed.appendMany([{ boardId: 'replay-a', update: update('r1') }]);
    await crashed.appendMany([
      { boardId: 'replay-a', update: update('r2') },
      { boardId: 'replay-b', update: update('r3') },
    ]);
    expect(await keys(store, 'replay-a')).toEqual([]);
    expect(segments(dir).length).toBe(1);

    const next = await stalled(dir);
    expect(await keys(store, 'replay-a')).toEqual(['r1', 'r2']);
    expect(await keys(store, 'replay-b')).toEqual(['r3']);
    // The replayed segment is gone; the new one is empty.
    expect(segments(dir).length).toBe(1);
    await next.close();
  });

  it('records written together read back one by one, whatever the board id\'s characters', () => {
    const records = [
      { kind: 1, boardId: 'a', update: update('one') },
      { kind: 2, boardId: 'доска-ü' },
      { kind: 1, boardId: 'b'.repeat(255), update: update('two') },
    ];
    const together = encodeRecords(records);
    expect(together.equals(Buffer.concat(records.map((r) => encodeRecord(r.kind, r.boardId, r.update))))).toBe(true);
    const { records: back, damagedAt } = decodeSegment(together);
    expect(damagedAt).toBe(null);
    expect(back.map((r) => [r.kind, r.boardId, r.update.byteLength])).toEqual(records.map((r) => [r.kind, r.boardId, r.update?.byteLength ?? 0]));
    expect(() => encodeRecords([{ kind: 1, boardId: 'я'.repeat(128) }])).toThrow(/too long/);
  });

  it('a record cut short (a machine crash mid-write) ends its segment; the records before it are replayed', async () => {
    const dir = await tempDir('journal-torn');
    const crashed = await stalled(dir);
    await crashed.appendMany([{ boardId: 'torn-a', update: update('whole') }]);
    const [segment] = segments(dir);
    const cut = encodeRecord(1, 'torn-a', update('cut'));
    appendFileSync(path.join(dir, segment!), cut.subarray(0, cut.byteLength - 3));
    const damaged = encodeRecord(1, 'torn-a', update('flipped'));
    const last = damaged.byteLength - 1;
    damaged.writeUInt8(damaged[last]! ^ 0xff, last);
    expect(decodeSegment(damaged).damagedAt).toBe(0);

    const next = await stalled(dir);
    expect(await keys(store, 'torn-a')).toEqual(['whole']);
    await next.close();
  });

  it('a deleted board is not brought back by a replay', async () => {
    const dir = await tempDir('journal-deleted');
    const crashed = await stalled(dir);
    await crashed.appendMany([
      { boardId: 'gone', update: update('g1') },
      { boardId: 'kept', update: update('k1') },
    ]);
    await crashed.deleteBoard('gone');
    const next = await stalled(dir);
    expect(await keys(store, 'gone')).toEqual([]);
    expect(await keys(store, 'kept')).toEqual(['k1']);
    await next.close();
  });

  it('a write that fails (disk full) fails the append, and the next one goes to a fresh segment', async () => {
    const dir = await tempDir('journal-full');
    const j = new JournaledStore({ dir, store: createPostgresStore(pool), logger: silent, shipIntervalMs: 20 });
    await j.init();
    // The segment the next shipment rotates to is the kernel's always-full device.
    symlinkSync('/dev/full', path.join(dir, 'seg-000000000002.log'));
    await j.appendMany([{ boardId: 'full-a', update: update('first') }]);
    await eventually(() => expect(j.unshippedBytes()).toBe(0));
    await expect(j.appendMany([{ boardId: 'full-a', update: update('second') }])).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(j.unshippedBytes()).toBe(0);
    // The group commit tries the same batch again.
    await j.appendMany([{ boardId: 'full-a', update: update('second') }]);
    expect(await keys(j, 'full-a')).toEqual(['first', 'second']);
    await j.close();
    expect(segments(dir)).toEqual([]);
  });

  it('a directory owned by another live process is refused', async () => {
    const dir = await tempDir('journal-owner');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      writeFileSync(path.join(dir, 'owner.pid'), String(other.pid));
      await expect(stalled(dir)).rejects.toBeInstanceOf(JournalInUse);
      // The same pid with another start time: the owner died and its pid went to another program.
      writeFileSync(path.join(dir, 'owner.pid'), `${other.pid} 1`);
      const taken = await stalled(dir);
      await taken.close();
      writeFileSync(path.join(dir, 'owner.pid'), `${other.pid}`);
    } finally {
      other.kill('SIGKILL');
    }
    // A dead owner's directory is taken over (its journal replayed).
    await eventually(() => expect(other.exitCode !== null || other.signalCode !== null).toBe(true));
    const j = await stalled(dir);
    await j.close();
  });
});
