import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startPostgres } from '@wb/testkit';
import { call, startAuth, type TestAuth } from './helpers.ts';

// verify/profile answer from a short-lived cache; a replica's own writes are visible at once,
// another replica's within the TTL.
describe('user cache behind verify and profile', () => {
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  let a: TestAuth;
  let b: TestAuth;

  beforeAll(async () => {
    pg = await startPostgres();
    a = await startAuth({ serverUrl: pg.url, env: { USER_CACHE_TTL_MS: '300' } });
    b = await startAuth({ dbUrl: a.dbUrl, env: { USER_CACHE_TTL_MS: '300' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await pg?.stop();
  });

  it('shows a write at once on the replica that made it and within the TTL on another', async () => {
    const reg = await call(a.base, 'POST', '/api/auth/register', { body: { email: 'cache@example.com', password: 'Secret-123', name: 'Вера' } });
    const token = reg.body.accessToken;
    expect((await call(a.base, 'GET', '/api/auth/verify', { token })).body.user.name).toBe('Вера');
    expect((await call(b.base, 'GET', '/api/auth/verify', { token })).body.user.name).toBe('Вера');

    const patched = await call(a.base, 'PATCH', '/api/auth/profile', { token, body: { name: 'Вероника' } });
    expect(patched.body.user.name).toBe('Вероника');
    expect((await call(a.base, 'GET', '/api/auth/verify', { token })).body.user.name).toBe('Вероника');
    expect((await call(a.base, 'GET', '/api/auth/profile', { token })).body.user.name).toBe('Вероника');

    // b's cached copy (300 ms here) expires and it reads the write.
    await eventually(async () => expect((await call(b.base, 'GET', '/api/auth/verify', { token })).body.user.name).toBe('Вероника'));

    const settings = await call(b.base, 'PATCH', '/api/auth/settings', { token, body: { settings: { theme: 'dark' } } });
    expect(settings.status).toBe(200);
    expect((await call(b.base, 'GET', '/api/auth/verify', { token })).body.user.settings).toEqual({ theme: 'dark' });
  });
});
