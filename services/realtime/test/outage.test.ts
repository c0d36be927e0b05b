/**
 * Faults: the document store (FerretDB, or PostgreSQL as in the embedded mode) or NATS stopped for 10 s. Edits are held, never shown
 * before they are durable, never lost, and everything recovers without clients reconnecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addObject, getObjects } from '@wb/board-model';
import { createPool, freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@wb/db';
import { eventually, startMongo, startNats, startPostgres, tempDir, type ManagedProcess } from '@wb/testkit';
import { createInProcessTransport } from '@wb/events';
import { createMongoStore } from '../src/store/mongo.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { JournaledStore } from '../src/store/journal.ts';
import { readdirSync } from 'node:fs';
import { provider, silent, startPlatform, startRealtime, sticky, synced, type Platform } from './helpers.ts';

const OUTAGE_MS = 10_000;

/**
 * The rest of an outage that began at `since`: its length is the scenario under test (the store or
 * the broker stays away this long while clients keep editing), not a wait for a result.
 */
async function outageLasts(since: number): Promise<void> {
  const rest = OUTAGE_MS - (Date.now() - since);
  // wait-ok: the outage's length is the behaviour under test
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
}

/**
 * `a`'s cursor, sent after its edits on the same socket, has reached `b` (awareness is not held
 * back by the store): the server has handled the edits, so what `b` lacks now was held, not late.
 */
async function handledAfter(a: { awareness: { setLocalState(s: object): void; clientID: number } }, b: { awareness: { getStates(): Map<number, any> } }) {
  const mark = Math.random();
  a.awareness.setLocalState({ user: { id: 'a', name: 'A', color: '#f00' }, cursor: { x: mark, y: 0 } });
  await eventually(() => expect(b.awareness.getStates().get(a.awareness.clientID)?.cursor?.x).toBe(mark));
}

let pg: EmbeddedPostgresHandle;
let platform: Platform;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  pg = await startPostgres();
  platform = await startPlatform(pg.url);
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await platform?.stop();
  await pg?.stop();
});

const ids = (p: { doc: Parameters<typeof getObjects>[0] }) => [...getObjects(p.doc).keys()].sort();

/** How often `p` connected again from now on (a held or refused edit must not cost a reconnect). */
function countReconnects(p: { on(event: 'status', fn: (e: { status: string }) => void): void }): () => number {
  let n = 0;
  p.on('status', (e) => e.status === 'connected' && n++);
  return () => n;
}

/** An embedded PostgreSQL of the test's own (not the run's shared one), to stop and start again. */
async function stoppablePostgres(name: string) {
  const port = await freePort();
  const dataDir = `${await tempDir(name)}/data`;
  let server = await startEmbeddedPostgres({ dataDir, port });
  cleanup.push(() => server.stop());
  const pool = createPool({ url: server.url, schema: REALTIME_SCHEMA, max: 4 });
  cleanup.push(() => pool.end());
  return {
    pool,
    stop: () => server.stop(),
    async start() {
      server = await startEmbeddedPostgres({ dataDir, port });
    },
  };
}

/** The sticky ids a fresh load of the board from `store` holds. */
async function storedIds(store: DocumentStore, boardId: string): Promise<string[]> {
  const stored = await store.load(boardId);
  const doc = new Y.Doc();
  if (stored.state) Y.applyUpdate(doc, stored.state);
  for (const e of stored.log) Y.applyUpdate(doc, e.update);
  return [...getObjects(doc).keys()].sort();
}

/** `count` stickies `during-NN` added by `a`, one every 100 ms; returns their ids. */
async function typeDuring(a: { doc: Parameters<typeof addObject>[0] }, count: number): Promise<string[]> {
  const during: string[] = [];
  for (let i = 0; i < count; i++) {
    during.push(`during-${String(i).padStart(2, '0')}`);
    addObject(a.doc, sticky(during.at(-1)!));
    // wait-ok: the typing pace is the workload (edits spread over the outage)
    await new Promise((r) => setTimeout(r, 100));
  }
  return during;
}

