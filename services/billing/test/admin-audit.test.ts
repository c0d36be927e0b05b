// Issue 34 (audit log): every administrator's action in billing writes an admin.action event in the
// same transaction as the change (who, what, before, after); a refused action writes none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents, PRO_ID, startHarness, type Harness } from './harness.ts';

let h: Harness;
const limits = { max_board_count: 10, max_canvas_extent_w: 5000, max_canvas_extent_h: 5000, export_pdf_enabled: true };
const plan = (name: string, description = '') => ({
  name,
  description,
  is_active: true,
  limits,
  variants: [{ days: 30, price_minor: 10000, currency: 'RUB', is_active: true }],
});

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

type Audit = {
  actorId: string;
  actorName: string;
  action: string;
  target: { type: string; id: string | null; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  at: string;
};
const audits = async () => (await outboxEvents(h.pool, 'admin.action')).map((e) => e.data as unknown as Audit);
const as = (token: string) => ({ token });

describe('admin.action from billing', () => {
  it('plans, subscriptions and config: one entry per action with the actor, the target, before and after', async () => {
    const admin = as(h.admin.token);
    const actor = { actorId: h.admin.id, actorName: 'Админ' };
    const u = await h.user({ name: 'Пётр Подписчиков' });

    const created = await h.billingApi('POST', '/api/admin/plans', { ...admin, body: plan('Команда', 'для команд') });
    expect(created.status).toBe(201);
    const planId = created.body.plan.id as string;
    expect((await h.billingApi('PUT', `/api/admin/plans/${planId}`, { ...admin, body: plan('Команда', 'для больших команд') })).status).toBe(200);
    expect((await h.billingApi('DELETE', `/api/admin/plans/${planId}`, admin)).status).toBe(200);

    const sub = await h.billingApi('POST', '/api/admin/subscriptions', { ...admin, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } });
    expect(sub.status).toBe(201);
    const subId = sub.body.subscription.id as string;
    const expiresAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    expect((await h.billingApi('PUT', `/api/admin/subscriptions/${subId}`, { ...admin, body: { plan_id: PRO_ID, expires_at: expiresAt, status: 'grace' } })).status).toBe(200);
    expect((await h.billingApi('PUT', `/api/admin/subscriptions/${subId}/extend`, { ...admin, body: { days: 30 } })).status).toBe(200);
    expect((await h.billingApi('DELETE', `/api/admin/subscriptions/${subId}`, admin)).status).toBe(200);

    expect((await h.billingApi('PUT', '/api/admin/config', { ...admin, body: { grace_days: 5 } })).status).toBe(200);

    const log = await audits();
    expect(log.map((a) => a.action)).toEqual([
      'plan.created',
      'plan.updated',
      'plan.deactivated',
      'subscription.created',
      'subscription.updated',
      'subscription.extended',
      'subscription.revoked',
      'config.updated',
    ]);
    for (const a of log) {
      expect(a).toMatchObject(actor);
      expect(Date.now() - Date.parse(a.at)).toBeLessThan(60_000);
    }
    const [pc, pu, pd, sc, su, se, sr, cu] = log as [Audit, Audit, Audit, Audit, Audit, Audit, Audit, Audit];
    expect(pc).toMatchObject({ target: { type: 'plan', id: planId, label: 'Команда' }, before: null, after: { name: 'Команда', description: 'для команд' } });
    expect(pu).toMatchObject({ before: { description: 'для команд' }, after: { description: 'для больших команд' } });
    expect(pd).toMatchObject({ before: { is_active: true }, after: { is_active: false } });
    const label = 'Пётр Подписчиков (Pro)';
    expect(sc).toMatchObject({ target: { type: 'subscription', id: subId, label }, before: null, after: { user_id: u.id, plan_name: 'Pro', status: 'active' } });
    expect(su).toMatchObject({ before: { status: 'active' }, after: { status: 'grace', expires_at: expiresAt } });
    expect(se).toMatchObject({ before: { expires_at: expiresAt }, after: { status: 'active' } });
    expect(Date.parse(se.after!.expires_at as string)).toBeGreaterThan(Date.parse(expiresAt));
    expect(sr).toMatchObject({ target: { id: subId, label }, before: { plan_name: 'Pro' }, after: null });
    expect(cu).toMatchObject({ target: { type: 'config', id: null }, before: { grace_days: 3 }, after: { grace_days: 5 } });
  });

  it('a refused action (a taken plan name, an unknown subscription) and an unchanged config write no entry', async () => {
    const admin = as(h.admin.token);
    const before = (await audits()).length;
    expect((await h.billingApi('POST', '/api/admin/plans', { ...admin, body: plan('Pro') })).status).toBe(409);
    expect((await h.billingApi('PUT', '/api/admin/subscriptions/00000000-0000-4000-8000-00000000dead/extend', { ...admin, body: { days: 3 } })).status).toBe(404);
    const config = (await h.billingApi('GET', '/api/admin/config', admin)).body;
    expect((await h.billingApi('PUT', '/api/admin/config', { ...admin, body: config })).status).toBe(200);
    expect(await audits()).toHaveLength(before);
  });
});
