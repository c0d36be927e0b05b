import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type ClusterHandle } from '../local/cluster.ts';
import { call, eventually } from './clients.ts';

const ADMIN = { email: 'billing-admin@example.com', password: 'Admin-Pass-123' };
const PRO = { plan_id: '00000000-0000-4000-8000-000000000002', variant_id: '00000000-0000-4000-8000-000000000021' };

// Billing's entitlements reaching the other services across processes, over NATS JetStream: boards
// enforces the board limit, auth answers plan_name and boards_count.
describe('billing across the cluster', () => {
  let cluster: ClusterHandle;
  let base: string;
  beforeAll(async () => {
    // The cluster's children inherit this process's environment (auth bootstraps the admin from it).
    process.env.ADMIN_EMAIL = ADMIN.email;
    process.env.ADMIN_PASSWORD = ADMIN.password;
    cluster = await startCluster();
    base = cluster.url;
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  const register = async (name: string) => {
    const r = await call(base, 'POST', '/api/auth/register', {
      body: { email: `${name}-${Date.now()}@example.com`, password: 'Secret-123', name: 'Покупатель' },
    });
    expect(r.status).toBe(201);
    return r.body.accessToken as string;
  };
  const limits = async (token: string) => (await call(base, 'GET', '/api/boards?limit=1', { token })).body.limits;
  const createBoard = (token: string, title: string) => call(base, 'POST', '/api/boards', { token, body: { title, folder_id: null } });

  it('a Free user hits BOARD_LIMIT_REACHED at the plan limit, pays, and can create more', async () => {
    const health = await call(base, 'GET', '/api/health');
    expect(health.body.services.billing.status).toBe('up');

    const token = await register('buyer');
    await eventually(async () => expect(await limits(token)).toEqual({ current: 0, max: 3, canCreate: true }), 20_000);
    for (let i = 1; i <= 3; i++) expect((await createBoard(token, `Доска ${i}`)).status).toBe(201);
    const refused = await createBoard(token, 'Четвёртая');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'BOARD_LIMIT_REACHED', error: 'Достигнут лимит досок. Обновите план для создания новых досок.' });

    const order = await call(base, 'POST', '/api/billing/checkout', { token, body: PRO });
    expect(order.status).toBe(201);
    // The test checkout page's "Оплатить": the order owner's call with their token.
    const paid = await call(base, 'POST', new URL(order.body.data.checkout_url).pathname, { token, body: { outcome: 'pay' } });
    expect(paid.status).toBe(200);
    expect(paid.body.result).toBe('paid');

    await eventually(async () => expect(await limits(token)).toEqual({ current: 3, max: -1, canCreate: true }), 20_000);
    expect((await createBoard(token, 'Четвёртая')).status).toBe(201);
    await eventually(async () => {
      const me = await call(base, 'GET', '/api/auth/verify', { token });
      expect(me.body.user).toMatchObject({ plan_name: 'Pro', boards_count: 4 });
    }, 20_000);
  });

  it('billing off gives a Free user premium limits; limits off lifts the board limit; both come back', async () => {
    const admin = (await call(base, 'POST', '/api/auth/login', { body: ADMIN })).body.accessToken as string;
    const token = await register('free');
    await eventually(async () => expect((await limits(token)).max).toBe(3), 20_000);

    expect((await call(base, 'PUT', '/api/admin/config', { token: admin, body: { billing_enabled: false } })).status).toBe(200);
    await eventually(async () => expect((await limits(token)).max).toBe(-1), 20_000);
    const checkout = await call(base, 'POST', '/api/billing/checkout', { token, body: PRO });
    expect(checkout.body).toMatchObject({ code: 'BILLING_DISABLED', error: 'Биллинг временно недоступен' });

    await call(base, 'PUT', '/api/admin/config', { token: admin, body: { billing_enabled: true, limits_enabled: false } });
    await eventually(async () => expect(await limits(token)).toMatchObject({ max: -1, canCreate: true }), 20_000);
    await call(base, 'PUT', '/api/admin/config', { token: admin, body: { limits_enabled: true } });
    await eventually(async () => expect((await limits(token)).max).toBe(3), 20_000);
  });
});
