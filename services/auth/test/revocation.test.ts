import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTokenVerifier } from '@wb/service-kit';
import { eventually } from '@wb/testkit';
import { call, register, type TestAuth, useTwoReplicas } from './helpers.ts';

/**
 * Logout and password changes end sessions at once: their access tokens stop working on the replica
 * that revoked them immediately, and on every other verifier within one poll of auth's list.
 */
const replicas = useTwoReplicas();
let a: TestAuth;
let b: TestAuth;
beforeAll(() => void ({ a, b } = replicas));

const verify = (base: string, token: string) => call(base, 'GET', '/api/auth/verify', { token });
const login = async (base: string, email: string, password: string) => (await call(base, 'POST', '/api/auth/login', { body: { email, password } })).body;

describe('session revocation', () => {
  it('logout ends the access token of that session at once, on every replica; other sessions live on', async () => {
    const u = await register(a.base);
    const other = await login(a.base, u.email, u.password);
    // Both replicas have seen (and cached) the token before the logout.
    expect((await verify(a.base, u.accessToken)).status).toBe(200);
    expect((await verify(b.base, u.accessToken)).status).toBe(200);
    expect((await call(a.base, 'POST', '/api/auth/logout', { body: { refreshToken: u.refreshToken } })).status).toBe(204);
    // The replica that revoked it: the very next request.
    expect((await verify(a.base, u.accessToken)).body.code).toBe('TOKEN_INVALID');
    // Another replica: on its next poll (every 1 s). The bound only tells a poll from none at all
    // (the token would live its 15 minutes): far above the interval, so a loaded machine cannot fail it.
    const t = Date.now();
    await eventually(async () => (await verify(b.base, u.accessToken)).status === 401, { timeoutMs: 30_000 });
    expect(Date.now() - t).toBeLessThan(30_000);
    expect((await verify(a.base, other.accessToken)).status).toBe(200);
    expect((await verify(b.base, other.accessToken)).status).toBe(200);
  });

  it('logout without a refresh token ends the bearer\'s session', async () => {
    const u = await register(a.base);
    expect((await call(b.base, 'POST', '/api/auth/logout', { token: u.accessToken })).status).toBe(204);
    expect((await verify(b.base, u.accessToken)).status).toBe(401);
  });

  it('a password change ends every other session\'s access token; the changing one stays', async () => {
    const u = await register(a.base);
    const laptop = await login(a.base, u.email, u.password);
    const phone = await login(b.base, u.email, u.password);
    const r = await call(a.base, 'PATCH', '/api/auth/change-password', { token: u.accessToken, body: { currentPassword: u.password, newPassword: 'Brand-new-1' } });
    expect(r.status).toBe(200);
    for (const s of [laptop, phone]) expect((await verify(a.base, s.accessToken)).status).toBe(401);
    await eventually(async () => (await verify(b.base, phone.accessToken)).status === 401 && (await verify(b.base, laptop.accessToken)).status === 401);
    expect((await verify(a.base, u.accessToken)).status).toBe(200);
    expect((await verify(b.base, u.accessToken)).status).toBe(200);
  });

  it('a verifier in another service learns revoked sessions from /internal/sessions/revoked and tells its listeners', async () => {
    const u = await register(a.base);
    const verifier = createTokenVerifier({ jwksUrl: `${a.base}/internal/jwks` });
    const claims = await verifier.verify(u.accessToken);
    expect(claims.sid).toEqual(expect.any(String));
    const heard: string[] = [];
    verifier.revocations!.onRevoked((sids) => heard.push(...sids));
    await call(b.base, 'POST', '/api/auth/logout', { body: { refreshToken: u.refreshToken } });
    await eventually(async () => heard.includes(claims.sid!));
    await expect(verifier.verify(u.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    verifier.revocations!.stop();
    // A verifier started after the logout knows it from its first call.
    const late = createTokenVerifier({ jwksUrl: `${a.base}/internal/jwks` });
    await expect(late.verify(u.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    late.revocations!.stop();
  });

  it('the internal list answers only recent revocations after the cursor', async () => {
    const first = await call(a.base, 'GET', '/internal/sessions/revoked');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ sessions: expect.any(Array), cursor: expect.any(String), keepSeconds: 900 });
    const u = await register(a.base);
    const sid = decodeJwt(u.accessToken).sid;
    await call(a.base, 'POST', '/api/auth/logout', { body: { refreshToken: u.refreshToken } });
    const next = await call(a.base, 'GET', `/internal/sessions/revoked?since=${encodeURIComponent(first.body.cursor)}`);
    expect(next.body.sessions).toContain(sid);
    expect((await call(a.base, 'GET', '/internal/sessions/revoked?since=yesterday')).status).toBe(400);
  });
});
