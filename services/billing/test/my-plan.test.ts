// Issue 32 item 12 ("Мой тариф"): the auto-renew switch, the owner's orders, and PDF receipts drawn
// by the export service (a real export service from its package, called over /internal/receipts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessTransport } from '@wb/events';
import { createDatabase, startPostgres } from '@wb/testkit';
import { startServices, type StartedServices } from '@wb/testkit/services';
import { PRO_ID, PRO_MONTH_ID, startHarness, type Harness, type TestUser } from './harness.ts';

let h: Harness;
let exportSvc: StartedServices;
let stopPg: () => Promise<void>;
const transport = createInProcessTransport();

beforeAll(async () => {
  const pg = await startPostgres();
  stopPg = pg.stop;
  exportSvc = await startServices(['@wb/export'], {
    databaseUrl: await createDatabase(pg.url),
    transport,
    // Receipts need neither boards nor realtime; export's configuration only insists on addresses.
    env: { AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks', BOARDS_INTERNAL_URL: 'http://127.0.0.1:9', REALTIME_INTERNAL_URL: 'http://127.0.0.1:9' },
  });
  h = await startHarness({ exportUrl: exportSvc.urls.export, internalToken: exportSvc.internalToken });
}, 90_000);
afterAll(async () => {
  await h?.stop();
  await exportSvc?.stop();
  await transport.close();
  await stopPg?.();
});

async function paidOrder(u: TestUser, outcome: 'pay' | 'decline' = 'pay') {
  const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
  expect(r.status).toBe(201);
  const id = r.body.data.order_id as string;
  const chosen = await h.billingApi('POST', `/api/billing/test-checkout/${id}`, { token: u.token, body: { outcome } });
  expect(chosen.status).toBe(200);
  return id;
}

const receipt = (id: string, token?: string) =>
  fetch(`${h.billingBase}/api/billing/payments/${id}/receipt`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'wb-receipt-')), 'r.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('receipts', () => {
  it("a paid payment's receipt is a PDF with the amount, plan, buyer and payment number", async () => {
    const u = await h.user({ name: 'Анна Покупателева' });
    const id = await paidOrder(u);
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments.map((p: { id: string }) => p.id)).toEqual([id]);

    const r = await receipt(id, u.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="receipt-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.pdf"$/);
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain('Кассовый чек');
    expect(text).toMatch(/499,00\s₽/);
    expect(text).toContain('Pro, 30 дн.');
    expect(text).toContain('Анна Покупателева');
    expect(text).toContain(u.email);
    expect(text).toContain(id);
  });

  it("only the payer gets it; a declined payment has none; unknown or malformed ids are 404; no token is 401", async () => {
    const owner = await h.user();
    const stranger = await h.user();
    const paid = await paidOrder(owner);
    const stranger404 = await receipt(paid, stranger.token);
    expect(stranger404.status).toBe(404);
    expect(await stranger404.json()).toMatchObject({ code: 'PAYMENT_NOT_FOUND', error: 'Платёж не найден' });
    expect((await receipt(paid)).status).toBe(401);

    const declined = await paidOrder(owner, 'decline');
    const none = await receipt(declined, owner.token);
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ code: 'RECEIPT_NOT_AVAILABLE', error: 'Чек есть только у оплаченного платежа' });

    // A pending order is not a payment yet.
    const pending = await h.billingApi('POST', '/api/billing/checkout', { token: owner.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect((await receipt(pending.body.data.order_id, owner.token)).status).toBe(404);
    for (const bad of ['00000000-0000-4000-8000-00000000dead', 'nope', '%00', '1'.repeat(5000)]) {
      const r = await receipt(bad, owner.token);
      expect(r.status, bad.slice(0, 20)).toBe(404);
      expect((await r.json()).error).toMatch(/[а-я]/i);
    }
  });

  it("export's /internal/receipts is not there for callers without the internal credential (404), and bad input with a Russian 4xx", async () => {
    const url = `${exportSvc.urls.export}/internal/receipts`;
    const valid = {
      payment_id: '00000000-0000-4000-8000-0000000000aa',
      user_name: 'Имя',
      user_email: 'a@example.com',
      plan_name: 'Pro',
      days: 30,
      amount_minor: 49900,
      currency: 'RUB',
      provider: 'test',
      paid_at: new Date().toISOString(),
    };
    const post = (body: unknown, headers: Record<string, string> = { 'x-internal-token': exportSvc.internalToken }) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await post(valid, {})).status).toBe(404);
    expect((await post(valid, { 'x-internal-token': 'guess' })).status).toBe(404);
    expect((await post(valid)).status).toBe(200);
    const bad: unknown[] = [
      {},
      [],
      { ...valid, amount_minor: -1 },
      { ...valid, amount_minor: 1.5 },
      { ...valid, currency: 'XXX' },
      { ...valid, payment_id: 'x' },
      { ...valid, paid_at: 'вчера' },
      { ...valid, plan_name: 'x'.repeat(1000) },
      { ...valid, days: 0 },
    ];
    for (const body of bad) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await r.json()).error).toMatch(/[а-я]/i);
    }
    // NUL and lone surrogates are refused by the input guard; other control characters are drawn around.
    for (const user_name of ['a\u0000b', 'a\ud800c']) {
      const r = await post({ ...valid, user_name });
      expect(r.status).toBe(400);
      expect((await r.json()).error).toMatch(/[а-я]/i);
    }
    const odd = await post({ ...valid, user_name: 'a\u0007b\tc\u009f', plan_name: 'Pro\u001b' });
    expect(odd.status).toBe(200);
    expect(Buffer.from(await odd.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('auto-renew', () => {
  it('cancel keeps the plan until expiry; resume turns renewal back on; neither exists without a subscription', async () => {
    const u = await h.user();
    expect((await h.billingApi('POST', '/api/billing/resume-auto-renew', { token: u.token })).body).toMatchObject({ code: 'SUBSCRIPTION_NOT_FOUND' });
    await paidOrder(u);
    const before = (await h.billingApi('GET', '/api/billing/subscription', { token: u.token })).body.subscription;
    expect(before.auto_renew).toBe(true);

    const cancelled = await h.billingApi('POST', '/api/billing/cancel-auto-renew', { token: u.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.subscription).toMatchObject({ auto_renew: false, plan_name: 'Pro', status: 'active', expires_at: before.expires_at });
    const after = (await h.billingApi('GET', '/api/billing/subscription', { token: u.token })).body;
    expect(after.subscription).toMatchObject({ auto_renew: false, calculated_status: 'active', plan_name: 'Pro' });
    expect(after.entitlements).toMatchObject({ planName: 'Pro' });

    const resumed = await h.billingApi('POST', '/api/billing/resume-auto-renew', { token: u.token });
    expect(resumed.status).toBe(200);
    expect(resumed.body.subscription).toMatchObject({ auto_renew: true, expires_at: before.expires_at });
    expect((await h.billingApi('POST', '/api/billing/resume-auto-renew', {})).status).toBe(401);
  });
});