/**
 * One replica on `store` (with an event transport of its own, so the tests' replicas never share a
 * consumer), an owner's board, and two synced editors: the owner (a) and an editor link (b).
 */
async function editorsOn(store: DocumentStore) {
  const rt = await startRealtime({ platform, store, transport: createInProcessTransport() });
  cleanup.push(() => rt.stop());
  const owner = await platform.user('Владелец');
  const { id, links } = await platform.board(owner, ['editor']);
  const a = provider(rt.wsUrl, id, owner.token);
  const b = provider(rt.wsUrl, id, links.editor!);
  cleanup.push(() => a.destroy(), () => b.destroy());
  await Promise.all([synced(a), synced(b)]);
  return { rt, owner, id, a, b };
}

describe('store outage', () => {
  it('edits made while the store is down are held (not shown), then written and shown; nothing is lost', async () => {
    const port = await freePort();
    const dataDir = await tempDir('ferret-outage');
    let mongo: ManagedProcess = await startMongo({ port, dataDir });
    cleanup.push(() => mongo.stop());
    const store: DocumentStore = await createMongoStore({ url: mongo.url, dbName: 'rt_outage' });
    cleanup.push(() => store.close());
    const { rt, id, a, b } = await editorsOn(store);
    addObject(a.doc, sticky('before'));
    await eventually(() => expect(ids(b)).toEqual(['before']));

    await mongo.stop();
    const down = Date.now();
    addObject(a.doc, sticky('during-1'));
    addObject(a.doc, sticky('during-2'));
    await handledAfter(a, b);
    // Not durable, so not visible.
    await eventually(() => expect(rt.service.server.commits.backlogBytes).toBeGreaterThan(0));
    expect(ids(b)).toEqual(['before']);
    await outageLasts(down);

    mongo = await startMongo({ port, dataDir });
    await eventually(() => expect(ids(b)).toEqual(['before', 'during-1', 'during-2']), { timeoutMs: 30_000 });
    expect(a.wsconnected && b.wsconnected).toBe(true);
    const stored = await store.load(id);
    expect(stored.log.length).toBeGreaterThan(0);
    expect(rt.service.server.commits.backlogBytes).toBe(0);
  }, 90_000);
});

describe('store hang, MongoDB', () => {
  it('a FerretDB whose process is stopped: a read answers 503 within the time limit; edits are held, then shown', async () => {
    const mongo: ManagedProcess = await startMongo();
    cleanup.push(() => mongo.stop());
    const store = await createMongoStore({ url: mongo.url, dbName: 'rt_hang' });
    cleanup.push(() => store.close());
    const { rt, owner, id, a, b } = await editorsOn(store);

    mongo.child.kill('SIGSTOP');
    try {
      addObject(a.doc, sticky('during-hang'));
      const started = Date.now();
      const res = await fetch(`${rt.httpBase}/api/boards/${id}/debug/snapshots`, { headers: { authorization: `Bearer ${owner.token}` } });
      // The socket's 10 s, then the retried read's connection attempt, 5 s (measured 15.2 s), plus a
      // margin for a loaded machine; without the limits this took 70 s (the driver's defaults).
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(ids(b)).toEqual([]);
    } finally {
      mongo.child.kill('SIGCONT');
    }
    await eventually(() => expect(ids(b)).toEqual(['during-hang']), { timeoutMs: 30_000 });
    expect(rt.service.server.commits.backlogBytes).toBe(0);
  }, 90_000);
});

