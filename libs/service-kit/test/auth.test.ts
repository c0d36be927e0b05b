import http from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import express from 'express';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AppError,
  createLogger,
  createServiceApp,
  createTokenVerifier,
  listen,
  requireAdmin,
  requireAuth,
  optionalAuth,
  currentUserId,
  optionalUserId,
  type RunningServer,
  type TokenVerifier,
} from '../src/index.ts';

const KID = 'key-1';
const user = { sub: randomUUID(), name: 'Анна', email: 'anna@example.com', admin: false };

let privateKey: CryptoKey;
let publicJwk: JWK;
let otherPrivate: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
  otherPrivate = (await generateKeyPair('ES256')).privateKey;
});

afterEach(() => {
  vi.useRealTimers();
});

function sign(
  claims: Record<string, unknown> = user,
  opts: { key?: CryptoKey; aud?: string; iss?: string; exp?: string | number; kid?: string } = {},
) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? KID })
    .setIssuedAt()
    .setIssuer(opts.iss ?? 'whiteboard-auth')
    .setAudience(opts.aud ?? 'whiteboard')
    .setExpirationTime(opts.exp ?? '15m')
    .sign(opts.key ?? privateKey);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

async function codeOf(verifier: TokenVerifier, token: string): Promise<string> {
  try {
    await verifier.verify(token);
    return 'ACCEPTED';
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe((err as AppError).code === 'SERVICE_UNAVAILABLE' ? 503 : 401);
    return (err as AppError).code;
  }
}

describe('createTokenVerifier with in-process keys', () => {
  const verifier = () => createTokenVerifier({ jwks: { keys: [publicJwk] } });

  it('accepts a valid ES256 token and returns exactly the access claims', async () => {
    expect(await verifier().verify(await sign())).toEqual(user);
  });

  it('rejects an HS256 token, even one keyed with the public key material', async () => {
    const header = b64({ alg: 'HS256', typ: 'JWT', kid: KID });
    const payload = b64({ ...user, iss: 'whiteboard-auth', aud: 'whiteboard', exp: now() + 600 });
    const sig = createHmac('sha256', JSON.stringify(publicJwk))
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(await codeOf(verifier(), `${header}.${payload}.${sig}`)).toBe('TOKEN_INVALID');
  });

  it('rejects an unsigned alg=none token', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...user, iss: 'whiteboard-auth', aud: 'whiteboard', exp: now() + 600 })}.`;
    expect(await codeOf(verifier(), token)).toBe('TOKEN_INVALID');
  });

  it('rejects a wrong audience or issuer', async () => {
    expect(await codeOf(verifier(), await sign(user, { aud: 'someone-else' }))).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), await sign(user, { iss: 'evil-auth' }))).toBe('TOKEN_INVALID');
  });

  it('says TOKEN_EXPIRED for an expired token', async () => {
    expect(await codeOf(verifier(), await sign(user, { exp: now() - 60 }))).toBe('TOKEN_EXPIRED');
  });

  it('says TOKEN_EXPIRED once a token it verified earlier runs out', async () => {
    const v = verifier();
    const token = await sign(user, { exp: now() + 60 });
    expect(await v.verify(token)).toEqual(user);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await codeOf(v, token)).toBe('TOKEN_EXPIRED');
  });

  it('rejects a tampered payload, a foreign key, an unknown kid and garbage', async () => {
    const [h, , s] = (await sign()).split('.');
    const forged = `${h}.${b64({ ...user, admin: true, iss: 'whiteboard-auth', aud: 'whiteboard', exp: now() + 600 })}.${s}`;
    expect(await codeOf(verifier(), forged)).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), await sign(user, { key: otherPrivate }))).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), await sign(user, { kid: 'unknown' }))).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), 'not.a.jwt')).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), '')).toBe('TOKEN_INVALID');
  });

  it('rejects a validly signed token whose claims do not have the access-token shape', async () => {
    expect(
      await codeOf(verifier(), await sign({ sub: 'not-a-uuid', name: 'x', email: 'x', admin: false })),
    ).toBe('TOKEN_INVALID');
    expect(await codeOf(verifier(), await sign({ sub: user.sub }))).toBe('TOKEN_INVALID');
  });
});

describe('createTokenVerifier with a remote JWKS over HTTP', () => {
  let jwksServer: http.Server;
  let jwksUrl: string;
  let hits = 0;
  let keys: JWK[] = [];

  beforeAll(async () => {
    keys = [publicJwk];
    jwksServer = http.createServer((req, res) => {
      if (req.url !== '/internal/jwks') {
        res.writeHead(404).end();
        return;
      }
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/internal/jwks`;
  });

  afterAll(async () => {
    jwksServer.closeAllConnections();
    await new Promise((r) => jwksServer.close(r));
  });

  it('fetches the keys once and verifies many tokens with them', async () => {
    const v = createTokenVerifier({ jwksUrl });
    expect(await v.verify(await sign())).toEqual(user);
    expect(await v.verify(await sign({ ...user, admin: true }))).toEqual({ ...user, admin: true });
    expect(hits).toBe(1);
    expect(await codeOf(v, await sign(user, { key: otherPrivate }))).toBe('TOKEN_INVALID');
    expect(await codeOf(v, await sign(user, { exp: now() - 5 }))).toBe('TOKEN_EXPIRED');
  });

  it('picks up a rotated key by its new kid', async () => {
    const next = await generateKeyPair('ES256', { extractable: true });
    keys = [publicJwk, { ...(await exportJWK(next.publicKey)), kid: 'key-2', alg: 'ES256', use: 'sig' }];
    const v = createTokenVerifier({ jwksUrl });
    expect(await v.verify(await sign(user, { key: next.privateKey, kid: 'key-2' }))).toEqual(user);
  });

  it('answers SERVICE_UNAVAILABLE (not a 500, and not a 401 that would end a valid session) when the JWKS endpoint is unreachable', async () => {
    const v = createTokenVerifier({ jwksUrl: 'http://127.0.0.1:1/internal/jwks' });
    expect(await codeOf(v, await sign())).toBe('SERVICE_UNAVAILABLE');
  });

  it('answers SERVICE_UNAVAILABLE while the JWKS endpoint fails, then verifies once it answers again', async () => {
    let failing = true;
    const flaky = http.createServer((_req, res) => {
      if (failing) res.writeHead(500).end('down');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    try {
      const v = createTokenVerifier({ jwksUrl: `http://127.0.0.1:${(flaky.address() as { port: number }).port}/internal/jwks` });
      const token = await sign();
      expect(await codeOf(v, token)).toBe('SERVICE_UNAVAILABLE');
      failing = false;
      expect(await v.verify(token)).toEqual(user);
      // With the keys in hand, a foreign signature is still the token's fault.
      expect(await codeOf(v, await sign(user, { key: otherPrivate }))).toBe('TOKEN_INVALID');
    } finally {
      flaky.closeAllConnections();
      await new Promise((r) => flaky.close(r));
    }
  });
});

