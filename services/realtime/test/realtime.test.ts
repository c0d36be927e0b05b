import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import { addObject, getObjects, readBoard } from '@wb/board-model';
import { startMongo, startPostgres, type ManagedProcess } from '@wb/testkit';
import type { EmbeddedPostgresHandle } from '@wb/db';
import { createMongoStore } from '../src/store/mongo.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { CloseCode } from '../src/domain/close-codes.ts';
import { MessageType, encodeCustom, encodeUpdate } from '../src/domain/protocol.ts';
import * as decoding from 'lib0/decoding';
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { eventually, nextCloseCode, provider, rawSocket, startPlatform, startRealtime, sticky, synced, type Platform, type RunningRealtime } from './helpers.ts';

let mongo: ManagedProcess;
let pg: EmbeddedPostgresHandle;
let platform: Platform;
let store: DocumentStore;
let rt: RunningRealtime;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  [mongo, pg] = await Promise.all([startMongo(), startPostgres()]);
  platform = await startPlatform(pg.url);
  store = await createMongoStore({ url: mongo.url, dbName: 'rt_single' });
  rt = await startRealtime({ platform, store, limits: { maxMessageBytes: 64 * 1024, maxDocBytes: 256 * 1024, maxConnectionsPerBoard: 5, maxAnonymousPerBoard: 3, ownerReserve: 2 } });
});

afterAll(async () => {
  for (const c of cleanup) await c();
  await rt?.stop();
  await store?.close();
  await platform?.stop();
  await Promise.all([mongo?.stop(), pg?.stop()]);
});

function track<T extends { destroy(): void }>(p: T): T {
  cleanup.push(() => p.destroy());
  return p;
}

/** What a fresh load from the store gives: the persisted truth. */
async function storedBoard(boardId: string) {
  const s = await store.load(boardId);
  const d = new Y.Doc();
  if (s.state) Y.applyUpdate(d, s.state);
  for (const e of s.log) Y.applyUpdate(d, e.update);
  return readBoard(d);
}

/** Reads the next custom (type 100) answer from a raw socket. */
function customAnswers(messages: Buffer[]): any[] {
  return messages
    .map((m) => {
      const d = decoding.createDecoder(new Uint8Array(m));
      return decoding.readVarUint(d) === MessageType.CUSTOM ? JSON.parse(decoding.readVarString(d)) : null;
    })
    .filter(Boolean);
}

