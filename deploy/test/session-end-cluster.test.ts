import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@wb/db';
import * as Y from 'yjs';
import { pngHeader } from '@wb/testkit';
import { startCluster, type ClusterHandle, type ServiceProcess } from '../local/cluster.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';

/**
 * Issue 32 items 6 and 13 on the real stack: every service its own process, nats-server, two
 * realtime replicas. From the moment the logout / password-change / account-deletion answer is
 * sent, the session's token is refused by every service and replica, a new socket is refused, and
 * the sockets it had open on both replicas close with 4401.
 */
let cluster: ClusterHandle;
let replicas: [ServiceProcess, ServiceProcess];
const clients: Array<ReturnType<typeof yClient>> = [];

beforeAll(async () => {
  cluster = await startCluster({ realtimeReplicas: 2 });
  replicas = cluster.realtimeReplicas as [ServiceProcess, ServiceProcess];
}, 240_000);
afterAll(async () => {
  for (const c of clients) c.provider.destroy();
  await cluster?.stop();
});

const ws = (base: string) => `${base.replace('http', 'ws')}/yjs`;
function open(base: string, boardId: string, token: string) {
  const c = yClient(ws(base), boardId, token);
  clients.push(c);
  return c;
}
const internal = () => ({ 'x-internal-token': cluster.internalToken });
/** The board's objects as a replica holds (or loads) them, from its internal state route. */
async function objectsOn(replica: ServiceProcess, boardId: string): Promise<string[]> {
  const res = await fetch(`${replica.url}/internal/boards/${boardId}/state`, { headers: internal() });
  if (res.status !== 200) throw new Error(`state: HTTP ${res.status}`);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, new Uint8Array(await res.arrayBuffer()));
  return [...doc.getMap('objects').keys()];
}