describe('requireAuth, optionalAuth and requireAdmin in an app', () => {
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    const verifier = createTokenVerifier({ jwks: () => ({ keys: [publicJwk] }) });
    const { app, finish } = createServiceApp({
      name: 'auth-test',
      logger: createLogger('auth-test', 'silent'),
    });
    const me: express.RequestHandler = (req, res) => {
      res.json({ user: req.user ?? null });
    };
    app.get('/me', requireAuth(verifier), me);
    app.get('/maybe', optionalAuth(verifier), me);
    app.get('/admin', requireAuth(verifier), requireAdmin, me);
    app.get('/id', requireAuth(verifier), (req, res) => void res.json({ id: currentUserId(req) }));
    app.get('/id-unguarded', (req, res) => void res.json({ id: currentUserId(req) }));
    app.get('/maybe-id', optionalAuth(verifier), (req, res) => void res.json({ id: optionalUserId(req) }));
    finish();
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
  });

  const get = async (path: string, token?: string) => {
    const res = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: await res.json() };
  };

  it('requireAuth: 401 TOKEN_MISSING, TOKEN_INVALID, TOKEN_EXPIRED; 200 with req.user', async () => {
    expect(await get('/me')).toMatchObject({
      status: 401,
      body: { code: 'TOKEN_MISSING', error: 'Требуется авторизация' },
    });
    expect(await get('/me', 'garbage')).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
    expect(await get('/me', await sign(user, { exp: now() - 5 }))).toMatchObject({
      status: 401,
      body: { code: 'TOKEN_EXPIRED', error: 'Срок действия токена истёк' },
    });
    expect(await get('/me', await sign())).toEqual({ status: 200, body: { user } });
  });

  it('optionalAuth: anonymous passes, a bad token is still an error', async () => {
    expect(await get('/maybe')).toEqual({ status: 200, body: { user: null } });
    expect(await get('/maybe', await sign())).toEqual({ status: 200, body: { user } });
    expect(await get('/maybe', 'garbage')).toMatchObject({ status: 401, body: { code: 'TOKEN_INVALID' } });
  });

  it('requireAdmin: 403 ADMIN_REQUIRED for a user, 200 for an admin', async () => {
    expect(await get('/admin', await sign())).toMatchObject({
      status: 403,
      body: { code: 'ADMIN_REQUIRED' },
    });
    expect((await get('/admin', await sign({ ...user, admin: true }))).status).toBe(200);
  });

  it('currentUserId reads the token subject, and is a 401 where no token was checked; optionalUserId is null for a visitor', async () => {
    expect(await get('/id', await sign())).toEqual({ status: 200, body: { id: user.sub } });
    expect(await get('/id-unguarded')).toMatchObject({ status: 401, body: { code: 'TOKEN_MISSING' } });
    expect(await get('/maybe-id')).toEqual({ status: 200, body: { id: null } });
    expect(await get('/maybe-id', await sign())).toEqual({ status: 200, body: { id: user.sub } });
  });
});