describe('store outage, PostgreSQL', () => {
  it('the update log\'s server stopped for 10 s: edits held, then written and shown, nothing lost, no reconnect', async () => {
    const pg = await stoppablePostgres('pg-outage');
    const store = createPostgresStore(pg.pool);
    await store.init();
    const { rt, id, a, b } = await editorsOn(store);
    const reconnects = countReconnects(b);
    addObject(a.doc, sticky('before'));
    await eventually(() => expect(ids(b)).toEqual(['before']));

    await pg.stop();
    const down = Date.now();
    const during = await typeDuring(a, 20);
    await handledAfter(a, b);
    // Not durable, so not visible; held in the bounded queue, not dropped.
    expect(ids(b)).toEqual(['before']);
    expect(rt.service.server.commits.backlogBytes).toBeGreaterThan(0);
    await outageLasts(down);

    await pg.start();
    const all = ['before', ...during];
    await eventually(() => expect(ids(b)).toEqual(all), { timeoutMs: 30_000 });
    expect(rt.service.server.commits.backlogBytes).toBe(0);
    expect(a.wsconnected && b.wsconnected).toBe(true);
    expect(reconnects()).toBe(0);
    // What b was shown is in the log: a fresh load of the board holds every sticky.
    expect(await storedIds(store, id)).toEqual(all);
  }, 90_000);
});

describe('store outage, PostgreSQL behind the local journal', () => {
  it('edits keep being shown while the journal has room, the rest wait; all reach the store afterwards', async () => {
    const pg = await stoppablePostgres('pg-journal-outage');
    const journalDir = await tempDir('journal-outage');
    // Room for a handful of stickies: the rest of the outage's edits meet the backpressure.
    const store = new JournaledStore({ dir: journalDir, store: createPostgresStore(pg.pool), logger: silent, maxUnshippedBytes: 2048 });
    const { rt, id, a, b } = await editorsOn(store);
    const reconnects = countReconnects(b);
    addObject(a.doc, sticky('before'));
    await eventually(() => expect(ids(b)).toEqual(['before']));

    await pg.stop();
    const down = Date.now();
    const during = await typeDuring(a, 30);
    await handledAfter(a, b);
    // In the journal, so shown; past its limit held in the group commit, not dropped.
    const shownDuring = ids(b).filter((x) => x.startsWith('during-'));
    expect(shownDuring.length).toBeGreaterThan(0);
    expect(shownDuring.length).toBeLessThan(during.length);
    expect(store.unshippedBytes()).toBeGreaterThan(0);
    expect(rt.service.server.commits.backlogBytes).toBeGreaterThan(0);
    await outageLasts(down);

    await pg.start();
    const all = ['before', ...during];
    await eventually(() => expect(ids(b)).toEqual(all), { timeoutMs: 30_000 });
    await eventually(() => expect(store.unshippedBytes()).toBe(0), { timeoutMs: 10_000 });
    expect(rt.service.server.commits.backlogBytes).toBe(0);
    expect(reconnects()).toBe(0);
    expect(await storedIds(createPostgresStore(pg.pool), id)).toEqual(all);
    // Shipped segments are gone; only the one being written (and the owner's pid) remain.
    expect(readdirSync(journalDir).filter((f) => f.endsWith('.log')).length).toBeLessThanOrEqual(1);
  }, 90_000);
});

