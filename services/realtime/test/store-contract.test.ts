import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createPool, type Pool } from '@wb/db';
import { createDatabase, startMongo, startPostgres, type ManagedProcess } from '@wb/testkit';
import type { EmbeddedPostgresHandle } from '@wb/db';
import { createMongoStore } from '../src/store/mongo.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { stateHash } from '../src/domain/snapshots.ts';

function update(text: string): Uint8Array {
  const d = new Y.Doc();
  d.getMap('objects').set(text, text);
  return Y.encodeStateAsUpdate(d);
}

function contract(name: string, make: () => Promise<DocumentStore>) {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore;
    beforeAll(async () => {
      store = await make();
      await store.init();
      await store.init(); // idempotent
    });

    it('starts empty', async () => {
      expect(await store.load('b-empty')).toEqual({ state: null, version: 0, hash: null, log: [] });
      expect(await store.storedVersion('b-empty')).toBe(0);
    });

    it('appends, compacts with compare-and-set, then deletes only the contained log entries', async () => {
      const id = 'b-1';
      const a = update('a');
      const b = update('b');
      await store.append(id, a);
      await store.append(id, b);
      const first = await store.load(id);
      expect(first.log.map((e) => Buffer.from(e.update))).toEqual([Buffer.from(a), Buffer.from(b)]);
      await store.append(id, update('c')); // arrives after the compactor read the log

      const doc = new Y.Doc();
      for (const e of first.log) Y.applyUpdate(doc, e.update);
      const state = Y.encodeStateAsUpdate(doc);
      const v = await store.saveState(id, { expectedVersion: 0, state, hash: stateHash(state), objectsCount: 2, status: 'small', logIds: first.log.map((e) => e.id) });
      expect(v).toBe(1);
      // A second writer that read version 0 loses, and neither deletes the log it read nor adds a snapshot.
      const allIds = (await store.load(id)).log.map((e) => e.id);
      expect(await store.saveState(id, { expectedVersion: 0, state, hash: 'x', objectsCount: 2, status: 'small', logIds: allIds })).toBeNull();
      expect(await store.saveState(id, { expectedVersion: 7, state, hash: 'x', objectsCount: 2, status: 'small', logIds: allIds })).toBeNull();
      expect((await store.listSnapshots(id)).map((s) => s.version)).toEqual([1]);

      const after = await store.load(id);
      expect(after.version).toBe(1);
      expect(await store.storedVersion(id)).toBe(1);
      expect(after.hash).toBe(stateHash(state));
      expect(Buffer.from(after.state!)).toEqual(Buffer.from(state));
      expect(after.log).toHaveLength(1);
      const replay = new Y.Doc();
      Y.applyUpdate(replay, after.state!);
      for (const e of after.log) Y.applyUpdate(replay, e.update);
      expect([...replay.getMap('objects').keys()].sort()).toEqual(['a', 'b', 'c']);
    });

    it('appends entries of several boards in one call, in order', async () => {
      const [a, b, c] = [update('m1'), update('m2'), update('m3')];
      await store.appendMany([
        { boardId: 'b-many-1', update: a },
        { boardId: 'b-many-2', update: b },
        { boardId: 'b-many-1', update: c },
      ]);
      await store.appendMany([]);
      const one = await store.load('b-many-1');
      expect(one.log.map((e) => Buffer.from(e.update))).toEqual([Buffer.from(a), Buffer.from(c)]);
      expect((await store.load('b-many-2')).log.map((e) => Buffer.from(e.update))).toEqual([Buffer.from(b)]);
    });

    it('appends exactly the bytes of updates that are views into larger buffers (one entry, and several)', async () => {
      // What the sockets deliver: slices of a larger buffer, at an offset; zero bytes included.
      const one = update('view-1');
      const two = update('view-2');
      const big = Buffer.alloc(one.byteLength + two.byteLength + 16, 0xee);
      big.set(one, 3);
      big.set(two, 3 + one.byteLength + 5);
      const v1 = new Uint8Array(big.buffer, big.byteOffset + 3, one.byteLength);
      const v2 = new Uint8Array(big.buffer, big.byteOffset + 3 + one.byteLength + 5, two.byteLength);
      const zeros = new Uint8Array([0, 0]);
      await store.appendMany([{ boardId: 'b-view-1', update: v1 }]);
      await store.appendMany([
        { boardId: 'b-view-2', update: v2 },
        { boardId: 'b-view-1', update: zeros },
        { boardId: 'b-view-1', update: v2 },
      ]);
      const log1 = (await store.load('b-view-1')).log.map((e) => Buffer.from(e.update));
      expect(log1).toEqual([Buffer.from(one), Buffer.from(zeros), Buffer.from(two)]);
      expect((await store.load('b-view-2')).log.map((e) => Buffer.from(e.update))).toEqual([Buffer.from(two)]);
    });

    it('keeps snapshot history and deletes only empty snapshots', async () => {
      const id = 'b-snap';
      const empty = Y.encodeStateAsUpdate(new Y.Doc());
      await store.saveState(id, { expectedVersion: 0, state: empty, hash: 'h1', objectsCount: 0, status: 'empty', logIds: [] });
      const full = update('x');
      await store.saveState(id, { expectedVersion: 1, state: full, hash: 'h2', objectsCount: 1, status: 'small', logIds: [] });
      const rows = await store.listSnapshots(id);
      expect(rows.map((r) => [r.version, r.status, r.blob_size])).toEqual([
        [2, 'small', full.byteLength],
        [1, 'empty', empty.byteLength],
      ]);
      expect(typeof rows[0]!.id).toBe('string');
      expect(new Date(rows[0]!.created_at).toString()).not.toBe('Invalid Date');
      expect(await store.deleteEmptySnapshots(id)).toBe(1);
      expect((await store.listSnapshots(id)).map((r) => r.version)).toEqual([2]);
    });

    it('stores states larger than one BSON document', async () => {
      const id = 'b-big';
      const d = new Y.Doc();
      d.getMap('objects').set('blob', 'x'.repeat(18 * 1024 * 1024));
      const state = Y.encodeStateAsUpdate(d);
      expect(await store.saveState(id, { expectedVersion: 0, state, hash: 'big', objectsCount: 1, status: 'normal', logIds: [] })).toBe(1);
      const back = await store.load(id);
      expect(back.state!.byteLength).toBe(state.byteLength);
      expect(Buffer.from(back.state!).equals(Buffer.from(state))).toBe(true);
    });

    it('deletes a board completely', async () => {
      const id = 'b-del';
      await store.append(id, update('z'));
      await store.saveState(id, { expectedVersion: 0, state: update('z'), hash: 'h', objectsCount: 1, status: 'small', logIds: [] });
      await store.deleteBoard(id);
      expect(await store.load(id)).toEqual({ state: null, version: 0, hash: null, log: [] });
      expect(await store.listSnapshots(id)).toEqual([]);
    });

    it('remembers processed events', async () => {
      expect(await store.isProcessed('c', 'e1')).toBe(false);
      await store.markProcessed('c', 'e1');
      await store.markProcessed('c', 'e1');
      expect(await store.isProcessed('c', 'e1')).toBe(true);
      expect(await store.isProcessed('other', 'e1')).toBe(false);
      expect(await store.ping()).toBe(true);
    });
  });
}