describe('y-websocket protocol with the stock provider', () => {
  it('two editors converge, and the accepted state is persisted within the flush window', async () => {
    const owner = await platform.user('Владелец');
    const { id, links } = await platform.board(owner, ['editor']);
    const a = track(provider(rt.wsUrl, id, owner.token));
    const b = track(provider(rt.wsUrl, id, links.editor!));
    await Promise.all([synced(a), synced(b)]);

    addObject(a.doc, sticky('s1', 'от A'));
    addObject(b.doc, sticky('s2', 'от B'));
    await eventually(() => {
      expect(readBoard(a.doc).objects.map((o) => o.id).sort()).toEqual(['s1', 's2']);
      expect(readBoard(b.doc).objects.map((o) => o.id).sort()).toEqual(['s1', 's2']);
    });
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id).sort()).toEqual(['s1', 's2']));
  });

  it('relays awareness (user, cursor) and removes it when the connection drops', async () => {
    const owner = await platform.user('Ольга');
    const { id, links } = await platform.board(owner, ['viewer']);
    const a = track(provider(rt.wsUrl, id, owner.token));
    const b = track(provider(rt.wsUrl, id, links.viewer!));
    await Promise.all([synced(a), synced(b)]);
    a.awareness.setLocalState({ user: { id: owner.id, name: 'Ольга', color: '#f00' }, cursor: { x: 10, y: 20 }, selection: ['s1'] });
    await eventually(() => expect(b.awareness.getStates().get(a.awareness.clientID)?.cursor).toEqual({ x: 10, y: 20 }));
    b.awareness.setLocalState({ user: { id: 'anon', name: 'Гость', color: '#0f0' }, cursor: { x: 1, y: 2 } });
    await eventually(() => expect(a.awareness.getStates().get(b.awareness.clientID)?.cursor).toEqual({ x: 1, y: 2 }));
    // A dropped socket (no goodbye message) still disappears for the others.
    (b.ws as unknown as { terminate(): void }).terminate?.();
    b.shouldConnect = false;
    await eventually(() => expect(a.awareness.getStates().has(b.awareness.clientID)).toBe(false));
  });

  it('a lone client hears its own presence back, so the provider’s 30-s silence watchdog never drops it', async () => {
    const owner = await platform.user('Один');
    const { id } = await platform.board(owner);
    const raw = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    cleanup.push(() => raw.ws.close());
    await raw.opened;
    // The server's sync step 1 and 2 arrive first.
    await eventually(() => expect(raw.messages.length).toBeGreaterThanOrEqual(1));
    const doc = new Y.Doc();
    const presence = new Awareness(doc);
    presence.setLocalState({ cursor: { x: 1, y: 2 } });
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, MessageType.AWARENESS);
    encoding.writeVarUint8Array(e, encodeAwarenessUpdate(presence, [doc.clientID]));
    raw.ws.send(encoding.toUint8Array(e));
    const heard = () =>
      raw.messages.some((m) => {
        const d = decoding.createDecoder(new Uint8Array(m));
        if (decoding.readVarUint(d) !== MessageType.AWARENESS) return false;
        const u = decoding.createDecoder(decoding.readVarUint8Array(d));
        const n = decoding.readVarUint(u);
        for (let i = 0; i < n; i++) {
          if (decoding.readVarUint(u) === doc.clientID) return true;
          decoding.readVarUint(u);
          decoding.readVarString(u);
        }
        return false;
      });
    await eventually(() => expect(heard()).toBe(true));
    presence.destroy();
  });

  it('the first client of a board just loaded from the store gets it once, by sync, not again as an update', async () => {
    const owner = await platform.user('Первый');
    const { id } = await platform.board(owner);
    const seed = new Y.Doc();
    for (let i = 0; i < 40; i++) addObject(seed, sticky(`l${i}`, `загружено ${i}`));
    await store.append(id, Y.encodeStateAsUpdate(seed));
    expect(rt.service.server.rooms.has(id)).toBe(false);
    const raw = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    cleanup.push(() => raw.ws.close());
    await raw.opened;
    const message = (type: number, sub: number | null, payload: Uint8Array) => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, type);
      if (sub !== null) encoding.writeVarUint(e, sub);
      encoding.writeVarUint8Array(e, payload);
      return encoding.toUint8Array(e);
    };
    // Sync step 1 with an empty state vector, sent before admission ends (as the provider does).
    raw.ws.send(message(MessageType.SYNC, 0, Y.encodeStateVector(new Y.Doc())));
    const kinds = () =>
      raw.messages.map((m) => {
        const d = decoding.createDecoder(new Uint8Array(m));
        const type = decoding.readVarUint(d);
        return type === MessageType.SYNC ? `sync-${decoding.readVarUint(d)}:${m.byteLength}` : `type-${type}`;
      });
    await eventually(() => expect(kinds().some((k) => k.startsWith('sync-1:'))).toBe(true));
    const board = Number(kinds().find((k) => k.startsWith('sync-1:'))!.split(':')[1]);
    expect(board).toBeGreaterThan(1000);
    // Whatever the load queued went out before this answer: the socket is read in order.
    raw.ws.send(new Uint8Array([MessageType.QUERY_AWARENESS]));
    await eventually(() => expect(kinds()).toContain('type-1'));
    expect(kinds().filter((k) => k.startsWith('sync-2:'))).toEqual([]);
  });
});

