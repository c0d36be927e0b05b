import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, PRO_ID, PRO_MONTH_ID, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ nats: true });
}, 90_000);
afterAll(async () => {
  await h?.stop();
});

describe('entitlements reach boards over NATS JetStream', () => {
  it('a Free user hits BOARD_LIMIT_REACHED at the plan limit and can create more after paying', async () => {
    const u = await h.user();
    await eventually(async () => {
      const r = await h.boardsApi('GET', '/api/boards?limit=1', { token: u.token });
      expect(r.body.limits).toMatchObject({ max: 3, canCreate: true });
    });
    for (let i = 1; i <= 3; i++) {
      const r = await h.boardsApi('POST', '/api/boards', { token: u.token, body: { title: `Доска ${i}`, folder_id: null } });
      expect(r.status).toBe(201);
    }
    const refused = await h.boardsApi('POST', '/api/boards', { token: u.token, body: { title: 'Четвёртая', folder_id: null } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'BOARD_LIMIT_REACHED',
      error: 'Достигнут лимит досок. Обновите план для создания новых досок.',
    });
    expect((await h.boardsApi('GET', '/api/boards?limit=1', { token: u.token })).body.limits).toEqual({ current: 3, max: 3, canCreate: false });

    const checkout = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(checkout.status).toBe(201);
    const paid = await fetch(checkout.body.data.checkout_url, { method: 'POST', body: new URLSearchParams({ outcome: 'pay' }), redirect: 'manual' });
    expect(paid.status).toBe(303);

    await eventually(async () => {
      const r = await h.boardsApi('GET', '/api/boards?limit=1', { token: u.token });
      expect(r.body.limits).toEqual({ current: 3, max: -1, canCreate: true });
    });
    const fourth = await h.boardsApi('POST', '/api/boards', { token: u.token, body: { title: 'Четвёртая', folder_id: null } });
    expect(fourth.status).toBe(201);
  });
});
