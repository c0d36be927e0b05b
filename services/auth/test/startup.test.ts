import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader } from 'jose';
import { ConfigError, createTokenVerifier, parseConfig } from '@wb/service-kit';
import { createDatabase, startPostgres } from '@wb/testkit';
import { AuthConfigSchema } from '../src/app.ts';
import { call, outboxEvents, register, startAuth, uniqueEmail, type TestAuth } from './helpers.ts';

let pg: Awaited<ReturnType<typeof startPostgres>>;
const running: TestAuth[] = [];
const start = async (opts: Parameters<typeof startAuth>[0]) => {
  const a = await startAuth(opts);
  running.push(a);
  return a;
};

beforeAll(async () => {
  pg = await startPostgres();
});

afterAll(async () => {
  for (const a of running) await a.close();
  await pg?.stop();
});

describe('signing key shared by replicas', () => {
  it('replicas starting together on a fresh database agree on one key; each verifies the other\'s tokens', async () => {
    const dbUrl = await createDatabase(pg.url);
    const [a, b, c] = await Promise.all([start({ dbUrl }), start({ dbUrl }), start({ dbUrl })]);
    const keys = await Promise.all([a, b, c].map(async (s) => (await call(s.base, 'GET', '/internal/jwks')).body.keys));
    expect(keys[0]).toHaveLength(1);
    expect(keys[1]).toEqual(keys[0]);
    expect(keys[2]).toEqual(keys[0]);
    expect((await a.pool.query('SELECT count(*)::int AS n FROM signing_keys')).rows[0].n).toBe(1);

    const u = await register(a.base);
    expect((await call(b.base, 'GET', '/api/auth/verify', { token: u.accessToken })).status).toBe(200);
    const refreshed = await call(c.base, 'POST', '/api/auth/refresh', { body: { refreshToken: u.refreshToken } });
    expect(refreshed.status).toBe(200);
    // Another service verifying through the JWKS over HTTP, as boards or realtime do.
    const remote = createTokenVerifier({ jwksUrl: `${b.base}/internal/jwks` });
    expect(await remote.verify(refreshed.body.accessToken)).toEqual({ sub: u.user.id, name: u.name, email: u.email, admin: false, sid: expect.any(String) });
    remote.revocations?.stop();

    // A restart keeps the key: tokens issued before it stay valid.
    await a.close();
    running.splice(running.indexOf(a), 1);
    const a2 = await start({ dbUrl });
    expect((await call(a2.base, 'GET', '/api/auth/verify', { token: u.accessToken })).status).toBe(200);
  });

  it('AUTH_PRIVATE_KEY_PEM, when set, is the signing key (kid = JWK thumbprint)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const s = await start({ serverUrl: pg.url, env: { AUTH_PRIVATE_KEY_PEM: pem.replace(/\n/g, '\\n') } });
    const jwk = publicKey.export({ format: 'jwk' });
    const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });
    const jwks = (await call(s.base, 'GET', '/internal/jwks')).body;
    expect(jwks.keys).toEqual([{ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' }]);
    const u = await register(s.base);
    expect(decodeProtectedHeader(u.accessToken).kid).toBe(kid);
    expect((await s.pool.query('SELECT count(*)::int AS n FROM signing_keys')).rows[0].n).toBe(0);
  });

  it('access token TTL comes from the configuration', async () => {
    const s = await start({ serverUrl: pg.url, env: { ACCESS_TOKEN_TTL: '2m', REFRESH_TOKEN_TTL: '1h' } });
    const u = await register(s.base);
    const c = decodeJwt(u.accessToken);
    expect((c.exp as number) - (c.iat as number)).toBe(120);
    const r = await s.pool.query(`SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM refresh_tokens`);
    expect(r.rows[0].ttl).toBe(3600);
  });

  it('REFRESH_REUSE_GRACE is configurable: a second use after it revokes the family', async () => {
    const s = await start({ serverUrl: pg.url, env: { REFRESH_REUSE_GRACE: '1s' } });
    const u = await register(s.base);
    const r1 = await call(s.base, 'POST', '/api/auth/refresh', { body: { refreshToken: u.refreshToken } });
    // The rotation happened over a second ago (moved back instead of waiting it out).
    await s.pool.query(`UPDATE refresh_tokens SET used_at = used_at - interval '1100 milliseconds' WHERE used_at IS NOT NULL`);
    expect((await call(s.base, 'POST', '/api/auth/refresh', { body: { refreshToken: u.refreshToken } })).status).toBe(401);
    expect((await call(s.base, 'POST', '/api/auth/refresh', { body: { refreshToken: r1.body.refreshToken } })).status).toBe(401);
  });
});