describe('roles enforced on the server', () => {
  it("a viewer's edit is neither applied nor relayed, while its reaction is", async () => {
    const owner = await platform.user('Пётр');
    const { id, links } = await platform.board(owner, ['viewer']);
    const ownerP = track(provider(rt.wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('n1'));
    const viewer = track(provider(rt.wsUrl, id, links.viewer!, new Y.Doc(), { anon: 'viewer-device-1' }));
    await synced(viewer);
    await eventually(() => expect(getObjects(viewer.doc).has('n1')).toBe(true));

    addObject(viewer.doc, sticky('hack'));
    // Sentinel on the same socket, after the refused update: the viewer's cursor (awareness is
    // allowed). The server handles a socket's messages in order, so once the owner sees the cursor
    // the edit has been handled, and refused.
    viewer.awareness.setLocalState({ user: { id: 'anon', name: 'Гость', color: '#0f0' }, cursor: { x: 7, y: 7 } });
    await eventually(() => expect(ownerP.awareness.getStates().get(viewer.awareness.clientID)?.cursor).toEqual({ x: 7, y: 7 }));
    expect(getObjects(ownerP.doc).has('hack')).toBe(false);
    expect((await storedBoard(id)).objects.map((o) => o.id)).toEqual(['n1']);

    // The reaction message, as the SPA sends it (see README): type 100 + JSON.
    const raw = rawSocket(`${rt.wsUrl}/${id}?token=${links.viewer}&anon=viewer-device-1`);
    await raw.opened;
    raw.ws.send(encodeCustom({ type: 'reaction', objectId: 'n1', emoji: '👍', requestId: 7 }));
    await eventually(() => expect(customAnswers(raw.messages)).toEqual([{ type: 'reaction-result', requestId: 7, ok: true, added: true }]));
    await eventually(() => {
      const n1 = readBoard(ownerP.doc).objects.find((o) => o.id === 'n1') as any;
      expect(n1.reactions.map((r: any) => [r.emoji, r.userName])).toEqual([['👍', 'Гость']]);
    });
    raw.ws.close();

    // Over HTTP too, with the share token; the same anonymous id toggles it off again.
    const off = await platform.api('POST', '/yjs/reactions', {
      base: rt.httpBase,
      headers: { 'x-share-token': links.viewer!, 'x-anon-id': 'viewer-device-1' },
      body: { boardId: id, objectId: 'n1', emoji: '👍' },
    });
    expect(off).toMatchObject({ status: 200, body: { added: false } });
    await eventually(async () => expect(((await storedBoard(id)).objects[0] as any).reactions).toEqual([]));
    expect(getObjects(viewer.doc).has('hack')).toBe(true); // only in the viewer's own copy
  });

  it("counts a reaction's bytes in the board's size once (MAX_DOC_BYTES is checked against it)", async () => {
    const owner = await platform.user('Соня');
    const { id } = await platform.board(owner, []);
    const ownerP = track(provider(rt.wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('s1'));
    const room = rt.service.server.rooms.get(id)!;
    await eventually(() => expect(room.doc.getMap('objects').has('s1')).toBe(true));
    await rt.service.server.settled(room);
    // Every change of the server's copy, as Yjs encodes it: what the size should grow by.
    let grown = 0;
    const count = (u: Uint8Array) => (grown += u.byteLength);
    room.doc.on('update', count);
    const before = room.size;
    const raw = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    await raw.opened;
    for (let i = 0; i < 10; i++) raw.ws.send(encodeCustom({ type: 'reaction', objectId: 's1', emoji: '👍', requestId: i }));
    await eventually(() => expect(customAnswers(raw.messages)).toHaveLength(10));
    raw.ws.close();
    room.doc.off('update', count);
    expect(grown).toBeGreaterThan(0);
    expect(room.size - before).toBe(grown);
  });

  it('a guest cannot react (socket or HTTP)', async () => {
    const owner = await platform.user('Гоша');
    const { id, links } = await platform.board(owner, ['guest']);
    const ownerP = track(provider(rt.wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('g1'));
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id)).toEqual(['g1']));

    const raw = rawSocket(`${rt.wsUrl}/${id}?token=${links.guest}`);
    await raw.opened;
    raw.ws.send(encodeCustom({ type: 'reaction', objectId: 'g1', emoji: '❤️' }));
    await eventually(() => expect(customAnswers(raw.messages)[0]).toMatchObject({ ok: false, code: 'REACTIONS_NOT_ALLOWED' }));
    raw.ws.close();
    const http = await platform.api('POST', '/yjs/reactions', {
      base: rt.httpBase,
      headers: { 'x-share-token': links.guest! },
      body: { boardId: id, objectId: 'g1', emoji: '❤️' },
    });
    expect(http).toMatchObject({ status: 403, body: { code: 'REACTIONS_NOT_ALLOWED' } });
    expect(((await storedBoard(id)).objects[0] as any).reactions).toEqual([]);
  });

  it('rotating a link (boards API → event → realtime) closes connections of the old link only', async () => {
    const owner = await platform.user('Рита');
    const { id, links } = await platform.board(owner, ['viewer', 'editor']);
    const viewer = rawSocket(`${rt.wsUrl}/${id}?token=${links.viewer}`);
    const editor = rawSocket(`${rt.wsUrl}/${id}?token=${links.editor}`);
    const ownerSock = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    await Promise.all([viewer.opened, editor.opened, ownerSock.opened]);
    await eventually(() => expect(rt.service.server.connectionsOf(id)).toHaveLength(3));
    const r = await platform.api('POST', `/api/boards/${id}/multiple-links`, {
      token: owner.token,
      body: { enabledRoles: ['viewer', 'editor'], rotate: true },
    });
    expect(r.status).toBe(200);
    await platform.flushOutbox();
    // rotate renews every enabled role's token
    expect(await viewer.closed).toEqual({ code: CloseCode.ACCESS_REVOKED, reason: 'access revoked' });
    expect((await editor.closed).code).toBe(CloseCode.ACCESS_REVOKED);
    expect(ownerSock.ws.readyState).toBe(ownerSock.ws.OPEN);
    ownerSock.ws.close();
    // The old link no longer connects at all.
    expect((await rawSocket(`${rt.wsUrl}/${id}?token=${links.viewer}`).closed).code).toBe(CloseCode.FORBIDDEN);
  });

  it('refuses with distinct close codes', async () => {
    const owner = await platform.user('Зоя');
    const other = await platform.user('Чужой');
    const { id, links } = await platform.board(owner, ['viewer']);
    const code = async (url: string) => (await rawSocket(url).closed).code;
    expect(await code(`${rt.wsUrl}/${id}`)).toBe(CloseCode.UNAUTHORIZED);
    expect(await code(`${rt.wsUrl}/${id}?token=a.b.c`)).toBe(CloseCode.UNAUTHORIZED);
    expect(await code(`${rt.wsUrl}/${id}?token=${other.token}`)).toBe(CloseCode.FORBIDDEN);
    expect(await code(`${rt.wsUrl}/${id}?token=not-a-real-share-token`)).toBe(CloseCode.FORBIDDEN);
    expect(await code(`${rt.wsUrl}/00000000-0000-4000-8000-000000000000?token=${owner.token}`)).toBe(CloseCode.BOARD_NOT_FOUND);

    // Anonymous link visitors fill only their share of the board (3 of 5)...
    const admitted = (n: number) => eventually(() => expect(rt.service.server.connectionsOf(id)).toHaveLength(n));
    const viewerUrl = `${rt.wsUrl}/${id}?token=${links.viewer}`;
    const open = Array.from({ length: 3 }, () => rawSocket(viewerUrl));
    await admitted(3);
    expect(await code(viewerUrl)).toBe(CloseCode.TOO_MANY_CONNECTIONS);
    // ...so signed-in users get the rest, and the owner a reserve above the limit.
    open.push(...Array.from({ length: 2 }, () => rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`)));
    await admitted(5);
    expect(await code(viewerUrl)).toBe(CloseCode.TOO_MANY_CONNECTIONS);
    open.push(...Array.from({ length: 2 }, () => rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`)));
    await admitted(7);
    expect(await code(`${rt.wsUrl}/${id}?token=${owner.token}`)).toBe(CloseCode.TOO_MANY_CONNECTIONS);
    for (const s of open) s.ws.close();
  });

  it('board.deleted closes everyone and deletes the stored document', async () => {
    const owner = await platform.user('Дима');
    const { id } = await platform.board(owner);
    const p = track(provider(rt.wsUrl, id, owner.token));
    await synced(p);
    addObject(p.doc, sticky('d1'));
    await eventually(async () => expect((await storedBoard(id)).objects).toHaveLength(1));
    const closed = nextCloseCode(p);
    expect((await platform.api('DELETE', `/api/boards/${id}`, { token: owner.token })).status).toBe(200);
    await platform.flushOutbox();
    expect(await closed).toBe(CloseCode.BOARD_NOT_FOUND);
    p.shouldConnect = false;
    await eventually(async () => expect(await store.load(id)).toEqual({ state: null, version: 0, hash: null, log: [] }));
  });
});

