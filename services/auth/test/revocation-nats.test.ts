import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from 'nats';
import { decodeJwt } from 'jose';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, parseConfig, type RunningServer } from '@wb/service-kit';
import { natsRevocationList, REVOCATION_STREAM } from '@wb/service-kit/run';
import { createDatabase, startNats, startPostgres, type ManagedProcess } from '@wb/testkit';
import { AuthConfigSchema, createAuthService } from '../src/app.ts';
import { call, register } from './helpers.ts';

/**
 * Issue 32 item 6: with NATS, a logout or password change is answered only once every verifier
 * (auth's other replicas, every other service's process) holds the revocation, so the very next
 * call anywhere is refused: no poll interval in between.
 */
let pg: Awaited<ReturnType<typeof startPostgres>>;
let nats: ManagedProcess;
const conns: NatsConnection[] = [];
const pools: Pool[] = [];
const stops: Array<() => Promise<unknown> | unknown> = [];
let a: string;
let b: string;
const REVOCATION_WAIT_MS = 30_000;

async function natsConn(name: string): Promise<NatsConnection> {
  const nc = await connect({ servers: nats.url, name, noEcho: true });
  conns.push(nc);
  return nc;
}

async function authReplica(dbUrl: string, name: string): Promise<string> {
  const pool = createPool({ url: dbUrl, schema: 'auth', max: 10 });
  pools.push(pool);
  // The longest wait for a verifier that does not acknowledge, at its maximum: a logout held up by
  // one would take 30 s, far from anything a loaded machine makes of one that is not.
  const config = parseConfig(AuthConfigSchema, { DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', REVOCATION_WAIT_MS: String(REVOCATION_WAIT_MS) });
  const service = await createAuthService({
    pool,
    transport: createInProcessTransport(),
    logger: createLogger(name, 'silent'),
    config,
    nats: await natsConn(name),
  });
  await service.start();
  const server: RunningServer = await listen(service.app, 0, '127.0.0.1');
  stops.push(() => server.close(), () => service.stop());
  return `http://127.0.0.1:${server.port}`;
}

/** Another service's verifier as runService builds it: the NATS feed (and auth's HTTP list as a backup). */
async function remoteVerifier(name: string) {
  const nc = await natsConn(name);
  const revocations = natsRevocationList(async () => nc);
  const verifier = createTokenVerifier({ jwksUrl: `${a}/internal/jwks` }, { revocations });
  stops.push(() => revocations.stop());
  return { verifier, nc };
}

beforeAll(async () => {
  [pg, nats] = await Promise.all([startPostgres(), startNats()]);
  const dbUrl = await createDatabase(pg.url);
  a = await authReplica(dbUrl, 'auth-a');
  b = await authReplica(dbUrl, 'auth-b');
});
afterAll(async () => {
  for (const s of stops.reverse()) await s();
  for (const c of conns) await c.close().catch(() => {});
  for (const p of pools) await p.end();
  await Promise.all([nats?.stop(), pg?.stop()]);
});

const verify = (base: string, token: string) => call(base, 'GET', '/api/auth/verify', { token });
const login = async (base: string, email: string, password: string) => (await call(base, 'POST', '/api/auth/login', { body: { email, password } })).body;

describe('revocation over NATS: refused everywhere from the moment the answer is sent', () => {
  it('logout on one replica: the other replica and another service refuse the token on their very next call', async () => {
    const { verifier } = await remoteVerifier('boards-like');
    const u = await register(a);
    const other = await login(a, u.email, u.password);
    const sid = decodeJwt(u.accessToken).sid as string;
    // Everyone has verified (and cached) the token before the logout.
    expect((await verify(b, u.accessToken)).status).toBe(200);
    await expect(verifier.verify(u.accessToken)).resolves.toMatchObject({ sid });
    const heard: string[] = [];
    verifier.revocations!.onRevoked((sids) => heard.push(...sids));

    expect((await call(a, 'POST', '/api/auth/logout', { body: { refreshToken: u.refreshToken } })).status).toBe(204);
    // No waiting: the answer came after every verifier had acknowledged.
    expect(heard).toContain(sid);
    await expect(verifier.verify(u.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await verify(b, u.accessToken)).body.code).toBe('TOKEN_INVALID');
    expect((await verify(a, u.accessToken)).body.code).toBe('TOKEN_INVALID');
    // The session next to it lives on.
    expect((await verify(b, other.accessToken)).status).toBe(200);
    await expect(verifier.verify(other.accessToken)).resolves.toMatchObject({ sub: u.user.id });
  });

  it('a password change on one replica ends every other session everywhere at once; the changing one stays', async () => {
    const { verifier } = await remoteVerifier('realtime-like');
    const u = await register(a);
    const phone = await login(b, u.email, u.password);
    for (const t of [u.accessToken, phone.accessToken]) await verifier.verify(t);
    const r = await call(b, 'PATCH', '/api/auth/change-password', { token: u.accessToken, body: { currentPassword: u.password, newPassword: 'Brand-new-1' } });
    expect(r.status).toBe(200);
    await expect(verifier.verify(phone.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await verify(a, phone.accessToken)).status).toBe(401);
    await expect(verifier.verify(u.accessToken)).resolves.toMatchObject({ sub: u.user.id });
    expect((await verify(a, u.accessToken)).status).toBe(200);
  });

  it('a verifier started after the logout knows it before its first answer; a closed one does not hold logouts up', async () => {
    const u = await register(a);
    const gone = await remoteVerifier('gone');
    await gone.verifier.verify(u.accessToken);
    // Its process ends: the consumer loses its subscriber and auth stops waiting for it.
    await gone.nc.close();
    const t = performance.now();
    expect((await call(b, 'POST', '/api/auth/logout', { token: u.accessToken })).status).toBe(204);
    // Not held up: well under the 30 s a wait for the closed verifier would take (how fast a logout
    // answers is the auth bench's figure, not this test's).
    expect(performance.now() - t).toBeLessThan(REVOCATION_WAIT_MS / 2);
    const late = await remoteVerifier('late');
    await expect(late.verifier.verify(u.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    // The stream keeps revocations somewhat longer than an access token lives (15 min + margin).
    const jsm = await (await natsConn('inspect')).jetstreamManager();
    const info = await jsm.streams.info(REVOCATION_STREAM);
    expect(info.config.max_age).toBeGreaterThanOrEqual(900 * 1e9);
  });

  it('a burst of concurrent logouts: each token is refused by the other verifier right after its own answer', async () => {
    const { verifier } = await remoteVerifier('burst');
    const u = await register(a);
    const sessions = [];
    for (let i = 0; i < 12; i++) sessions.push(await login(i % 2 ? a : b, u.email, u.password));
    for (const s of sessions) await verifier.verify(s.accessToken);
    await Promise.all(
      sessions.map(async (s, i) => {
        expect((await call(i % 2 ? b : a, 'POST', '/api/auth/logout', { body: { refreshToken: s.refreshToken } })).status).toBe(204);
        await expect(verifier.verify(s.accessToken)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
        expect((await verify(i % 2 ? a : b, s.accessToken)).status).toBe(401);
      }),
    );
  });

  it('NATS out of reach at the first verification: "try again" (503), not a verdict on the token', async () => {
    const u = await register(a);
    const gone = await startNats();
    const nc = await connect({ servers: gone.url, name: 'cut-off', maxReconnectAttempts: -1 });
    conns.push(nc);
    await gone.kill();
    const revocations = natsRevocationList(async () => nc, { startTimeoutMs: 500 });
    stops.push(() => revocations.stop());
    const verifier = createTokenVerifier({ jwksUrl: `${a}/internal/jwks` }, { revocations });
    await expect(verifier.verify(u.accessToken)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
