import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_ID, PRO_ID, PRO_MONTH_ID, snapshot, startHarness, type Harness, type TestUser } from './harness.ts';

let h: Harness;
let u: TestUser;
let subId: string;
let inactiveVariant: string;
let planWithInactive: string;
const UNKNOWN = '00000000-0000-4000-8000-0000000fffff';

const limits = { max_board_count: 5, max_canvas_extent_w: 8000, max_canvas_extent_h: 8000, export_pdf_enabled: false };
const plan = (over: Record<string, unknown> = {}) => ({
  name: 'Новый тариф',
  description: '',
  is_active: true,
  limits,
  variants: [{ days: 30, price_minor: 10000, currency: 'RUB', is_active: true }],
  ...over,
});
const variant = (over: Record<string, unknown>) => ({ days: 30, price_minor: 10000, currency: 'RUB', is_active: true, ...over });

beforeAll(async () => {
  h = await startHarness();
  u = await h.user();
  const created = await h.billingApi('POST', '/api/admin/plans', {
    token: h.admin.token,
    body: plan({ name: 'С неактивным', variants: [variant({}), variant({ days: 365, is_active: false })] }),
  });
  inactiveVariant = created.body.plan.variants.find((v: { is_active: boolean }) => !v.is_active).id;
  const sub = await h.billingApi('POST', '/api/admin/subscriptions', { token: h.admin.token, body: { user_id: u.id, plan_id: PRO_ID, days: 30 } });
  subId = sub.body.subscription.id;
  planWithInactive = created.body.plan.id;
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

type Case = [string, string, string, unknown, number, string, string?];

describe('bad input: a clear 4xx and nothing stored', () => {
  const cases = (): Case[] => [
    // checkout
    ['checkout: unknown plan', 'POST', '/api/billing/checkout', { plan_id: UNKNOWN, variant_id: PRO_MONTH_ID }, 404, 'PLAN_NOT_FOUND', 'Тариф не найден'],
    ['checkout: unknown variant', 'POST', '/api/billing/checkout', { plan_id: PRO_ID, variant_id: UNKNOWN }, 404, 'VARIANT_NOT_FOUND', 'Вариант тарифа не найден'],
    ['checkout: variant of another plan', 'POST', '/api/billing/checkout', { plan_id: FREE_ID, variant_id: PRO_MONTH_ID }, 404, 'VARIANT_NOT_FOUND'],
    [
      'checkout: inactive variant',
      'POST',
      '/api/billing/checkout',
      { plan_id: planWithInactive, variant_id: inactiveVariant },
      409,
      'VARIANT_INACTIVE',
      'Этот вариант тарифа сейчас недоступен',
    ],
    ['checkout: not a uuid', 'POST', '/api/billing/checkout', { plan_id: 'pro', variant_id: 1 }, 400, 'VALIDATION_ERROR', 'Тариф не найден'],
    ['checkout: no body', 'POST', '/api/billing/checkout', undefined, 400, 'VALIDATION_ERROR'],
    // plans
    ['plan: negative price', 'POST', '/api/admin/plans', plan({ variants: [variant({ price_minor: -1 })] }), 400, 'VALIDATION_ERROR',
      'Цена должна быть целым неотрицательным числом в минимальных единицах валюты'],
    ['plan: fractional price', 'POST', '/api/admin/plans', plan({ variants: [variant({ price_minor: 99.5 })] }), 400, 'VALIDATION_ERROR',
      'Цена должна быть целым неотрицательным числом в минимальных единицах валюты'],
    ['plan: price as a string', 'POST', '/api/admin/plans', plan({ variants: [variant({ price_minor: '100' })] }), 400, 'VALIDATION_ERROR'],
    ['plan: days 0', 'POST', '/api/admin/plans', plan({ variants: [variant({ days: 0 })] }), 400, 'VALIDATION_ERROR',
      'Количество дней должно быть целым числом не меньше 1'],
    ['plan: unknown currency', 'POST', '/api/admin/plans', plan({ variants: [variant({ currency: 'GBP' })] }), 400, 'VALIDATION_ERROR',
      'Валюта должна быть одной из: RUB, USD, EUR'],
    ['plan: no variants', 'POST', '/api/admin/plans', plan({ variants: [] }), 400, 'VALIDATION_ERROR',
      'У тарифа должен остаться хотя бы один активный вариант'],
    ['plan: only inactive variants', 'POST', '/api/admin/plans', plan({ variants: [variant({ is_active: false })] }), 400, 'VALIDATION_ERROR'],
    ['plan: empty name', 'POST', '/api/admin/plans', plan({ name: '   ' }), 400, 'VALIDATION_ERROR', 'Название тарифа обязательно'],
    ['plan: no limits', 'POST', '/api/admin/plans', plan({ limits: undefined }), 400, 'VALIDATION_ERROR', 'Укажите лимиты тарифа'],
    ['plan: board limit -2', 'POST', '/api/admin/plans', plan({ limits: { ...limits, max_board_count: -2 } }), 400, 'VALIDATION_ERROR'],
    ['plan: duplicate name', 'POST', '/api/admin/plans', plan({ name: 'pro' }), 409, 'PLAN_ALREADY_EXISTS'],
    ['plan: edit unknown', 'PUT', `/api/admin/plans/${UNKNOWN}`, plan(), 404, 'PLAN_NOT_FOUND'],
    ['plan: edit bad id', 'PUT', '/api/admin/plans/abc', plan(), 404, 'PLAN_NOT_FOUND'],
    ['plan: delete unknown', 'DELETE', `/api/admin/plans/${UNKNOWN}`, undefined, 404, 'PLAN_NOT_FOUND'],
    // subscriptions
    ['subscription: days 0', 'POST', '/api/admin/subscriptions', { user_id: u.id, plan_id: PRO_ID, days: 0 }, 400, 'VALIDATION_ERROR',
      'Количество дней должно быть целым числом не меньше 1'],
    ['subscription: fractional days', 'POST', '/api/admin/subscriptions', { user_id: u.id, plan_id: PRO_ID, days: 1.5 }, 400, 'VALIDATION_ERROR'],
    ['subscription: unknown plan', 'POST', '/api/admin/subscriptions', { user_id: u.id, plan_id: UNKNOWN, days: 30 }, 404, 'PLAN_NOT_FOUND'],
    ['subscription: unknown user', 'POST', '/api/admin/subscriptions', { user_id: UNKNOWN, plan_id: PRO_ID, days: 30 }, 404, 'USER_NOT_FOUND'],
    ['subscription: unknown status', 'PUT', `/api/admin/subscriptions/${subId}`, { plan_id: PRO_ID, expires_at: '2030-01-01T00:00:00Z', status: 'paused' },
      400, 'VALIDATION_ERROR', 'Статус должен быть одним из: active, grace, expired'],
    ['subscription: bad date', 'PUT', `/api/admin/subscriptions/${subId}`, { plan_id: PRO_ID, expires_at: 'завтра', status: 'active' }, 400, 'VALIDATION_ERROR'],
    ['subscription: edit unknown', 'PUT', `/api/admin/subscriptions/${UNKNOWN}`, { plan_id: PRO_ID, expires_at: '2030-01-01T00:00:00Z', status: 'active' },
      404, 'SUBSCRIPTION_NOT_FOUND'],
    ['subscription: extend by 0', 'PUT', `/api/admin/subscriptions/${subId}/extend`, { days: 0 }, 400, 'VALIDATION_ERROR'],
    ['subscription: extend by -5', 'PUT', `/api/admin/subscriptions/${subId}/extend`, { days: -5 }, 400, 'VALIDATION_ERROR'],
    ['subscription: extend unknown', 'PUT', `/api/admin/subscriptions/${UNKNOWN}/extend`, { days: 5 }, 404, 'SUBSCRIPTION_NOT_FOUND'],
    ['subscription: revoke bad id', 'DELETE', '/api/admin/subscriptions/1', undefined, 404, 'SUBSCRIPTION_NOT_FOUND'],
    // config
    ['config: grace -1', 'PUT', '/api/admin/config', { grace_days: -1 }, 400, 'VALIDATION_ERROR', 'Льготный период — целое число дней от 0 до 365'],
    ['config: billing as text', 'PUT', '/api/admin/config', { billing_enabled: 'no' }, 400, 'VALIDATION_ERROR'],
    ['config: empty', 'PUT', '/api/admin/config', {}, 400, 'VALIDATION_ERROR', 'Нет изменений настроек'],
  ];

  it('answers each case with its code and message and leaves every table as it was', async () => {
    for (const [name, method, path, body, status, code, message] of cases()) {
      const before = await snapshot(h.pool);
      const token = path.startsWith('/api/admin') ? h.admin.token : u.token;
      const r = await h.billingApi(method, path, { token, body });
      expect(r.status, name).toBe(status);
      expect(r.body.code, name).toBe(code);
      expect(typeof r.body.error, name).toBe('string');
      if (message) expect(r.body.error, name).toBe(message);
      expect(await snapshot(h.pool), name).toBe(before);
    }
  });

  it('malformed JSON is a 400 INVALID_JSON', async () => {
    const r = await h.billingApi('POST', '/api/admin/plans', { token: h.admin.token, raw: '{"name":' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('INVALID_JSON');
  });
});
