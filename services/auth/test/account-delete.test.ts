import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '@wb/testkit';
import { call, outboxEvents, register, snapshot, startAuth, type TestAuth } from './helpers.ts';

/** Issue 32 item 13: DELETE /api/auth/account with the password ends the account and its sessions. */
let pg: Awaited<ReturnType<typeof startPostgres>>;
let auth: TestAuth;
beforeAll(async () => {
  pg = await startPostgres();
  auth = await startAuth({ serverUrl: pg.url });
});
afterAll(async () => {
  await auth?.close();
  await pg?.stop();
});

const del = (token: string | undefined, body?: unknown) => call(auth.base, 'DELETE', '/api/auth/account', { token, body });

describe('DELETE /api/auth/account', () => {
  it('with the password: every session of the user ends at once, the user is gone and user.deleted is announced', async () => {
    const u = await register(auth.base);
    const other = (await call(auth.base, 'POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).body;
    const r = await del(u.accessToken, { password: u.password });
    expect(r.status).toBe(204);
    for (const t of [u.accessToken, other.accessToken]) {
      expect((await call(auth.base, 'GET', '/api/auth/verify', { token: t })).status).toBe(401);
    }
    expect((await call(auth.base, 'POST', '/api/auth/refresh', { body: { refreshToken: other.refreshToken } })).body.code).toBe('REFRESH_TOKEN_INVALID');
    const login = await call(auth.base, 'POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
    expect(login.body.code).toBe('INVALID_CREDENTIALS');
    expect((await outboxEvents(auth.pool, 'user.deleted')).map((e) => e.data?.userId ?? e.userId)).toContain(u.user.id);
    // The address is free again.
    expect((await call(auth.base, 'POST', '/api/auth/register', { body: { email: u.email, password: 'Secret123!', name: 'Снова' } })).status).toBe(201);
  });

  it('a wrong password is INVALID_CURRENT_PASSWORD and changes nothing', async () => {
    const u = await register(auth.base);
    const before = await snapshot(auth.pool);
    const r = await del(u.accessToken, { password: 'not-my-password' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'Неверный текущий пароль', code: 'INVALID_CURRENT_PASSWORD' });
    expect(await snapshot(auth.pool)).toEqual(before);
    expect((await call(auth.base, 'GET', '/api/auth/verify', { token: u.accessToken })).status).toBe(200);
  });

  it('guessing the password with a signed-in token is throttled like a sign-in: after 5 misses even the right one waits', async () => {
    const u = await register(auth.base);
    for (let i = 0; i < 6; i++) expect((await del(u.accessToken, { password: `guess-${i}-Secret` })).body.code).toBe('INVALID_CURRENT_PASSWORD');
    for (const attempt of [
      () => del(u.accessToken, { password: u.password }),
      () => call(auth.base, 'PATCH', '/api/auth/change-password', { token: u.accessToken, body: { currentPassword: u.password, newPassword: 'Another-Secret-9' } }),
    ]) {
      const r = await attempt();
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ code: 'RATE_LIMITED', error: 'Слишком много запросов. Попробуйте позже' });
    }
    const raw = await fetch(`${auth.base}/api/auth/account`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${u.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: u.password }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Nothing was deleted or changed: the account still signs in with its password.
    expect((await call(auth.base, 'POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).status).toBe(200);
  });

  it('bad input is a 4xx with a Russian text, never a 500; without a token 401', async () => {
    const u = await register(auth.base);
    const before = await snapshot(auth.pool);
    for (const body of [undefined, {}, { password: '' }, { password: 42 }, { password: 'a\u0000b' }, { password: '\ud800' }, { password: 'x'.repeat(1_000_000) }, []]) {
      const r = await del(u.accessToken, body);
      expect(r.status, JSON.stringify(body)?.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.error).toMatch(/[а-яА-Я]/);
    }
    const raw = await call(auth.base, 'DELETE', '/api/auth/account', { token: u.accessToken, raw: '{"password":' });
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe('INVALID_JSON');
    expect((await del(undefined, { password: u.password })).status).toBe(401);
    expect(await snapshot(auth.pool)).toEqual(before);
  });
});
