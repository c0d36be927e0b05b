import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, PRO_ID, PRO_MONTH_ID, startHarness, TEST_PAYMENTS_SECRET, type Harness, type TestUser } from './harness.ts';
import { createHmac } from 'node:crypto';
import { newEvent } from '@wb/events';
import { eventually } from '@wb/testkit';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

const DAY = 86_400_000;

/** The test provider's notification, signed as its checkout page signs it. */
function notification(orderId: string, event: 'payment.succeeded' | 'payment.canceled', secret = TEST_PAYMENTS_SECRET) {
  return { order_id: orderId, event, signature: createHmac('sha256', secret).update(`${orderId}:${event}`).digest('hex') };
}

async function checkout(u: TestUser, variantId = PRO_MONTH_ID) {
  const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: variantId } });
  expect(r.status).toBe(201);
  return r.body.data as { order_id: string; checkout_url: string };
}

const notify = (body: unknown) => h.billingApi('POST', '/api/billing/webhooks/test', { body });

async function subscriptionOf(u: TestUser) {
  return (await h.billingApi('GET', '/api/billing/subscription', { token: u.token })).body.subscription;
}

describe('checkout with the test provider', () => {
  it('answers data.checkout_url; its page and the owner\'s "Оплатить" pay and send the browser back to the dashboard', async () => {
    const u = await h.user();
    const { order_id, checkout_url } = await checkout(u);
    expect(checkout_url).toBe(`${h.billingBase}/api/billing/test-checkout/${order_id}`);

    const page = await fetch(checkout_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Оплатить');
    expect(html).toContain('Отклонить');

    const paid = await h.billingApi('POST', `/api/billing/test-checkout/${order_id}`, { token: u.token, body: { outcome: 'pay' } });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({ result: 'paid', redirect_url: `${h.billingBase}/dashboard?payment=success&order=${order_id}` });

    const sub = await subscriptionOf(u);
    expect(sub).toMatchObject({ plan_name: 'Pro', status: 'active' });
    expect(new Date(sub.expires_at).getTime()).toBe(h.clock().getTime() + 30 * DAY);
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments).toMatchObject([{ amount_minor: 49900, currency: 'RUB', status: 'paid', plan_name: 'Pro' }]);
    const order = await h.billingApi('GET', `/api/billing/orders/${order_id}`, { token: u.token });
    expect(order.body.order).toMatchObject({ status: 'paid', plan_name: 'Pro', amount_minor: 49900 });
  });

  it('"Отклонить" records a failed payment and no subscription', async () => {
    const u = await h.user();
    const { order_id } = await checkout(u);
    const declined = await h.billingApi('POST', `/api/billing/test-checkout/${order_id}`, { token: u.token, body: { outcome: 'decline' } });
    expect(declined.body).toEqual({ result: 'failed', redirect_url: `${h.billingBase}/dashboard?payment=declined&order=${order_id}` });
    expect(await subscriptionOf(u)).toBeNull();
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments).toMatchObject([{ status: 'failed' }]);
  });

  it('repeated notifications, even at once, grant the days exactly once', async () => {
    const u = await h.user();
    const { order_id } = await checkout(u);
    const answers = await Promise.all(Array.from({ length: 6 }, () => notify(notification(order_id, 'payment.succeeded'))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.result === 'paid')).toHaveLength(1);
    expect(answers.filter((a) => a.body.result === 'already_paid')).toHaveLength(5);

    const sub = await subscriptionOf(u);
    expect(new Date(sub.expires_at).getTime()).toBe(h.clock().getTime() + 30 * DAY);
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [u.id]);
    expect(rows[0].n).toBe(1);
    const succeeded = (await outboxEvents(h.pool, 'payment.succeeded')).filter((e) => e.data.paymentId === order_id);
    expect(succeeded).toHaveLength(1);
  });

  it('several orders of a user with no subscription yet, paid at the same moment, add up their days', async () => {
    for (let round = 0; round < 3; round++) {
      const u = await h.user();
      const orders = await Promise.all(Array.from({ length: 4 }, () => checkout(u)));
      const answers = await Promise.all(orders.map((o) => notify(notification(o.order_id, 'payment.succeeded'))));
      expect(answers.map((a) => a.body.result)).toEqual(['paid', 'paid', 'paid', 'paid']);
      const sub = await subscriptionOf(u);
      expect(new Date(sub.expires_at).getTime()).toBe(h.clock().getTime() + 4 * 30 * DAY);
    }
  });

  it('out of order: a late "canceled" cannot undo a paid order; a "succeeded" after "canceled" pays once', async () => {
    const u = await h.user();
    const a = await checkout(u);
    expect((await notify(notification(a.order_id, 'payment.succeeded'))).body.result).toBe('paid');
    expect((await notify(notification(a.order_id, 'payment.canceled'))).body.result).toBe('already_paid');
    const afterA = await subscriptionOf(u);
    expect(afterA.status).toBe('active');

    const b = await checkout(u);
    expect((await notify(notification(b.order_id, 'payment.canceled'))).body.result).toBe('failed');
    expect((await notify(notification(b.order_id, 'payment.canceled'))).body.result).toBe('already_failed');
    expect((await notify(notification(b.order_id, 'payment.succeeded'))).body.result).toBe('paid');
    expect((await notify(notification(b.order_id, 'payment.succeeded'))).body.result).toBe('already_paid');
    // The second paid order of the same running plan extends the first: 60 days in all.
    const afterB = await subscriptionOf(u);
    expect(new Date(afterB.expires_at).getTime()).toBe(new Date(afterA.expires_at).getTime() + 30 * DAY);
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments.map((p: { status: string }) => p.status)).toEqual(['paid', 'paid']);
  });

  it('a payment confirmed after the account was deleted is recorded as paid and grants nothing', async () => {
    const u = await h.user();
    const { order_id } = await checkout(u);
    await h.transport.publish(newEvent('user.deleted', { userId: u.id }, 'auth'));
    await eventually(async () => {
      const { rows } = await h.pool.query('SELECT user_deleted_at FROM payments WHERE id = $1', [order_id]);
      expect(rows[0].user_deleted_at).not.toBeNull();
    });
    const r = await notify(notification(order_id, 'payment.succeeded'));
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('paid');
    const { rows } = await h.pool.query(
      `SELECT (SELECT status FROM payments WHERE id = $1) AS status,
              (SELECT count(*)::int FROM subscriptions WHERE user_id = $2) AS subscriptions,
              (SELECT count(*)::int FROM entitlements WHERE user_id = $2) AS entitlements`,
      [order_id, u.id],
    );
    expect(rows[0]).toEqual({ status: 'paid', subscriptions: 0, entitlements: 0 });
  });

  it('a notification with a forged signature or for an unknown order is rejected and changes nothing', async () => {
    const u = await h.user();
    const { order_id } = await checkout(u);
    const forged = await notify(notification(order_id, 'payment.succeeded', 'not-the-secret'));
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ code: 'WEBHOOK_REJECTED', error: 'Уведомление платёжной системы отклонено' });
    const unknown = await notify(notification('00000000-0000-4000-8000-00000000dead', 'payment.succeeded'));
    expect(unknown.status).toBe(400);
    const garbage = await h.billingApi('POST', '/api/billing/webhooks/test', { raw: '{not json' });
    expect(garbage.status).toBe(400);
    expect(await subscriptionOf(u)).toBeNull();
    const unknownProvider = await h.billingApi('POST', '/api/billing/webhooks/paypal', { body: {} });
    expect(unknownProvider.status).toBe(404);
  });

  it('billing off: checkout answers "Биллинг временно недоступен" and stores nothing', async () => {
    const u = await h.user();
    await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { billing_enabled: false } });
    try {
      const before = await h.pool.query('SELECT count(*)::int AS n FROM payments');
      const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'BILLING_DISABLED', error: 'Биллинг временно недоступен' });
      const after = await h.pool.query('SELECT count(*)::int AS n FROM payments');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    } finally {
      await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { billing_enabled: true } });
    }
  });

  it('checkout needs a signed-in user; the Free plan needs no checkout', async () => {
    const r = await h.billingApi('POST', '/api/billing/checkout', { body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(r.status).toBe(401);
    const u = await h.user();
    const free = await h.billingApi('POST', '/api/billing/checkout', {
      token: u.token,
      body: { plan_id: '00000000-0000-4000-8000-000000000001', variant_id: '00000000-0000-4000-8000-000000000011' },
    });
    expect(free.status).toBe(400);
    expect(free.body.code).toBe('FREE_PLAN_NO_CHECKOUT');
  });

  it('admin payments list shows settled payments with the user name', async () => {
    const r = await h.billingApi('GET', '/api/admin/payments', { token: h.admin.token });
    expect(r.status).toBe(200);
    expect(r.body.payments.length).toBeGreaterThan(0);
    expect(r.body.payments[0]).toMatchObject({ user_name: 'Тестовый пользователь' });
    expect(r.body.payments.every((p: { status: string }) => p.status === 'paid' || p.status === 'failed')).toBe(true);
  });
});
