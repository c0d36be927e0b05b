import { spawn, type ChildProcess } from 'node:child_process';
import * as encoding from 'lib0/encoding';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addObject, readBoard } from '@wb/board-model';
import { freePort, type EmbeddedPostgresHandle } from '@wb/db';
import { repoRoot, startMongo, startNats, startPostgres, waitForPort, type ManagedProcess } from '@wb/testkit';
import { createNatsTransport } from '@wb/events';
import { createMongoStore } from '../src/store/mongo.ts';
import { Persistence } from '../src/extensions/persistence.ts';
import { Room } from '../src/core/room.ts';
import { CloseCode } from '../src/domain/close-codes.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { eventually, nextCloseCode, provider, silent, startPlatform, startRealtime, sticky, synced, type Platform, type RunningRealtime } from './helpers.ts';

let mongo: ManagedProcess;
let nats: ManagedProcess;
let pg: EmbeddedPostgresHandle;
let platform: Platform;
const stores: DocumentStore[] = [];
const stops: Array<() => unknown> = [];

beforeAll(async () => {
  [mongo, nats, pg] = await Promise.all([startMongo(), startNats(), startPostgres()]);
  // Events over JetStream as in a cluster: each replica has its own connection to the shared durable.
  const transport = await createNatsTransport({ servers: nats.url, name: 'platform' });
  stops.push(() => transport.close());
  platform = await startPlatform(pg.url, transport);
});

afterAll(async () => {
  for (const s of stops.reverse()) await s();
  for (const s of stores) await s.close();
  await platform?.stop();
  await Promise.all([mongo?.stop(), nats?.stop(), pg?.stop()]);
});

async function replica(id: string, limits = {}): Promise<RunningRealtime> {
  const store = await createMongoStore({ url: mongo.url, dbName: 'rt_replicas' });
  stores.push(store);
  const transport = await createNatsTransport({ servers: nats.url, name: `realtime-${id}` });
  const r = await startRealtime({ platform, store, transport, natsUrl: nats.url, replicaId: id, limits });
  stops.push(() => transport.close(), () => r.stop());
  return r;
}

const ids = (doc: Y.Doc) => readBoard(doc).objects.map((o) => o.id).sort();

