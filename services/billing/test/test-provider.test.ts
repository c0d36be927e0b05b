// Issue 32 item 2: the built-in test payment provider runs only when asked for, never in a
// production start, acts only for the order's owner, and never stands in for a missing currency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@wb/service-kit';
import { BillingConfigSchema, billingServiceConfig } from '../src/app.ts';
import { PRO_ID, PRO_MONTH_ID, snapshot, startHarness, type Harness, type TestUser } from './harness.ts';
import { startYooKassaStandIn, type YooKassaStandIn } from './provider-standins.ts';

const BASE_ENV = { DATABASE_URL: 'postgres://localhost/x', AUTH_JWKS_URL: 'http://127.0.0.1:1/jwks' };

describe('when the test provider runs', () => {
  it('is off unless PAYMENTS_TEST_PROVIDER is set, also under NODE_ENV=production', () => {
    expect(billingServiceConfig(parseConfig(BillingConfigSchema, BASE_ENV)).providers.test).toBeUndefined();
    expect(billingServiceConfig(parseConfig(BillingConfigSchema, { ...BASE_ENV, NODE_ENV: 'production' })).providers.test).toBeUndefined();
    expect(billingServiceConfig(parseConfig(BillingConfigSchema, { ...BASE_ENV, PAYMENTS_TEST_PROVIDER: '1' })).providers.test).toBeDefined();
  });

  it('a production start with PAYMENTS_TEST_PROVIDER=1 refuses to start, saying why', () => {
    for (const value of ['1', 'true', 'yes']) {
      const start = () => parseConfig(BillingConfigSchema, { ...BASE_ENV, NODE_ENV: 'production', PAYMENTS_TEST_PROVIDER: value });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/PAYMENTS_TEST_PROVIDER.*NODE_ENV=production.*never runs in production/);
    }
    // Explicitly off is fine in production.
    expect(parseConfig(BillingConfigSchema, { ...BASE_ENV, NODE_ENV: 'production', PAYMENTS_TEST_PROVIDER: '0' }).PAYMENTS_TEST_PROVIDER).toBe(false);
  });
});

describe('without the test provider (no keys, flag unset)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ providers: {} });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('a paid plan cannot be bought (CURRENCY_NOT_SUPPORTED) and the test pages and webhook do not exist', async () => {
    const u = await h.user();
    const before = await snapshot(h.pool);
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'CURRENCY_NOT_SUPPORTED', error: 'Оплата в этой валюте недоступна' });
    expect(await snapshot(h.pool)).toBe(before);
    const id = '00000000-0000-4000-8000-00000000beef';
    expect((await fetch(`${h.billingBase}/api/billing/test-checkout/${id}`)).status).toBe(404);
    expect((await h.billingApi('POST', `/api/billing/test-checkout/${id}`, { token: u.token, body: { outcome: 'pay' } })).status).toBe(404);
    expect((await h.billingApi('POST', '/api/billing/webhooks/test', { body: {} })).status).toBe(404);
  });
});

describe('with a real provider configured, the test provider never stands in', () => {
  let h: Harness;
  let yookassa: YooKassaStandIn;
  let usdVariant: string;
  beforeAll(async () => {
    yookassa = await startYooKassaStandIn('1', 'k');
    h = await startHarness({ providers: { test: { secret: 's' }, yookassa: { shopId: '1', secretKey: 'k', apiUrl: yookassa.url } } });
    const plan = await h.billingApi('PUT', `/api/admin/plans/${PRO_ID}`, {
      token: h.admin.token,
      body: {
        name: 'Pro',
        description: 'Для команд',
        is_active: true,
        limits: { max_board_count: -1, max_canvas_extent_w: 50000, max_canvas_extent_h: 50000, export_pdf_enabled: true },
        variants: [
          { id: PRO_MONTH_ID, days: 30, price_minor: 49900, currency: 'RUB', is_active: true },
          { days: 30, price_minor: 999, currency: 'USD', is_active: true },
        ],
      },
    });
    usdVariant = plan.body.plan.variants.find((v: { currency: string }) => v.currency === 'USD').id;
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await yookassa?.close();
  });

  it('a plan in a currency no real provider takes answers CURRENCY_NOT_SUPPORTED and stores nothing', async () => {
    const u = await h.user();
    const before = await snapshot(h.pool);
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: usdVariant } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('CURRENCY_NOT_SUPPORTED');
    expect(await snapshot(h.pool)).toBe(before);
    const rub = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(rub.status).toBe(201);
    expect(rub.body.data.checkout_url).not.toContain('test-checkout');
  });
});

