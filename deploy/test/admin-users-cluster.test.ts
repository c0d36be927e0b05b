import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@wb/db';
import { startCluster, type ClusterHandle } from '../local/cluster.ts';
import { call, eventually, yClient } from './clients.ts';

/**
 * Issue 34 item 1 on the real stack (every service its own process, nats-server, the gateway in
 * front): the admin user list's plan comes from billing's events after an administrator grants a
 * subscription, its board count from real boards; deleting a user ends their sessions and sockets
 * at once and their boards go.
 */
const ADMIN = { email: 'cluster-admin@example.com', password: 'Admin-Pass-123' };
let cluster: ClusterHandle;
let admin: { token: string; id: string };
const clients: Array<ReturnType<typeof yClient>> = [];

beforeAll(async () => {
  cluster = await startCluster({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  const login = await call(cluster.url, 'POST', '/api/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  admin = { token: login.body.accessToken, id: login.body.user.id };
}, 240_000);
afterAll(async () => {
  for (const c of clients) c.provider.destroy();
  await cluster?.stop();
});

async function user(email: string, name: string) {
  const reg = await call(cluster.url, 'POST', '/api/auth/register', { body: { email, password: 'Secret-123', name } });
  expect(reg.status).toBe(201);
  return { email, id: reg.body.user.id as string, token: reg.body.accessToken as string };
}
const board = async (token: string, title = 'Доска') => {
  const r = await call(cluster.url, 'POST', '/api/boards', { token, body: { title, folder_id: null } });
  expect(r.status).toBe(201);
  return r.body.board.id as string;
};
const listed = async (search: string) => {
  const r = await call(cluster.url, 'GET', `/api/admin/users?search=${encodeURIComponent(search)}`, { token: admin.token });
  expect(r.status).toBe(200);
  return r.body.users as Array<{ id: string; plan_name: string; boards_count: number; name: string; email: string }>;
};

describe('the admin user list on the local cluster', () => {
  it('visitors get 401 and users 403 from every /api/admin/users call', async () => {
    const u = await user('c-admin-nobody@example.com', 'Обычный');
    for (const [method, path, body] of [
      ['GET', '/api/admin/users', undefined],
      ['PUT', `/api/admin/users/${u.id}`, { name: 'Чужой', email: u.email }],
      ['DELETE', `/api/admin/users/${admin.id}`, undefined],
    ] as const) {
      expect((await call(cluster.url, method, path, { body })).status).toBe(401);
      const r = await call(cluster.url, method, path, { token: u.token, body });
      expect([r.status, r.body.code]).toEqual([403, 'ADMIN_REQUIRED']);
    }
  });

  it("shows the plan an administrator grants through billing, and the user's real boards", async () => {
    const u = await user('c-admin-plan@example.com', 'Подписчица');
    expect(await listed('c-admin-plan')).toEqual([expect.objectContaining({ id: u.id, plan_name: 'Free', boards_count: 0 })]);
    const boards = [await board(u.token), await board(u.token), await board(u.token)];
    expect((await call(cluster.url, 'DELETE', `/api/boards/${boards[0]}`, { token: u.token })).status).toBeLessThan(300);

    const plans = (await call(cluster.url, 'GET', '/api/admin/plans', { token: admin.token })).body.plans as Array<{ id: string; name: string }>;
    const pro = plans.find((p) => p.name === 'Pro')!;
    const sub = await call(cluster.url, 'POST', '/api/admin/subscriptions', { token: admin.token, body: { user_id: u.id, plan_id: pro.id, days: 30 } });
    expect(sub.status).toBe(201);
    await eventually(async () => expect((await listed('c-admin-plan'))[0]).toMatchObject({ plan_name: 'Pro', boards_count: 2 }), 20_000);

    // Revoked: Free again.
    expect((await call(cluster.url, 'DELETE', `/api/admin/subscriptions/${sub.body.subscription.id}`, { token: admin.token })).status).toBe(200);
    await eventually(async () => expect((await listed('c-admin-plan'))[0].plan_name).toBe('Free'), 20_000);
  });

  it('edits a name and e-mail; an address in use is 409', async () => {
    const u = await user('c-admin-edit@example.com', 'Было');
    const r = await call(cluster.url, 'PUT', `/api/admin/users/${u.id}`, { token: admin.token, body: { name: 'Стало', email: 'c-admin-edited@example.com' } });
    expect([r.status, r.body.user.name, r.body.user.email]).toEqual([200, 'Стало', 'c-admin-edited@example.com']);
    expect((await call(cluster.url, 'GET', '/api/auth/verify', { token: u.token })).body.user).toMatchObject({ name: 'Стало', email: 'c-admin-edited@example.com' });
    const taken = await call(cluster.url, 'PUT', `/api/admin/users/${u.id}`, { token: admin.token, body: { name: 'Стало', email: ADMIN.email.toUpperCase() } });
    expect([taken.status, taken.body.code, taken.body.error]).toEqual([409, 'EMAIL_ALREADY_EXISTS', 'Пользователь с таким email уже существует']);
  });

  it("deleting another user: their token is refused at once, their socket closes 4401, their boards go; one's own account and an unknown one are refused", async () => {
    const u = await user('c-admin-doomed@example.com', 'Удаляемый');
    const laptop = (await call(cluster.url, 'POST', '/api/auth/login', { body: { email: u.email, password: 'Secret-123' } })).body.accessToken as string;
    const boardId = await board(u.token);
    const socket = yClient(`${cluster.url.replace('http', 'ws')}/yjs`, boardId, laptop);
    clients.push(socket);
    await eventually(() => socket.provider.synced, 20_000, 'synced');
    await eventually(async () => expect((await listed('c-admin-doomed'))[0]?.boards_count).toBe(1), 20_000);

    const r = await call(cluster.url, 'DELETE', `/api/admin/users/${u.id}`, { token: admin.token });
    expect(r.status).toBe(204);
    for (const t of [u.token, laptop]) {
      expect((await call(cluster.url, 'GET', '/api/auth/verify', { token: t })).status).toBe(401);
      expect((await call(cluster.url, 'GET', `/api/boards/${boardId}`, { token: t })).status).toBe(401);
    }
    await eventually(() => socket.closes.includes(4401), 10_000, 'the open socket closed with 4401');
    expect(await listed('c-admin-doomed')).toEqual([]);
    const boards = createPool({ url: cluster.databaseUrl, schema: 'boards', max: 1 });
    try {
      await eventually(async () => (await boards.query('SELECT 1 FROM boards WHERE owner_id = $1', [u.id])).rowCount === 0, 20_000, 'boards deleted');
    } finally {
      await boards.end();
    }

    const self = await call(cluster.url, 'DELETE', `/api/admin/users/${admin.id}`, { token: admin.token });
    expect([self.status, self.body.code]).toEqual([409, 'CANNOT_DELETE_SELF']);
    expect((await call(cluster.url, 'DELETE', `/api/admin/users/${u.id}`, { token: admin.token })).status).toBe(404);
    expect((await call(cluster.url, 'GET', '/api/auth/verify', { token: admin.token })).status).toBe(200);
  });
});
