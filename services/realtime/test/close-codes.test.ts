/**
 * The close codes of the README's table that the other files do not reach: 4508 (a reader too far
 * behind), 4502 (the store cannot be read while a board loads), 4500 (boards unreachable) and 4503
 * (shutting down), each as the stock provider meets it, and what the client can do next.
 * Documents live in a PostgreSQL of their own here, so the store can be stopped and started again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { addObject, getObjects } from '@wb/board-model';
import { createPool, freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { startPostgres, tempDir } from '@wb/testkit';
import { createBoardAccessClient } from '../src/access.ts';
import { CloseCode } from '../src/domain/close-codes.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { eventually, provider, rawSocket, startPlatform, startRealtime, sticky, synced, type Platform, type RunningRealtime } from './helpers.ts';

let platformPg: EmbeddedPostgresHandle;
let storePg: EmbeddedPostgresHandle;
let storeDir: string;
let storePort: number;
let pool: Pool;
let store: DocumentStore;
let platform: Platform;
let rt: RunningRealtime;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  storeDir = `${await tempDir('rt-close-codes')}/data`;
  storePort = await freePort();
  [platformPg, storePg] = await Promise.all([startPostgres(), startEmbeddedPostgres({ dataDir: storeDir, port: storePort })]);
  platform = await startPlatform(platformPg.url);
  pool = createPool({ url: storePg.url, schema: REALTIME_SCHEMA });
  store = createPostgresStore(pool);
  rt = await startRealtime({ platform, store, limits: { maxDocBytes: 64 * 1024 * 1024 } });
}, 60_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await rt?.stop();
  await pool?.end();
  await platform?.stop();
  await Promise.all([platformPg?.stop(), storePg?.stop()]);
});

function track<T extends { destroy(): void }>(p: T): T {
  cleanup.push(() => p.destroy());
  return p;
}

/** Close codes the provider saw, in order. */
function closeCodes(p: ReturnType<typeof provider>): number[] {
  const codes: number[] = [];
  p.on('connection-close', (e: { code: number } | null) => {
    if (e) codes.push(e.code);
  });
  return codes;
}

const ids = (p: ReturnType<typeof provider>) => [...getObjects(p.doc).keys()].sort();

describe('close codes', () => {
  it('4508: a reader that stops reading while another client writes is cut off, then resyncs on reconnect', async () => {
    const owner = await platform.user('Медленный');
    const { id, links } = await platform.board(owner, ['editor']);
    const slow = track(provider(rt.wsUrl, id, owner.token));
    await synced(slow);
    await eventually(() => expect(rt.service.server.connectionsOf(id)).toHaveLength(1));
    const slowConn = rt.service.server.connectionsOf(id)[0]!;
    const writer = track(provider(rt.wsUrl, id, links.editor!));
    await synced(writer);
    const codes = closeCodes(slow);

    // The client stops reading: TCP fills up, then the server's buffer and merged backlog grow.
    const socket = slow.ws as unknown as WebSocket;
    socket.pause();
    const bulk = writer.doc.getMap<string>('bulk');
    const chunk = 'x'.repeat(900 * 1024);
    for (let i = 0; i < 40 && !slowConn.closed; i++) {
      bulk.set(`k${i}`, `${i}:${chunk}`);
      // Each update is durable before it is applied and sent; pace the writer by that.
      await eventually(() => expect(rt.service.server.rooms.get(id)?.doc.getMap('bulk').has(`k${i}`)).toBe(true));
    }
    // 8 MiB of backlog plus what the kernel buffers: well under 40 × 0.9 MiB.
    expect(slowConn.closed).toBe(true);
    expect(writer.wsconnected).toBe(true);

    // Reading again, the client gets what was sent, then the close frame with 4508.
    socket.resume();
    await eventually(() => expect(codes[0]).toBe(CloseCode.TOO_SLOW));
    // 4508 is outside 4400–4499, so the provider reconnects and syncs everything it missed.
    await eventually(() => expect(slow.doc.getMap('bulk').size).toBe(bulk.size), { timeoutMs: 30_000 });
    expect(slow.wsconnected).toBe(true);
    expect(slow.doc.getMap<string>('bulk').get(`k${bulk.size - 1}`)).toBe(bulk.get(`k${bulk.size - 1}`));
  }, 120_000);

  it('4502: a board that cannot be loaded while the store is down is refused; the provider gets in once it is back', async () => {
    const owner = await platform.user('Терпеливый');
    const { id } = await platform.board(owner);
    const first = provider(rt.wsUrl, id, owner.token);
    await synced(first);
    addObject(first.doc, sticky('stored'));
    await eventually(async () => expect((await store.load(id)).log.length).toBeGreaterThan(0));
    first.destroy();
    // The last client left: the board leaves memory, so the next one must read the store.
    await eventually(() => expect(rt.service.server.rooms.has(id)).toBe(false));

    await storePg.stop();
    const p = track(provider(rt.wsUrl, id, owner.token));
    const codes = closeCodes(p);
    await eventually(() => expect(codes).toContain(CloseCode.STORE_UNAVAILABLE), { timeoutMs: 30_000 });
    expect(p.synced).toBe(false);
    expect(codes.every((c) => c === CloseCode.STORE_UNAVAILABLE)).toBe(true);

    storePg = await startEmbeddedPostgres({ dataDir: storeDir, port: storePort });
    // The provider kept retrying (4502 is outside 4400–4499) and now loads the stored board.
    await synced(p, 30_000);
    expect(ids(p)).toEqual(['stored']);
  }, 120_000);

  it('4500: boards unreachable during admission; the socket is refused, not admitted without a role', async () => {
    const owner = await platform.user('Одинокий');
    const { id } = await platform.board(owner);
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const lonely = await startRealtime({ platform, store, transport: createInProcessTransport(), boards: createBoardAccessClient(nobody, 2_000) });
    cleanup.push(() => lonely.stop());
    const s = rawSocket(`${lonely.wsUrl}/${id}?token=${owner.token}`);
    expect((await s.closed).code).toBe(CloseCode.INTERNAL_ERROR);
    expect(lonely.service.server.connectionsOf(id)).toHaveLength(0);
  });

  it('4503: stopping the service closes every socket with 4503 after writing what it accepted', async () => {
    const owner = await platform.user('Последний');
    const { id } = await platform.board(owner);
    const leaving = await startRealtime({ platform, store, transport: createInProcessTransport() });
    const p = track(provider(leaving.wsUrl, id, owner.token));
    const codes = closeCodes(p);
    await synced(p);
    addObject(p.doc, sticky('kept'));
    await eventually(() => expect(leaving.service.server.rooms.get(id) && getObjects(leaving.service.server.rooms.get(id)!.doc).has('kept')).toBe(true));
    p.shouldConnect = false;
    await leaving.stop();
    await eventually(() => expect(codes).toEqual([CloseCode.SHUTTING_DOWN]));
    const stored = await store.load(id);
    expect(stored.state).not.toBeNull();
  });
});