describe('the test checkout acts only for the order owner', () => {
  let h: Harness;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    h = await startHarness();
    owner = await h.user({ name: 'Владелец' });
    stranger = await h.user({ name: 'Чужой' });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  async function order(u: TestUser) {
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(r.status).toBe(201);
    return r.body.data.order_id as string;
  }
  const choose = (id: string, outcome: unknown, token?: string) =>
    h.billingApi('POST', `/api/billing/test-checkout/${id}`, { token, body: { outcome } });
  const statusOf = async (id: string) => (await h.pool.query('SELECT status FROM payments WHERE id = $1', [id])).rows[0].status;

  it('the page holds no order data and cannot be framed; its answers carry a CSP with frame-ancestors none', async () => {
    const id = await order(owner);
    const page = await fetch(`${h.billingBase}/api/billing/test-checkout/${id}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).not.toContain('499');
    expect(html).not.toContain('Pro');
    const call = await fetch(`${h.billingBase}/api/billing/test-checkout/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'nonsense' }),
    });
    expect(call.status).toBe(400);
    expect(call.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(call.headers.get('x-frame-options')).toBe('DENY');
  });

  it('without sign-in, nobody pays or declines; the old unsigned form post pays nothing', async () => {
    const id = await order(owner);
    expect((await choose(id, 'pay')).status).toBe(401);
    const form = await fetch(`${h.billingBase}/api/billing/test-checkout/${id}`, {
      method: 'POST',
      body: new URLSearchParams({ outcome: 'pay' }),
      redirect: 'manual',
    });
    expect(form.status).toBe(401);
    expect(await statusOf(id)).toBe('pending');
    expect((await h.billingApi('GET', '/api/billing/subscription', { token: owner.token })).body.subscription).toBeNull();
  });

  it('another signed-in user gets 404 for the order, its page data, pay and decline; nothing changes', async () => {
    const id = await order(owner);
    const before = await snapshot(h.pool);
    for (const outcome of ['pay', 'decline']) {
      const r = await choose(id, outcome, stranger.token);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: 'ORDER_NOT_FOUND', error: 'Заказ не найден' });
    }
    expect((await h.billingApi('GET', `/api/billing/orders/${id}`, { token: stranger.token })).status).toBe(404);
    expect(await snapshot(h.pool)).toBe(before);
    expect((await h.billingApi('GET', '/api/billing/subscription', { token: stranger.token })).body.subscription).toBeNull();
  });

  it('the owner pays; declining the paid order afterwards keeps it paid and says so', async () => {
    const id = await order(owner);
    const paid = await choose(id, 'pay', owner.token);
    expect(paid.status).toBe(200);
    expect(paid.body.result).toBe('paid');
    const declined = await choose(id, 'decline', owner.token);
    expect(declined.status).toBe(200);
    expect(declined.body.result).toBe('already_paid');
    const view = await h.billingApi('GET', `/api/billing/orders/${id}`, { token: owner.token });
    expect(view.status).toBe(200);
    expect(view.body.order).toMatchObject({ id, status: 'paid', plan_name: 'Pro', days: 30, amount_minor: 49900, currency: 'RUB' });
    expect(view.body.subscription).toMatchObject({ plan_name: 'Pro', calculated_status: 'active' });
  });

  it('bad input: a wrong outcome, a body that is no object, a malformed id: 4xx with a Russian text, never 500', async () => {
    const id = await order(owner);
    for (const outcome of [undefined, 'steal', 1, '\u0000pay', 'x'.repeat(100_000)]) {
      const r = await choose(id, outcome, owner.token);
      expect(r.status, String(outcome).slice(0, 20)).toBe(r.status === 413 ? 413 : 400);
      expect(r.body.error).toMatch(/[а-я]/i);
    }
    const notObject = await h.billingApi('POST', `/api/billing/test-checkout/${id}`, { token: owner.token, raw: '"pay"' });
    expect(notObject.status).toBe(400);
    expect((await choose('not-a-uuid', 'pay', owner.token)).status).toBe(404);
    expect((await fetch(`${h.billingBase}/api/billing/test-checkout/%00`)).status).toBe(404);
    expect((await h.billingApi('GET', '/api/billing/orders/123', { token: owner.token })).status).toBe(404);
    expect(await statusOf(id)).toBe('pending');
  });
});
