import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call, eventually, yClient } from './clients.ts';

/**
 * Logout and password change end sessions everywhere: the access token stops opening boards and
 * the session's open board sockets close (4401), long before the token would expire.
 */
let handle: EmbeddedHandle;
const clients: Array<ReturnType<typeof yClient>> = [];
beforeAll(async () => {
  handle = await startEmbedded({ port: 0, dataDir: await tempDir('revocation'), logLevel: 'silent', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
});
afterAll(async () => {
  for (const c of clients) c.provider.destroy();
  await handle?.stop();
});

const login = async (email: string, password: string) => (await call(handle.url, 'POST', '/api/auth/login', { body: { email, password } })).body;

function open(boardId: string, token: string) {
  const c = yClient(handle.url.replace('http', 'ws') + '/yjs', boardId, token);
  clients.push(c);
  return c;
}

describe('revoked sessions through the gateway', () => {
  it('logout: the token is refused by boards and the session\'s socket closes; another session keeps both', async () => {
    const email = 'leaver@example.com';
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email, password: 'Secret-123', name: 'Уходящий' } });
    const token = reg.body.accessToken;
    const other = await login(email, 'Secret-123');
    const boardId = (await call(handle.url, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id;
    const mine = open(boardId, token);
    const theirs = open(boardId, other.accessToken);
    await eventually(() => mine.provider.synced && theirs.provider.synced, 10_000, 'both synced');
    expect((await call(handle.url, 'GET', `/api/boards/${boardId}`, { token })).status).toBe(200);

    expect((await call(handle.url, 'POST', '/api/auth/logout', { body: { refreshToken: reg.body.refreshToken } })).status).toBe(204);
    // From the answer on (issue 32 item 6): every service refuses at once, a new socket is refused,
    // and the open one receives 4401 (the close frame left before the answer; it only has to arrive).
    expect((await call(handle.url, 'GET', `/api/boards/${boardId}`, { token })).status).toBe(401);
    expect((await call(handle.url, 'GET', '/api/auth/verify', { token })).status).toBe(401);
    const again = open(boardId, token);
    await eventually(() => again.closes.includes(4401), 5_000, 'a new socket with the old token is refused');
    expect(again.provider.synced).toBe(false);
    await eventually(() => mine.closes.includes(4401), 5_000, 'the logged-out socket closed with 4401');
    expect(theirs.closes).toEqual([]);
    expect((await call(handle.url, 'GET', `/api/boards/${boardId}`, { token: other.accessToken })).status).toBe(200);
  });

  it('password change: every other session loses its token and sockets; the changing one keeps them', async () => {
    const email = 'changer@example.com';
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email, password: 'Secret-123', name: 'Меняющий' } });
    const token = reg.body.accessToken;
    const stolen = await login(email, 'Secret-123');
    const boardId = (await call(handle.url, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id;
    const mine = open(boardId, token);
    const thief = open(boardId, stolen.accessToken);
    await eventually(() => mine.provider.synced && thief.provider.synced, 10_000, 'both synced');
    const r = await call(handle.url, 'PATCH', '/api/auth/change-password', { token, body: { currentPassword: 'Secret-123', newPassword: 'Another-456' } });
    expect(r.status).toBe(200);
    expect((await call(handle.url, 'GET', '/api/boards', { token: stolen.accessToken })).status).toBe(401);
    await eventually(() => thief.closes.includes(4401), 5_000, 'the other session\'s socket closed');
    expect(mine.closes).toEqual([]);
    expect((await call(handle.url, 'GET', '/api/boards', { token })).status).toBe(200);
  });
});