let mongo: ManagedProcess;
let pg: EmbeddedPostgresHandle;
let pool: Pool;
const stores: DocumentStore[] = [];

beforeAll(async () => {
  [mongo, pg] = await Promise.all([startMongo(), startPostgres()]);
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA });
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await pool?.end();
  await Promise.all([mongo?.stop(), pg?.stop()]);
});

contract('MongoDB (FerretDB)', async () => {
  const s = await createMongoStore({ url: mongo.url, dbName: 'contract' });
  stores.push(s);
  return s;
});
contract('MongoDB (FerretDB), appends waiting for the journal', async () => {
  const s = await createMongoStore({ url: mongo.url, dbName: 'contract_fsync', fsync: true });
  stores.push(s);
  return s;
});
contract('Postgres', async () => createPostgresStore(pool));
contract('Postgres, appends waiting for the disk flush', async () => {
  const p = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA });
  stores.push({ close: () => p.end() } as DocumentStore);
  return createPostgresStore(p, { fsync: true });
});

describe('Postgres update log: what an append waits for (UPDATE_LOG_FSYNC)', () => {
  /** WAL flushes made by client backends (not the WAL writer), from PostgreSQL's I/O statistics. */
  async function backendWalSyncs(p: Pool): Promise<number> {
    // A backend publishes its counters when it goes idle; force that for the one session of `p`.
    // It has gone idle (and flushed) before it reads the next statement, so no wait is needed.
    await p.query('SELECT pg_stat_force_next_flush()');
    await p.query('SELECT pg_stat_clear_snapshot()');
    const r = await p.query(`SELECT coalesce(sum(fsyncs), 0)::int AS n FROM pg_stat_io WHERE backend_type = 'client backend' AND object = 'wal'`);
    return r.rows[0].n as number;
  }

  async function syncsFor(fsync: boolean): Promise<{ syncs: number; session: string }> {
    // One connection: the appends and the statistics are the same session's.
    const p = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA, max: 1 });
    try {
      const store = createPostgresStore(p, { fsync });
      await store.init();
      const before = await backendWalSyncs(p);
      for (let i = 0; i < 20; i++) await store.appendMany([{ boardId: 'b-sync', update: update(`u${i}`) }]);
      const syncs = (await backendWalSyncs(p)) - before;
      const session = (await p.query('SHOW synchronous_commit')).rows[0].synchronous_commit as string;
      expect((await store.load('b-sync')).log).toHaveLength(20);
      return { syncs, session };
    } finally {
      await p.end();
    }
  }

  it('by default waits for the commit, not for the disk flush, and leaves the session synchronous', async () => {
    const { syncs, session } = await syncsFor(false);
    expect(syncs).toBeLessThan(5);
    // Compaction, snapshots and images on the same connection still wait for the flush.
    expect(session).toBe('on');
  });

  it('with UPDATE_LOG_FSYNC waits for the disk flush of every append', async () => {
    const { syncs } = await syncsFor(true);
    expect(syncs).toBeGreaterThanOrEqual(20);
  });
});