async function user(email: string, name: string) {
  const reg = await call(cluster.url, 'POST', '/api/auth/register', { body: { email, password: 'Secret-123', name } });
  expect(reg.status).toBe(201);
  return { email, password: 'Secret-123', id: reg.body.user.id as string, token: reg.body.accessToken as string, refresh: reg.body.refreshToken as string };
}
const login = async (email: string) => (await call(cluster.url, 'POST', '/api/auth/login', { body: { email, password: 'Secret-123' } })).body;
const board = async (token: string) => (await call(cluster.url, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id as string;

/** Every place the token is checked: auth, boards, and both realtime replicas' HTTP routes. */
async function statuses(token: string, boardId: string): Promise<number[]> {
  return [
    (await call(cluster.url, 'GET', '/api/auth/verify', { token })).status,
    (await call(cluster.url, 'GET', `/api/boards/${boardId}`, { token })).status,
    ...(await Promise.all(replicas.map(async (r) => (await call(r.url, 'GET', `/api/boards/${boardId}/debug/snapshots`, { token })).status))),
  ];
}

/** A socket opened after the answer never syncs and is closed with 4401, on each replica. */
async function refusedEverywhere(boardId: string, token: string) {
  const fresh = replicas.map((r) => open(r.url, boardId, token));
  await eventually(() => fresh.every((c) => c.closes.includes(4401)), 10_000, 'new sockets refused with 4401');
  for (const c of fresh) {
    expect(c.provider.synced).toBe(false);
    c.provider.destroy();
  }
}

describe('ending sessions on a cluster with two realtime replicas', () => {
  it('logout: the very next call anywhere is 401, a new socket is refused, open sockets on both replicas close 4401', async () => {
    const u = await user('c-logout@example.com', 'Выходящий');
    const other = await login(u.email);
    const boardId = await board(u.token);
    const mine = replicas.map((r) => open(r.url, boardId, u.token));
    const theirs = open(replicas[0].url, boardId, other.accessToken);
    await eventually(() => mine.every((c) => c.provider.synced) && theirs.provider.synced, 20_000, 'synced on both replicas');
    // Every verifier has seen (and cached) the token before.
    expect(await statuses(u.token, boardId)).toEqual([200, 200, 200, 200]);

    expect((await call(cluster.url, 'POST', '/api/auth/logout', { body: { refreshToken: u.refresh } })).status).toBe(204);
    expect(await statuses(u.token, boardId)).toEqual([401, 401, 401, 401]);
    await refusedEverywhere(boardId, u.token);
    await eventually(() => mine.every((c) => c.closes.includes(4401)), 10_000, 'open sockets closed with 4401');
    expect(theirs.closes).toEqual([]);
    expect(await statuses(other.accessToken, boardId)).toEqual([200, 200, 200, 200]);
  });

  it('password change: every other session is refused everywhere at once; the changing one stays', async () => {
    const u = await user('c-change@example.com', 'Меняющий');
    const stolen = await login(u.email);
    const boardId = await board(u.token);
    const thief = replicas.map((r) => open(r.url, boardId, stolen.accessToken));
    const mine = open(replicas[1].url, boardId, u.token);
    await eventually(() => thief.every((c) => c.provider.synced) && mine.provider.synced, 20_000, 'synced');
    expect(await statuses(stolen.accessToken, boardId)).toEqual([200, 200, 200, 200]);

    const r = await call(cluster.url, 'PATCH', '/api/auth/change-password', { token: u.token, body: { currentPassword: u.password, newPassword: 'Another-456' } });
    expect(r.status).toBe(200);
    expect(await statuses(stolen.accessToken, boardId)).toEqual([401, 401, 401, 401]);
    await refusedEverywhere(boardId, stolen.accessToken);
    await eventually(() => thief.every((c) => c.closes.includes(4401)), 10_000, 'the other session\'s sockets closed');
    expect(mine.closes).toEqual([]);
    expect(await statuses(u.token, boardId)).toEqual([200, 200, 200, 200]);
  });

  it('account deletion: tokens stop at once, sockets close; boards, documents, images and the subscription go', async () => {
    const u = await user('c-delete@example.com', 'Удаляемый');
    const laptop = await login(u.email);
    const boardId = await board(u.token);
    const image = await fetch(`${cluster.url}/yjs/images/${boardId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'image/png' },
      body: new Uint8Array(Buffer.concat([pngHeader(16, 16), Buffer.from('delete me')])),
    });
    expect(image.status).toBe(201);
    const { hash } = (await image.json()) as { hash: string };
    const sockets = [open(replicas[0].url, boardId, u.token), open(replicas[1].url, boardId, laptop.accessToken)];
    await eventually(() => sockets.every((c) => c.provider.synced), 20_000, 'synced');
    addSticky(sockets[0]!.doc, 'doomed', 'исчезнет');
    await eventually(async () => (await objectsOn(replicas[1], boardId)).includes('doomed'), 10_000, 'the sticky reached the other replica');

    const wrong = await call(cluster.url, 'DELETE', '/api/auth/account', { token: u.token, body: { password: 'not-mine-1' } });
    expect(wrong.body.code).toBe('INVALID_CURRENT_PASSWORD');
    expect((await call(cluster.url, 'DELETE', '/api/auth/account', { token: u.token, body: { password: u.password } })).status).toBe(204);

    for (const t of [u.token, laptop.accessToken]) expect(await statuses(t, boardId)).toEqual([401, 401, 401, 401]);
    await refusedEverywhere(boardId, laptop.accessToken);
    await eventually(() => sockets.every((c) => c.closes.includes(4401)), 10_000, 'sockets closed with 4401');
    expect((await login(u.email)).code).toBe('INVALID_CREDENTIALS');

    // What each service owns goes through user.deleted → board.deleted.
    const boards = createPool({ url: cluster.databaseUrl, schema: 'boards', max: 1 });
    const billing = createPool({ url: cluster.databaseUrl, schema: 'billing', max: 1 });
    try {
      await eventually(async () => (await boards.query('SELECT 1 FROM boards WHERE owner_id = $1', [u.id])).rowCount === 0, 20_000, 'boards deleted');
      await eventually(async () => (await billing.query('SELECT 1 FROM subscriptions WHERE user_id = $1 UNION ALL SELECT 1 FROM entitlements WHERE user_id = $1', [u.id])).rowCount === 0, 20_000, 'subscription gone');
    } finally {
      await boards.end();
      await billing.end();
    }
    await eventually(async () => (await fetch(`${replicas[0].url}/internal/boards/${boardId}/images/${hash}`, { headers: internal() })).status === 404, 20_000, 'image deleted');
    for (const r of replicas) await eventually(async () => !(await objectsOn(r, boardId)).includes('doomed'), 20_000, 'document deleted');
  });
});