describe('admin bootstrap', () => {
  it('creates the administrator once, even with replicas starting together, and repeats harmlessly', async () => {
    const dbUrl = await createDatabase(pg.url);
    const env = { ADMIN_EMAIL: ' Admin@Example.com ', ADMIN_PASSWORD: 'AdminPass123' };
    const [a, b] = await Promise.all([start({ dbUrl, env }), start({ dbUrl, env })]);
    const rows = await a.pool.query('SELECT name, email, is_admin FROM users');
    expect(rows.rows).toEqual([{ name: 'Администратор', email: 'Admin@Example.com', is_admin: true }]);
    expect(await outboxEvents(a.pool, 'user.registered')).toHaveLength(1);

    const login = await call(b.base, 'POST', '/api/auth/login', { body: { email: 'admin@example.com', password: 'AdminPass123' } });
    expect(login.status).toBe(200);
    expect(login.body.user.isAdmin).toBe(true);
    expect(decodeJwt(login.body.accessToken).admin).toBe(true);

    // Same settings again: nothing changes, the admin's session survives.
    const hashBefore = (await a.pool.query('SELECT password_hash FROM users')).rows[0].password_hash;
    await start({ dbUrl, env });
    expect((await a.pool.query('SELECT password_hash FROM users')).rows[0].password_hash).toBe(hashBefore);
    expect((await call(a.base, 'POST', '/api/auth/refresh', { body: { refreshToken: login.body.refreshToken } })).status).toBe(200);

    // A new ADMIN_PASSWORD replaces the old one and ends the old sessions.
    const again = await call(a.base, 'POST', '/api/auth/login', { body: { email: 'admin@example.com', password: 'AdminPass123' } });
    await start({ dbUrl, env: { ...env, ADMIN_PASSWORD: 'NewAdminPass456' } });
    expect((await call(a.base, 'POST', '/api/auth/login', { body: { email: 'admin@example.com', password: 'AdminPass123' } })).status).toBe(401);
    expect((await call(a.base, 'POST', '/api/auth/login', { body: { email: 'admin@example.com', password: 'NewAdminPass456' } })).status).toBe(200);
    expect((await call(a.base, 'POST', '/api/auth/refresh', { body: { refreshToken: again.body.refreshToken } })).status).toBe(401);
    expect((await a.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(1);
  });

  it('promotes an existing user with that address', async () => {
    const dbUrl = await createDatabase(pg.url);
    const plain = await start({ dbUrl });
    const u = await register(plain.base, { email: uniqueEmail('boss') });
    expect(u.user.isAdmin).toBe(false);
    await start({ dbUrl, env: { ADMIN_EMAIL: u.email.toUpperCase(), ADMIN_PASSWORD: u.password } });
    const v = await call(plain.base, 'GET', '/api/auth/verify', { token: u.accessToken });
    expect(v.body.user.isAdmin).toBe(true);
    expect(v.body.user.email).toBe(u.email);
  });

  it('no public call leads to admin', async () => {
    const s = await start({ serverUrl: pg.url });
    const r = await call(s.base, 'POST', '/api/auth/register', {
      body: { email: uniqueEmail(), password: 'Secret123!', name: 'Ева', isAdmin: true, is_admin: true, admin: true, settings: { isAdmin: true } },
    });
    const t = r.body.accessToken;
    for (const [method, path, body] of [
      ['PATCH', '/api/auth/profile', { name: 'Ева', isAdmin: true }],
      ['PATCH', '/api/auth/change-email', { email: uniqueEmail(), currentPassword: 'Secret123!', isAdmin: true }],
      ['PATCH', '/api/auth/settings', { settings: { isAdmin: true, is_admin: true }, isAdmin: true }],
      ['PUT', '/api/auth/user/favorite-emojis', { favorites: ['👍'], isAdmin: true }],
    ] as const) {
      const res = await call(s.base, method, path, { body, token: t });
      expect(res.status).toBeLessThan(300);
    }
    const v = await call(s.base, 'GET', '/api/auth/verify', { token: t });
    expect(v.body.user.isAdmin).toBe(false);
    expect((await s.pool.query('SELECT count(*)::int AS n FROM users WHERE is_admin')).rows[0].n).toBe(0);
  });
});

describe('configuration', () => {
  const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db' };
  it('has the documented defaults', () => {
    const c = parseConfig(AuthConfigSchema, base);
    expect(c).toMatchObject({ PORT: 3001, ACCESS_TOKEN_TTL: 900, REFRESH_TOKEN_TTL: 30 * 86_400, REFRESH_REUSE_GRACE: 10, LOG_LEVEL: 'info' });
    expect(c.NATS_URL).toBeUndefined();
    expect(c.ADMIN_EMAIL).toBeUndefined();
  });
  it('fails fast with the variable named', () => {
    expect(() => parseConfig(AuthConfigSchema, {})).toThrow(/DATABASE_URL/);
    expect(() => parseConfig(AuthConfigSchema, { ...base, ACCESS_TOKEN_TTL: 'soon' })).toThrow(/ACCESS_TOKEN_TTL/);
    expect(() => parseConfig(AuthConfigSchema, { ...base, ADMIN_EMAIL: 'a@b.cd' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => parseConfig(AuthConfigSchema, { ...base, ADMIN_PASSWORD: 'longenough' })).toThrow(/ADMIN_EMAIL/);
    expect(() => parseConfig(AuthConfigSchema, { ...base, ADMIN_EMAIL: 'a@b.cd', ADMIN_PASSWORD: 'short' })).toThrow(ConfigError);
  });
});