describe('several replicas over NATS', () => {
  it('clients on two replicas converge (document and awareness); a third replica started later gets the unflushed state', async () => {
    // A flush window longer than the test: replica C can only learn the content from its peers.
    const slow = { flushIntervalMs: 60_000 };
    const [a, b] = [await replica('A', slow), await replica('B', slow)];
    const owner = await platform.user('Мария');
    const { id, links } = await platform.board(owner, ['editor', 'viewer']);

    const pa = provider(a.wsUrl, id, owner.token);
    const pb = provider(b.wsUrl, id, links.editor!);
    stops.push(() => pa.destroy(), () => pb.destroy());
    await Promise.all([synced(pa), synced(pb)]);
    addObject(pa.doc, sticky('a1'));
    addObject(pb.doc, sticky('b1'));
    await eventually(() => {
      expect(ids(pa.doc)).toEqual(['a1', 'b1']);
      expect(ids(pb.doc)).toEqual(['a1', 'b1']);
    });

    pa.awareness.setLocalState({ user: { id: owner.id, name: 'Мария', color: '#123456' }, cursor: { x: 5, y: 6 } });
    await eventually(() => expect(pb.awareness.getStates().get(pa.awareness.clientID)?.cursor).toEqual({ x: 5, y: 6 }));

    const c = await replica('C');
    const pc = provider(c.wsUrl, id, links.viewer!);
    stops.push(() => pc.destroy());
    await synced(pc);
    await eventually(() => expect(ids(pc.doc)).toEqual(['a1', 'b1']));
    // Awareness of users on other replicas arrives with the sync answer.
    await eventually(() => expect(pc.awareness.getStates().get(pa.awareness.clientID)?.cursor).toEqual({ x: 5, y: 6 }));

    // Leaving removes the cursor on every replica.
    pa.destroy();
    await eventually(() => {
      expect(pb.awareness.getStates().has(pa.awareness.clientID)).toBe(false);
      expect(pc.awareness.getStates().has(pa.awareness.clientID)).toBe(false);
    });
    const metrics = await (await fetch(`${b.httpBase}/metrics`)).text();
    expect(metrics).toMatch(/realtime_relay_lag_seconds_count\{[^}]*\} [1-9]/);
  });

  it('kill -9 of a replica after its flush window loses no update; a client that kept its copy restores newer ones', async () => {
    const owner = await platform.user('Костя');
    const { id } = await platform.board(owner);
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/realtime/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        MONGO_URL: mongo.url,
        MONGO_DB: 'rt_replicas',
        NATS_URL: nats.url,
        BOARDS_INTERNAL_URL: platform.boardsBase,
        AUTH_JWKS_URL: platform.jwksUrl,
        INTERNAL_TOKEN: platform.internalToken,
        FLUSH_INTERVAL_MS: '100',
        REPLICA_ID: 'doomed',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.once('exit', r));
    stops.push(() => child.kill('SIGKILL'));
    await waitForPort(port, 90_000);

    const doc = new Y.Doc();
    const p = provider(`ws://127.0.0.1:${port}/yjs`, id, owner.token, doc);
    stops.push(() => p.destroy());
    await synced(p);
    for (let i = 0; i < 20; i++) addObject(doc, sticky(`k${i}`));
    const storedIds = async () => {
      const s = await stores[0]!.load(id);
      const d = new Y.Doc();
      if (s.state) Y.applyUpdate(d, s.state);
      for (const e of s.log) Y.applyUpdate(d, e.update);
      return ids(d);
    };
    // Durable means in the log, whatever the machine's load (the group commit is milliseconds).
    await eventually(async () => expect(await storedIds()).toHaveLength(20));
    child.kill('SIGKILL');
    await exited;
    p.disconnect();

    // Offline edits the server never saw.
    addObject(doc, sticky('offline'));

    const fresh = await replica('after-crash');
    const observer = provider(fresh.wsUrl, id, owner.token);
    stops.push(() => observer.destroy());
    await synced(observer);
    expect(ids(observer.doc)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`).sort());

    // The client reconnects (to another replica: no sticky routing) and its copy fills the gap.
    const back = provider(fresh.wsUrl, id, owner.token, doc);
    stops.push(() => back.destroy());
    await synced(back);
    await eventually(() => expect(ids(observer.doc)).toContain('offline'));
    await eventually(async () => expect(await storedIds()).toEqual(ids(doc)));
  }, 120_000);
  it('a periodic compaction gives way to a replica that compacted the board since it last looked, and takes over when that one stops', async () => {
    const [a, b] = [await replica('compact-A'), await replica('compact-B')];
    const owner = await platform.user('Вера');
    const { id } = await platform.board(owner);
    const pa = provider(a.wsUrl, id, owner.token);
    const pb = provider(b.wsUrl, id, owner.token);
    stops.push(() => pa.destroy(), () => pb.destroy());
    await Promise.all([synced(pa), synced(pb)]);
    addObject(pa.doc, sticky('a1'));
    addObject(pb.doc, sticky('b1'));
    await eventually(() => expect(ids(pa.doc)).toEqual(['a1', 'b1']));
    await eventually(() => expect(ids(pb.doc)).toEqual(['a1', 'b1']));
    const version = async () => (await stores[0]!.load(id)).version;
    const periodic = (r: RunningRealtime) => r.service.server.withRoom(id, (room) => r.service.persistence.compactUnlessPeerDid(room));

    const first = await a.service.server.withRoom(id, (room) => a.service.persistence.compact(room));
    addObject(pb.doc, sticky('b2'));
    await eventually(() => expect(ids(pa.doc)).toContain('b2'));
    // B finds A's new version: A folded B's log up to then, so B does not write one more state.
    expect(await periodic(b)).toBeNull();
    expect(await version()).toBe(first.version);
    // Nobody compacted since B looked (A stopped compacting, say): B's next turn compacts.
    const taken = await periodic(b);
    expect(taken?.version).toBe(first.version + 1);
    const stored = await stores[0]!.load(id);
    const d = new Y.Doc();
    Y.applyUpdate(d, stored.state!);
    for (const e of stored.log) Y.applyUpdate(d, e.update);
    expect(ids(d)).toEqual(['a1', 'b1', 'b2']);
    // Its own compaction never makes a replica give way to itself.
    addObject(pa.doc, sticky('a2'));
    await eventually(() => expect(ids(pb.doc)).toContain('a2'));
    expect(await periodic(b)).not.toBeNull();
  }, 60_000);
  it('a revoked link and a deleted board close the sockets on both replicas, the one that acts included', async () => {
    const [a, b] = [await replica('ctl-A'), await replica('ctl-B')];
    const owner = await platform.user('Вера');
    const { id, links } = await platform.board(owner, ['editor']);
    // The link's visitors on each replica: replica A is told to revoke; B hears it through the relay.
    const [la, lb] = [provider(a.wsUrl, id, links.editor!), provider(b.wsUrl, id, links.editor!)];
    const [oa, ob] = [provider(a.wsUrl, id, owner.token), provider(b.wsUrl, id, owner.token)];
    stops.push(() => la.destroy(), () => lb.destroy(), () => oa.destroy(), () => ob.destroy());
    await Promise.all([la, lb, oa, ob].map((p) => synced(p)));
    const linkClosed = [nextCloseCode(la), nextCloseCode(lb)];
    la.shouldConnect = lb.shouldConnect = false;
    const r = await fetch(`${a.httpBase}/internal/boards/${id}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokens: [links.editor] }),
    });
    expect(r.status).toBe(200);
    expect(await Promise.all(linkClosed)).toEqual([CloseCode.ACCESS_REVOKED, CloseCode.ACCESS_REVOKED]);

    // board.deleted reaches one replica's consumer; that one closes its own sockets and tells the other.
    const ownerClosed = [nextCloseCode(oa), nextCloseCode(ob)];
    oa.shouldConnect = ob.shouldConnect = false;
    expect((await platform.api('DELETE', `/api/boards/${id}`, { token: owner.token })).status).toBe(200);
    await platform.flushOutbox();
    expect(await Promise.all(ownerClosed)).toEqual([CloseCode.BOARD_NOT_FOUND, CloseCode.BOARD_NOT_FOUND]);
  }, 60_000);

  it('a relayed batch with a malformed update in it still brings the good ones to the clients', async () => {
    const a = await replica('relay-target');
    const owner = await platform.user('Глеб');
    const { id } = await platform.board(owner);
    const pa = provider(a.wsUrl, id, owner.token);
    stops.push(() => pa.destroy());
    await synced(pa);
    // Another "replica" publishing on the relay's subject, framed as the relay frames ([sender, sentAt, update]).
    const nc = await connect({ servers: nats.url });
    stops.push(() => nc.close());
    const frame = (update: Uint8Array) => {
      const e = encoding.createEncoder();
      encoding.writeVarString(e, 'elsewhere');
      encoding.writeFloat64(e, Date.now());
      encoding.writeVarUint8Array(e, update);
      return encoding.toUint8Array(e);
    };
    const updateWith = (objectId: string) => {
      const d = new Y.Doc();
      addObject(d, sticky(objectId));
      return Y.encodeStateAsUpdate(d);
    };
    // Published back to back, so they usually arrive in one read and are applied as one batch.
    for (const u of [updateWith('r1'), new Uint8Array([0xff, 0xff, 0xff]), updateWith('r2')]) nc.publish(`rt.board.${id}.u`, frame(u));
    await nc.flush();
    await eventually(() => expect(ids(pa.doc)).toEqual(['r1', 'r2']));
    // The replica still serves the board.
    addObject(pa.doc, sticky('own'));
    const late = provider(a.wsUrl, id, owner.token);
    stops.push(() => late.destroy());
    await synced(late);
    await eventually(() => expect(ids(late.doc)).toEqual(['own', 'r1', 'r2']));
  }, 60_000);
  it('a periodic compaction that loses the race to another replica leaves the board to it instead of compacting again', async () => {
    const real = await createMongoStore({ url: mongo.url, dbName: 'rt_replicas' });
    stores.push(real);
    // The other replica's compaction lands between this one's read and its write.
    const store: DocumentStore = {
      ...real,
      saveState: async (boardId, s) => {
        await real.saveState(boardId, s);
        return real.saveState(boardId, s);
      },
    };
    const persistence = new Persistence({ store, logger: silent, compactIntervalMs: 60_000 });
    const boardId = `race-${Date.now()}`;
    const room = new Room(boardId);
    await persistence.onLoadDocument(room);
    const d = new Y.Doc();
    addObject(d, sticky('x'));
    const u = Y.encodeStateAsUpdate(d);
    await real.append(boardId, u);
    Y.applyUpdate(room.doc, u);
    persistence.onChange(room, u, 'client');

    expect(await persistence.compactUnlessPeerDid(room)).toBeNull();
    expect(await real.storedVersion(boardId)).toBe(1);
    expect(persistence.isDirty(room)).toBe(true);
    room.destroy();
  });

  it('periodic compactions run one after another, never piling up behind a slow store', async () => {
    const real = await createMongoStore({ url: mongo.url, dbName: 'rt_replicas' });
    stores.push(real);
    let running = 0;
    let most = 0;
    let saved = 0;
    const store: DocumentStore = {
      ...real,
      saveState: async (boardId, s) => {
        most = Math.max(most, ++running);
        try {
          // Slower than a tick (100 ms here): the next ticks come while this one still waits.
          // wait-ok: a slow store is the behaviour under test
          await new Promise((r) => setTimeout(r, 300));
          return await real.saveState(boardId, s);
        } finally {
          running--;
          saved++;
        }
      },
    };
    const persistence = new Persistence({ store, logger: silent, compactIntervalMs: 200 });
    const rooms: Room[] = [];
    for (let i = 0; i < 6; i++) {
      const room = new Room(`paced-${Date.now()}-${i}`);
      await persistence.onLoadDocument(room);
      room.loaded = true;
      addObject(room.doc, sticky(`s${i}`));
      persistence.onChange(room, new Uint8Array(), 'client');
      rooms.push(room);
    }
    persistence.start(() => rooms);
    try {
      await eventually(() => expect(saved).toBeGreaterThanOrEqual(4), 10_000);
      expect(most).toBe(1);
    } finally {
      await persistence.onDestroy();
      for (const r of rooms) r.destroy();
    }
  }, 20_000);
});
