import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, FREE_ID, outboxEvents, PRO_ID, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

const DAY = 86_400_000;

/** The board limit billing last published for the user (boards applies it: deploy/test/billing-limits.test.ts). */
async function limitOf(u: { id: string }) {
  const e = await h.entitlementsOf(u.id);
  expect(e).not.toBeNull();
  return e!.maxBoards;
}

async function subscriptionOf(userId: string) {
  const r = await h.billingApi('GET', '/api/admin/subscriptions', { token: h.admin.token });
  expect(r.status).toBe(200);
  return r.body.subscriptions.find((s: { user_id: string }) => s.user_id === userId);
}

describe('subscription state machine (controlled clock)', () => {
  it('seeds Free and Pro once, with Free first', async () => {
    const r = await h.billingApi('GET', '/api/billing/plans');
    expect(r.status).toBe(200);
    expect(r.body.billing_enabled).toBe(true);
    expect(r.body.plans.map((p: { name: string }) => p.name)).toEqual(['Free', 'Pro']);
    expect(r.body.plans[0].limits_json).toEqual({
      max_board_count: 3,
      max_canvas_extent_w: 8000,
      max_canvas_extent_h: 8000,
      export_pdf_enabled: false,
    });
    expect(r.body.plans[1].variants.map((v: { days: number }) => v.days)).toEqual([30, 365]);
  });

  it('a registered user gets Free entitlements', async () => {
    const u = await h.user();
    await eventually(async () => expect((await limitOf(u))).toBe(3));
  });

  it('active → grace → expired by time, with limits following and one event per move', async () => {
    const u = await h.user();
    const created = await h.billingApi('POST', '/api/admin/subscriptions', {
      token: h.admin.token,
      body: { user_id: u.id, plan_id: PRO_ID, days: 10 },
    });
    expect(created.status).toBe(201);
    expect(created.body.subscription).toMatchObject({ status: 'active', calculated_status: 'active', plan_name: 'Pro' });
    await eventually(async () => expect((await limitOf(u))).toBe(-1));

    h.clock.advanceDays(10.5);
    // Listed by time before the job has run.
    expect((await subscriptionOf(u.id)).calculated_status).toBe('grace');
    expect(await h.billing.runExpiry()).toBeGreaterThanOrEqual(1);
    expect(await subscriptionOf(u.id)).toMatchObject({ status: 'grace', calculated_status: 'grace' });
    // Grace keeps the plan.
    expect((await limitOf(u))).toBe(-1);
    // A second pass has nothing to do.
    expect(await h.billing.runExpiry()).toBe(0);

    h.clock.advanceDays(3);
    expect(await h.billing.runExpiry()).toBeGreaterThanOrEqual(1);
    expect(await subscriptionOf(u.id)).toMatchObject({ status: 'expired', calculated_status: 'expired' });
    await eventually(async () => expect((await limitOf(u))).toBe(3));

    const moves = (await outboxEvents(h.pool, 'subscription.changed'))
      .map((e) => e.data)
      .filter((d) => d.userId === u.id)
      .map((d) => `${d.reason}:${d.status}`);
    expect(moves).toEqual(['admin:active', 'time:grace', 'time:expired']);
  });

  it('extending from grace adds the days to the old expiry, back to active', async () => {
    const u = await h.user();
    const sub = (
      await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 5 } })
    ).body.subscription;
    const expires = new Date(sub.expires_at).getTime();
    h.clock.advanceDays(6);
    await h.billing.runExpiry();
    expect((await subscriptionOf(u.id)).status).toBe('grace');

    const ext = await h.billingApi('PUT', `/api/admin/subscriptions/${sub.id}/extend`, { token: h.admin.token, body: { days: 30 } });
    expect(ext.status).toBe(200);
    expect(ext.body.subscription).toMatchObject({ status: 'active', calculated_status: 'active' });
    // From now (the old expiry is in the past), never from the past.
    expect(new Date(ext.body.subscription.expires_at).getTime()).toBe(h.clock().getTime() + 30 * DAY);
    expect(new Date(ext.body.subscription.expires_at).getTime()).toBeGreaterThan(expires + 30 * DAY - 1);
  });

  it('extending an active subscription adds to what is left', async () => {
    const u = await h.user();
    const sub = (
      await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 10 } })
    ).body.subscription;
    const ext = await h.billingApi('PUT', `/api/admin/subscriptions/${sub.id}/extend`, { token: h.admin.token, body: { days: 5 } });
    expect(new Date(ext.body.subscription.expires_at).getTime()).toBe(new Date(sub.expires_at).getTime() + 5 * DAY);
  });

  it('revoke deletes the subscription and the user falls back to Free at once', async () => {
    const u = await h.user();
    const sub = (
      await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } })
    ).body.subscription;
    await eventually(async () => expect((await limitOf(u))).toBe(-1));
    const del = await h.billingApi('DELETE', `/api/admin/subscriptions/${sub.id}`, { token: h.admin.token });
    expect(del.status).toBe(200);
    expect(await subscriptionOf(u.id)).toBeUndefined();
    await eventually(async () => expect((await limitOf(u))).toBe(3));
    const again = await h.billingApi('DELETE', `/api/admin/subscriptions/${sub.id}`, { token: h.admin.token });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('SUBSCRIPTION_NOT_FOUND');
  });

  it('an admin may set any status by hand; time never moves it back', async () => {
    const u = await h.user();
    const sub = (
      await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } })
    ).body.subscription;
    const put = await h.billingApi('PUT', `/api/admin/subscriptions/${sub.id}`, {
      token: h.admin.token,
      body: { plan_id: PRO_ID, expires_at: sub.expires_at, status: 'expired' },
    });
    expect(put.status).toBe(200);
    expect(put.body.subscription).toMatchObject({ status: 'expired', calculated_status: 'expired' });
    await eventually(async () => expect((await limitOf(u))).toBe(3));
    await h.billing.runExpiry();
    expect((await subscriptionOf(u.id)).status).toBe('expired');

    const back = await h.billingApi('PUT', `/api/admin/subscriptions/${sub.id}`, {
      token: h.admin.token,
      body: { plan_id: FREE_ID, expires_at: sub.expires_at, status: 'active' },
    });
    expect(back.body.subscription).toMatchObject({ status: 'active', plan_name: 'Free' });
  });

  it('the user sees their own subscription; cancel-auto-renew turns renewal off', async () => {
    const u = await h.user();
    const none = await h.billingApi('POST', '/api/billing/cancel-auto-renew', { token: u.token });
    expect(none.status).toBe(404);
    await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } });
    const mine = await h.billingApi('GET', '/api/billing/subscription', { token: u.token });
    expect(mine.status).toBe(200);
    expect(mine.body.subscription).toMatchObject({ plan_name: 'Pro', calculated_status: 'active', auto_renew: true });
    expect(mine.body.entitlements).toMatchObject({ planName: 'Pro', maxBoards: -1, exportPdf: true });
    const cancel = await h.billingApi('POST', '/api/billing/cancel-auto-renew', { token: u.token });
    expect(cancel.status).toBe(200);
    expect(cancel.body.subscription.auto_renew).toBe(false);
  });

  it('system config: billing off gives premium limits to everyone, limits off lifts the board limit', async () => {
    const u = await h.user();
    await eventually(async () => expect((await limitOf(u))).toBe(3));

    const off = await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { billing_enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ billing_enabled: false, limits_enabled: true, grace_days: 3 });
    await eventually(async () => expect((await limitOf(u))).toBe(-1));
    expect((await h.billingApi('GET', '/api/billing/plans')).body.billing_enabled).toBe(false);

    await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { billing_enabled: true, limits_enabled: false } });
    expect(await h.entitlementsOf(u.id)).toMatchObject({ maxBoards: 3, limitsEnabled: false });
    await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { limits_enabled: true } });
    await eventually(async () => expect((await limitOf(u))).toBe(3));
    expect((await outboxEvents(h.pool, 'billing.config_changed')).length).toBe(3);
  });

  it('a shorter grace period ends graces at once', async () => {
    const u = await h.user();
    await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 1 } });
    h.clock.advanceDays(2);
    await h.billing.runExpiry();
    expect((await subscriptionOf(u.id)).status).toBe('grace');
    await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { grace_days: 0 } });
    expect((await subscriptionOf(u.id)).status).toBe('expired');
    await h.billingApi('PUT', '/api/admin/config', { token: h.admin.token, body: { grace_days: 3 } });
  });

  it('editing a plan reaches its subscribers; deleting only deactivates', async () => {
    const u = await h.user();
    const plan = (
      await h.billingApi('POST', '/api/admin/plans', {
        token: h.admin.token,
        body: {
          name: 'Team',
          description: 'Для команд',
          is_active: true,
          limits: { max_board_count: 10, max_canvas_extent_w: 9000, max_canvas_extent_h: 9000, export_pdf_enabled: true },
          variants: [{ days: 30, price_minor: 99900, currency: 'RUB', is_active: true }],
        },
      })
    ).body.plan;
    expect(plan).toMatchObject({ name: 'Team', is_active: true, variants: [{ days: 30, price_minor: 99900, currency: 'RUB' }] });
    await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: plan.id, days: 30 } });
    await eventually(async () => expect((await limitOf(u))).toBe(10));

    const edited = await h.billingApi('PUT', `/api/admin/plans/${plan.id}`, {
      token: h.admin.token,
      body: {
        name: 'Team',
        description: 'Для команд',
        is_active: true,
        limits: { max_board_count: 20, max_canvas_extent_w: 9000, max_canvas_extent_h: 9000, export_pdf_enabled: true },
        variants: [
          { id: plan.variants[0].id, days: 30, price_minor: 89900, currency: 'RUB', is_active: true },
          { days: 365, price_minor: 899000, currency: 'USD', is_active: true },
        ],
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.plan.variants).toHaveLength(2);
    expect(edited.body.plan.variants[0]).toMatchObject({ id: plan.variants[0].id, price_minor: 89900 });
    await eventually(async () => expect((await limitOf(u))).toBe(20));

    const del = await h.billingApi('DELETE', `/api/admin/plans/${plan.id}`, { token: h.admin.token });
    expect(del.status).toBe(200);
    expect(del.body.plan.is_active).toBe(false);
    const publicPlans = (await h.billingApi('GET', '/api/billing/plans')).body.plans.map((p: { name: string }) => p.name);
    expect(publicPlans).not.toContain('Team');
    const adminPlans = (await h.billingApi('GET', '/api/admin/plans', { token: h.admin.token })).body.plans;
    expect(adminPlans.find((p: { id: string }) => p.id === plan.id).is_active).toBe(false);
  });

  it('admin calls need an administrator; search finds by name', async () => {
    const u = await h.user({ name: 'Уникальное Имя' });
    await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } });
    const found = await h.billingApi('GET', `/api/admin/subscriptions?search=${encodeURIComponent('уникальное')}`, { token: h.admin.token });
    expect(found.body.subscriptions.map((s: { user_id: string }) => s.user_id)).toEqual([u.id]);
    for (const [method, path] of [
      ['GET', '/api/admin/plans'],
      ['GET', '/api/admin/subscriptions'],
      ['GET', '/api/admin/payments'],
      ['GET', '/api/admin/config'],
      ['PUT', '/api/admin/config'],
    ] as const) {
      const r = await h.billingApi(method, path, { token: u.token, body: method === 'PUT' ? { billing_enabled: false } : undefined });
      expect(r.status, path).toBe(403);
      expect(r.body.code).toBe('ADMIN_REQUIRED');
      expect((await h.billingApi(method, path)).status).toBe(401);
    }
    expect((await h.billingApi('GET', '/api/admin/config', { token: h.admin.token })).body.billing_enabled).toBe(true);
  });

  it('expiry passes running at once (several replicas) move each subscription exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => h.user()));
    for (const u of users) {
      await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 1 } });
    }
    h.clock.advanceDays(1.5);
    const moved = await Promise.all([h.billing.runExpiry(), h.billing.runExpiry(), h.billing.runExpiry()]);
    expect(moved.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12);
    const ids = new Set(users.map((u) => u.id));
    const timeMoves = (await outboxEvents(h.pool, 'subscription.changed'))
      .map((e) => e.data)
      .filter((d) => ids.has(d.userId as string) && d.reason === 'time');
    expect(timeMoves).toHaveLength(12);
    expect(new Set(timeMoves.map((d) => d.userId)).size).toBe(12);
  });

  it('user.deleted drops the subscription', async () => {
    const u = await h.user();
    await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } });
    const { newEvent } = await import('@wb/events');
    await h.transport.publish(newEvent('user.deleted', { userId: u.id }, 'auth'));
    await eventually(async () => expect(await subscriptionOf(u.id)).toBeUndefined());
  });
});