describe('NATS outage', () => {
  it('each replica keeps serving its own clients and both catch up afterwards', async () => {
    const port = await freePort();
    const storeDir = await tempDir('nats-outage');
    let nats: ManagedProcess = await startNats({ port, storeDir });
    cleanup.push(() => nats.stop());
    const mongo = await startMongo();
    cleanup.push(() => mongo.stop());
    const store = await createMongoStore({ url: mongo.url, dbName: 'rt_nats_outage' });
    cleanup.push(() => store.close());
    // Each replica its own event transport (one durable consumer each); the relay is what is tested.
    const r1 = await startRealtime({ platform, store, natsUrl: nats.url, replicaId: 'r1', transport: createInProcessTransport() });
    const r2 = await startRealtime({ platform, store, natsUrl: nats.url, replicaId: 'r2', transport: createInProcessTransport() });
    cleanup.push(() => r1.stop(), () => r2.stop());

    const owner = await platform.user('Владелец');
    const { id, links } = await platform.board(owner, ['editor']);
    const [a1, b1] = [provider(r1.wsUrl, id, owner.token), provider(r1.wsUrl, id, links.editor!)];
    const [a2, b2] = [provider(r2.wsUrl, id, owner.token), provider(r2.wsUrl, id, links.editor!)];
    const all = [a1, b1, a2, b2];
    cleanup.push(() => all.forEach((p) => p.destroy()));
    await Promise.all(all.map((p) => synced(p)));
    addObject(a1.doc, sticky('x-before'));
    await eventually(() => all.forEach((p) => expect(ids(p)).toEqual(['x-before'])));

    await nats.stop();
    const down = Date.now();
    addObject(a1.doc, sticky('r1-during'));
    addObject(a2.doc, sticky('r2-during'));
    // Each replica serves its own clients on its own.
    await eventually(() => expect(ids(b1)).toContain('r1-during'));
    await eventually(() => expect(ids(b2)).toContain('r2-during'));
    await outageLasts(down);

    nats = await startNats({ port, storeDir });
    await eventually(() => all.forEach((p) => expect(ids(p)).toEqual(['r1-during', 'r2-during', 'x-before'])), { timeoutMs: 30_000 });
  }, 90_000);

  it('a replica that reconnects catches up from the store when the peer that accepted the updates is gone', async () => {
    const port = await freePort();
    const storeDir = await tempDir('nats-outage-gone');
    let nats: ManagedProcess = await startNats({ port, storeDir });
    cleanup.push(() => nats.stop());
    const mongo = await startMongo();
    cleanup.push(() => mongo.stop());
    const store = await createMongoStore({ url: mongo.url, dbName: 'rt_nats_gone' });
    cleanup.push(() => store.close());
    const r1 = await startRealtime({ platform, store, natsUrl: nats.url, replicaId: 'g1', transport: createInProcessTransport() });
    const r2 = await startRealtime({ platform, store, natsUrl: nats.url, replicaId: 'g2', transport: createInProcessTransport() });
    cleanup.push(() => r1.stop(), () => r2.stop());

    const owner = await platform.user('Владелец');
    const { id, links } = await platform.board(owner, ['editor']);
    const a1 = provider(r1.wsUrl, id, owner.token);
    const b2 = provider(r2.wsUrl, id, links.editor!);
    cleanup.push(() => a1.destroy(), () => b2.destroy());
    await Promise.all([synced(a1), synced(b2)]);
    addObject(a1.doc, sticky('x-before'));
    await eventually(() => expect(ids(b2)).toEqual(['x-before']));
    const reconnects = countReconnects(b2);

    await nats.stop();
    addObject(a1.doc, sticky('r1-during'));
    // Durable on r1 (so in the store) but never relayed: NATS is down.
    await eventually(async () => {
      const s = await store.load(id);
      expect(s.log.length + (s.state ? 1 : 0)).toBeGreaterThan(0);
      expect(r1.service.server.commits.backlogBytes).toBe(0);
      const room = r1.service.server.rooms.get(id);
      expect(room && getObjects(room.doc).has('r1-during')).toBe(true);
    });
    // The replica that accepted it goes away from the board: its last client leaves, it unloads.
    a1.destroy();
    await eventually(() => expect(r1.service.server.rooms.has(id)).toBe(false));
    expect(ids(b2)).toEqual(['x-before']);

    nats = await startNats({ port, storeDir });
    // No peer holds the board any more; only the store can tell r2 about the update.
    await eventually(() => expect(ids(b2)).toEqual(['r1-during', 'x-before']), { timeoutMs: 30_000 });
    expect(b2.wsconnected).toBe(true);
    expect(reconnects()).toBe(0);
  }, 90_000);
});