describe('hostile input', () => {
  it('malformed frames and oversized messages close that connection only; the stored doc stays intact', async () => {
    const owner = await platform.user('Ира');
    const { id } = await platform.board(owner);
    const good = track(provider(rt.wsUrl, id, owner.token));
    await synced(good);
    addObject(good.doc, sticky('k1', 'keep'));
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id)).toEqual(['k1']));

    const garbageUpdate = encodeUpdate(new Uint8Array([1, 200, 1, 7, 99, 1, 2, 3, 255, 255, 255]));
    const badVarint = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const truncated = (() => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint(e, 5000); // announces 5000 bytes, sends 3
      encoding.writeUint8(e, 1);
      return encoding.toUint8Array(e).slice(0, 6);
    })();
    const badAwareness = (() => {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 1);
      encoding.writeVarUint8Array(e, new Uint8Array([1, 5, 1, 3, 0x7b, 0x7b, 0x7b]));
      return encoding.toUint8Array(e);
    })();
    // A structurally valid update taken from another doc, then cut short.
    const cutUpdate = (() => {
      const d = new Y.Doc();
      d.getMap('objects').set('evil', 'x'.repeat(100));
      const u = Y.encodeStateAsUpdate(d);
      return encodeUpdate(u.slice(0, u.length - 20));
    })();
    // New to the board (taken as it is, not diffed), its structs whole and its delete set cut short.
    const cutDeleteSet = (() => {
      const d = new Y.Doc();
      d.getMap('objects').set('a', 1);
      d.getMap('objects').set('a', 2);
      const u = Y.encodeStateAsUpdate(d);
      return encodeUpdate(u.slice(0, u.length - 1));
    })();
    for (const frame of [garbageUpdate, badVarint, truncated, badAwareness, cutUpdate, cutDeleteSet, new Uint8Array([42]), new Uint8Array(0), Buffer.from('hello')]) {
      const s = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
      await s.opened;
      s.ws.send(frame);
      expect((await s.closed).code).toBe(CloseCode.MALFORMED_MESSAGE);
    }
    const big = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    await big.opened;
    big.ws.send(new Uint8Array(65 * 1024));
    expect(await big.closed).toEqual({ code: CloseCode.MESSAGE_TOO_BIG, reason: 'message too big' });

    // A valid update that would grow the document past MAX_DOC_BYTES.
    const huge = rawSocket(`${rt.wsUrl}/${id}?token=${owner.token}`);
    await huge.opened;
    for (let i = 0; i < 6; i++) {
      const d = new Y.Doc();
      d.getMap('objects').set(`big${i}`, 'y'.repeat(50 * 1024));
      huge.ws.send(encodeUpdate(Y.encodeStateAsUpdate(d)));
    }
    expect((await huge.closed).code).toBe(CloseCode.DOCUMENT_TOO_LARGE);

    // The honest client was not disturbed and keeps editing.
    expect(good.wsconnected).toBe(true);
    addObject(good.doc, sticky('k2', 'after'));
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id).sort()).toEqual(['k1', 'k2']));
    const s = await store.load(id);
    const d = new Y.Doc();
    if (s.state) Y.applyUpdate(d, s.state);
    for (const e of s.log) Y.applyUpdate(d, e.update);
    expect(getObjects(d).has('evil')).toBe(false);
  });
});

