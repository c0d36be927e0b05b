import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createTokenVerifier, listen, type RunningServer } from '@wb/service-kit';
import { testTokens } from '@wb/testkit';
import { createGateway, GatewayConfigSchema } from '../src/app.ts';

/**
 * The gateway's own policies with services reached over HTTP (as in a cluster; the deploy test
 * gateway-policies.test.ts runs them on the embedded product): no-store and the admin gate.
 */
describe('gateway policies over HTTP', () => {
  let billing: RunningServer;
  let gw: RunningServer;
  let base: string;
  let adminToken: string;
  let userToken: string;

  beforeAll(async () => {
    const app = express();
    // What a service may say about caching: nothing, a header set before writing, or one in writeHead.
    app.get('/api/billing/plain', (_req, res) => void res.json({ ok: true }));
    app.get('/api/billing/public', (_req, res) => void res.set('cache-control', 'public, max-age=60').json({ ok: true }));
    app.get('/api/billing/head', (_req, res) => void res.writeHead(200, { 'Cache-Control': 'public, max-age=60', 'content-type': 'text/plain' }).end('ok'));
    app.use((_req, res) => void res.json({ reached: 'billing' }));
    billing = await listen(app, 0, '127.0.0.1');

    const tokens = await testTokens();
    const sign = (admin: boolean) => tokens.sign({ name: 'Имя', email: 'a@example.com', admin });
    [adminToken, userToken] = await Promise.all([sign(true), sign(false)]);

    const gateway = createGateway({
      config: GatewayConfigSchema.parse({ STATIC_DIR: '/nonexistent', AUTH_RATE_LIMIT_PER_MIN: '0' }),
      logger: createLogger('gateway', 'silent'),
      // Billing deployed, the admin monitoring service not.
      targets: { billing: { url: `http://127.0.0.1:${billing.port}` } },
      verifier: createTokenVerifier({ jwks: tokens.jwks }),
    });
    gw = await listen(gateway.app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(async () => {
    await Promise.all([gw, billing].map((s) => s?.close()));
  });

  const get = async (p: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + p, { headers });
    const text = await res.text();
    return { status: res.status, cache: res.headers.get('cache-control'), body: text.startsWith('{') ? JSON.parse(text) : text };
  };

  it('answers no-store unless the service chose caching, and always when the call carries a credential', async () => {
    expect((await get('/api/billing/plain')).cache).toBe('no-store');
    expect((await get('/api/billing/public')).cache).toBe('public, max-age=60');
    expect((await get('/api/billing/head')).cache).toBe('public, max-age=60');
    const credentials: Array<Record<string, string>> = [{ authorization: `Bearer ${userToken}` }, { 'x-share-token': 'abc' }, { cookie: 'wb_session=x' }];
    for (const credential of credentials) {
      for (const p of ['/api/billing/plain', '/api/billing/public', '/api/billing/head']) {
        expect([p, credential, (await get(p, credential)).cache]).toEqual([p, credential, 'no-store']);
      }
    }
    // A cookie of the site that is no credential of ours (analytics) leaves a chosen cache alone.
    expect((await get('/api/billing/public', { cookie: '_ga=1; theme=dark' })).cache).toBe('public, max-age=60');
    expect((await get('/api/billing/public', { cookie: '_ga=1; wb_device=abc' })).cache).toBe('no-store');
    // The gateway's own answers too: an unknown API path, a service that is not deployed.
    expect((await get('/api/nothing')).cache).toBe('no-store');
    expect((await get('/api/export/formats')).cache).toBe('no-store');
  });

  it('refuses /api/admin/* before routing: 401 for a visitor or a bad token, 403 for a non-administrator, then 503 or the service', async () => {
    for (const p of ['/api/admin/stats', '/api/admin/plans']) {
      expect((await get(p)).body).toMatchObject({ code: 'TOKEN_MISSING' });
      expect((await get(p)).status).toBe(401);
      expect((await get(p, { authorization: 'Bearer x.y.z' })).status).toBe(401);
      const user = await get(p, { authorization: `Bearer ${userToken}` });
      expect([user.status, user.body.code, user.cache]).toEqual([403, 'ADMIN_REQUIRED', 'no-store']);
    }
    const absent = await get('/api/admin/stats', { authorization: `Bearer ${adminToken}` });
    expect([absent.status, absent.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    const deployed = await get('/api/admin/plans', { authorization: `Bearer ${adminToken}` });
    expect([deployed.status, deployed.body]).toEqual([200, { reached: 'billing' }]);
  });
});
