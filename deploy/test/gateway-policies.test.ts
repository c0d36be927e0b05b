import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call, eventually } from './clients.ts';
import { fillPath, ROUTES, type Caller, type Fixture } from './public-routes.ts';

/**
 * What the gateway decides once for every service, on the whole product (embedded):
 * `Cache-Control: no-store` on authenticated and API answers
 * (issue 32 item 8), and /api/admin/* refused to visitors and non-administrators before routing
 * (item 10).
 */
const ADMIN = { email: 'policy-admin@example.com', password: 'Admin-Pass-123' };
const USER = { email: 'policy-user@example.com', password: 'Secret-123', name: 'Пользователь' };
const NO_ID = '00000000-0000-4000-8000-0000000000ff';

describe('gateway policies on the whole product', () => {
  let handle: EmbeddedHandle;
  const tokens: Record<Caller, string | undefined> = { visitor: undefined, user: undefined, admin: undefined };
  let fixture: Fixture;

  beforeAll(async () => {
    const dataDir = await tempDir('gateway-policies');
    const staticDir = path.join(dataDir, 'spa');
    await mkdir(staticDir, { recursive: true });
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Доска</title>');
    handle = await startEmbedded({
      port: 0,
      dataDir,
      staticDir,
      logLevel: 'silent',
      env: { AUTH_RATE_LIMIT_PER_MIN: '0', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
    const base = handle.url;
    const reg = await call(base, 'POST', '/api/auth/register', { body: USER });
    expect(reg.status).toBe(201);
    tokens.user = reg.body.accessToken;
    tokens.admin = (await call(base, 'POST', '/api/auth/login', { body: ADMIN })).body.accessToken;
    const token = tokens.user;
    const board = (await call(base, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id;
    const folder = (await call(base, 'POST', '/api/folders', { token, body: { name: 'Папка', parent_id: null } })).body.folder.id;
    const tag = (await call(base, 'POST', '/api/tags', { token, body: { name: 'тег', color: '#EF4444' } })).body.tag.id;
    const plans = (await call(base, 'GET', '/api/billing/plans')).body.plans as Array<{ id: string; name: string; variants: Array<{ id: string }> }>;
    const pro = plans.find((p) => p.name === 'Pro')!;
    const order = await call(base, 'POST', '/api/billing/checkout', { token, body: { plan_id: pro.id, variant_id: pro.variants[0]!.id } });
    const sub = await call(base, 'POST', '/api/admin/subscriptions', { token: tokens.admin, body: { user_id: reg.body.user.id, plan_id: pro.id, days: 30 } });
    expect(sub.status).toBe(201);
    fixture = {
      board,
      folder,
      folder2: folder,
      tag,
      plan: pro.id,
      variant: pro.variants[0]!.id,
      subscription: sub.body.subscription.id,
      order: order.body.data.order_id,
      user: reg.body.user.id,
    };
  }, 120_000);
  afterAll(async () => {
    await handle?.stop();
  });

  const get = (p: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(handle.url + p, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  it('answers every authenticated call with Cache-Control: no-store, billing and administration included', async () => {
    const reads: Array<[Caller, string]> = [
      ['user', '/api/auth/verify'],
      ['user', '/api/auth/profile'],
      ['user', '/api/auth/user/favorite-emojis'],
      ['user', '/api/boards'],
      ['user', '/api/boards/:board'],
      ['user', '/api/boards/:board/members'],
      ['user', '/api/boards/:board/camera'],
      ['user', '/api/boards/:board/debug/snapshots'],
      ['user', '/api/folders'],
      ['user', '/api/tags'],
      ['user', '/api/tags/board/:board'],
      ['user', '/api/billing/plans'],
      ['user', '/api/billing/subscription'],
      ['user', '/api/billing/payments'],
      ['user', '/api/export/formats'],
      ['admin', '/api/admin/plans'],
      ['admin', '/api/admin/subscriptions'],
      ['admin', '/api/admin/payments'],
      ['admin', '/api/admin/config'],
    ];
    const missing: string[] = [];
    for (const [caller, template] of reads) {
      const res = await get(fillPath(template, fixture), tokens[caller]);
      await res.arrayBuffer();
      expect(res.status, `GET ${template}`).toBe(200);
      if (res.headers.get('cache-control') !== 'no-store') missing.push(`GET ${template}: ${res.headers.get('cache-control')}`);
    }
    // Every input route of the table, signed in as its caller, with a body it refuses or takes: the
    // answer is as private as the call. DELETEs and the rest get an id no row has. Logout takes `{}`
    // (it ends the bearer's session): the other tests need the session.
    for (const route of ROUTES.filter((r) => r.caller !== 'visitor' && r.path !== '/api/auth/logout')) {
      const res = await fetch(handle.url + fillPath(route.path, { ...fixture, order: NO_ID, subscription: NO_ID, plan: NO_ID, user: NO_ID }), {
        method: route.method,
        headers: { authorization: `Bearer ${tokens[route.caller]}`, 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : '{}',
      });
      await res.arrayBuffer();
      if (res.headers.get('cache-control') !== 'no-store') missing.push(`${route.method} ${route.path} (${res.status}): ${res.headers.get('cache-control')}`);
    }
    for (const p of [`/api/admin/plans/${NO_ID}`, `/api/admin/subscriptions/${NO_ID}`, `/api/boards/${NO_ID}`]) {
      const res = await fetch(handle.url + p, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.admin}` } });
      await res.arrayBuffer();
      if (res.headers.get('cache-control') !== 'no-store') missing.push(`DELETE ${p} (${res.status}): ${res.headers.get('cache-control')}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers API calls without credentials no-store too, but leaves pages their own caching', async () => {
    for (const p of ['/api/billing/plans', '/api/health', '/api/boards', '/api/nothing-here']) {
      const res = await get(p);
      await res.arrayBuffer();
      expect(res.headers.get('cache-control'), p).toBe('no-store');
    }
    const page = await get('/dashboard');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    await page.arrayBuffer();
  });

  it('refuses /api/admin/* to visitors (401) and non-administrators (403) before routing; an administrator gets the stats (200)', async () => {
    for (const p of ['/api/admin/stats', '/api/admin/activity', '/api/admin/system', '/api/admin/plans', '/api/admin/users']) {
      const visitor = await call(handle.url, 'GET', p);
      expect([p, visitor.status, visitor.body]).toEqual([p, 401, expect.objectContaining({ code: 'TOKEN_MISSING', error: 'Требуется авторизация' })]);
      const forged = await call(handle.url, 'GET', p, { token: 'not.a.token' });
      expect([p, forged.status, forged.body.code]).toEqual([p, 401, 'TOKEN_INVALID']);
      const user = await call(handle.url, 'GET', p, { token: tokens.user });
      expect([p, user.status, user.body]).toEqual([p, 403, expect.objectContaining({ code: 'ADMIN_REQUIRED', error: 'Требуются права администратора' })]);
    }
    // admin-monitoring runs in the embedded mode too: the counters kept from the set-up's events.
    const stats = await call(handle.url, 'GET', '/api/admin/stats', { token: tokens.admin });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({ totalUsers: expect.any(Number), activeSubscriptions: expect.any(Number), totalBoards: expect.any(Number), revenue: 0 });
    await eventually(async () => {
      const s = (await call(handle.url, 'GET', '/api/admin/stats', { token: tokens.admin })).body;
      expect(s.activeSubscriptions).toBe(1);
      expect(s.totalBoards).toBeGreaterThanOrEqual(1);
      expect(s.totalUsers).toBeGreaterThanOrEqual(1);
    }, 20_000);
    // A write is refused the same way, its body never read.
    const write = await call(handle.url, 'POST', '/api/admin/update', { token: tokens.user, body: { version: 'x' } });
    expect([write.status, write.body.code]).toEqual([403, 'ADMIN_REQUIRED']);
  });
});