describe('HTTP calls', () => {
  it('force-save compacts (duplicate when unchanged), snapshots list and cleanup are owner-only', async () => {
    const owner = await platform.user('Вера');
    const { id, links } = await platform.board(owner, ['editor']);
    const base = rt.httpBase;
    const save = (token: string, body: object = { boardId: id }) => platform.api('POST', '/yjs/force-save', { base, token, body });

    expect(await save(owner.token)).toMatchObject({ status: 200, body: { duplicate: false, objects_count: 0 } });
    const p = track(provider(rt.wsUrl, id, owner.token));
    await synced(p);
    addObject(p.doc, sticky('f1'));
    addObject(p.doc, sticky('f2'));
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id).sort()).toEqual(['f1', 'f2']));
    expect(await save(owner.token)).toMatchObject({ status: 200, body: { duplicate: false, objects_count: 2 } });
    expect(await save(owner.token)).toMatchObject({ status: 200, body: { duplicate: true, objects_count: 2 } });
    expect((await save(links.editor!)).status).toBe(401); // a share token is no Bearer access token
    const stranger = await platform.user('Чужой');
    expect(await save(stranger.token)).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED' } });
    expect(await platform.api('POST', '/yjs/force-save', { base, body: { boardId: id } })).toMatchObject({ status: 401, body: { code: 'TOKEN_MISSING' } });
    expect(await save(owner.token, { nope: 1 })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });

    const list = await platform.api('GET', `/api/boards/${id}/debug/snapshots`, { base, token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.snapshots.map((s: any) => [s.version, s.status])).toEqual([
      [2, 'small'], // two stickies: under SMALL_SNAPSHOT_BYTES
      [1, 'empty'],
    ]);
    expect(list.body.stats).toMatchObject({ total: 2, content_count: 1, empty_count: 1 });
    expect(list.body.stats.max_size).toBe(list.body.snapshots[0].blob_size);
    const del = await platform.api('DELETE', `/api/boards/${id}/debug/empty-snapshots`, { base, token: owner.token });
    expect(del).toMatchObject({ status: 200, body: { deleted: 1 } });
    expect(typeof del.body.message).toBe('string');
    expect((await platform.api('GET', `/api/boards/${id}/debug/snapshots`, { base, token: stranger.token })).status).toBe(403);

    // Internal state for export: binary and JSON.
    const bin = await fetch(`${base}/internal/boards/${id}/state`);
    expect(bin.headers.get('content-type')).toContain('application/octet-stream');
    const d = new Y.Doc();
    Y.applyUpdate(d, new Uint8Array(await bin.arrayBuffer()));
    expect(readBoard(d).objects.map((o) => o.id).sort()).toEqual(['f1', 'f2']);
    const json = await platform.api('GET', `/internal/boards/${id}/state?format=json`, { base });
    expect(json.body.objects.map((o: any) => o.id).sort()).toEqual(['f1', 'f2']);
    expect(json.body.arrows).toEqual([]);
  });

  it('force-save with clearData makes connected clients resync from the stored state', async () => {
    const owner = await platform.user('Лев');
    const { id } = await platform.board(owner);
    const p = track(provider(rt.wsUrl, id, owner.token));
    await synced(p);
    addObject(p.doc, sticky('c1'));
    await eventually(async () => expect((await storedBoard(id)).objects.map((o) => o.id)).toEqual(['c1']));
    const closes: number[] = [];
    p.on('connection-close', (e: any) => closes.push(e?.code));
    const r = await platform.api('POST', '/yjs/force-save', { base: rt.httpBase, token: owner.token, body: { boardId: id, clearData: true } });
    expect(r).toMatchObject({ status: 200, body: { objects_count: 1 } });
    await eventually(() => expect(closes).toContain(CloseCode.RESYNC));
    await eventually(() => expect(p.wsconnected && p.synced).toBe(true));
    expect(getObjects(p.doc).has('c1')).toBe(true);
  });

  it('serves /metrics with the realtime series', async () => {
    const text = await (await fetch(`${rt.httpBase}/metrics`)).text();
    for (const name of ['realtime_connections', 'realtime_documents_loaded', 'realtime_updates_in_total', 'realtime_bytes_out_total', 'realtime_persistence_lag_seconds', 'realtime_relay_lag_seconds']) {
      expect(text).toContain(name);
    }
  });
});
