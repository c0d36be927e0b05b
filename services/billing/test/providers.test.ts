import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeSignatureHeader } from '../src/app.ts';
import { PRO_ID, PRO_MONTH_ID, snapshot, startHarness, type Harness, type TestUser } from './harness.ts';
import { startStripeStandIn, startYooKassaStandIn, type StandIn, type YooKassaStandIn } from './provider-standins.ts';

const SHOP_ID = '123456';
const YOOKASSA_KEY = 'test_yookassa_secret_key_never_shown';
const STRIPE_KEY = 'sk_test_never_shown';
const STRIPE_WEBHOOK_SECRET = 'whsec_never_shown';

let h: Harness;
let yookassa: YooKassaStandIn;
let stripe: StandIn;
let usdVariant: string;

beforeAll(async () => {
  yookassa = await startYooKassaStandIn(SHOP_ID, YOOKASSA_KEY);
  stripe = await startStripeStandIn(STRIPE_KEY);
  h = await startHarness({
    publicUrl: 'https://board.example',
    providers: {
      yookassa: { shopId: SHOP_ID, secretKey: YOOKASSA_KEY, apiUrl: yookassa.url },
      stripe: { secretKey: STRIPE_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, apiUrl: stripe.url },
    },
  });
  const plan = await h.billingApi('PUT', `/api/admin/plans/${PRO_ID}`, {
    token: h.admin.token,
    body: {
      name: 'Pro',
      description: 'Для команд и больших проектов',
      is_active: true,
      limits: { max_board_count: -1, max_canvas_extent_w: 50000, max_canvas_extent_h: 50000, export_pdf_enabled: true },
      variants: [
        { id: PRO_MONTH_ID, days: 30, price_minor: 49900, currency: 'RUB', is_active: true },
        { days: 30, price_minor: 999, currency: 'USD', is_active: true },
      ],
    },
  });
  expect(plan.status).toBe(200);
  usdVariant = plan.body.plan.variants.find((v: { currency: string }) => v.currency === 'USD').id;
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await yookassa?.close();
  await stripe?.close();
});

const subscriptionOf = async (u: TestUser) => (await h.billingApi('GET', '/api/billing/subscription', { token: u.token })).body.subscription;

function noSecrets(value: unknown) {
  const text = JSON.stringify(value);
  for (const secret of [YOOKASSA_KEY, STRIPE_KEY, STRIPE_WEBHOOK_SECRET]) expect(text).not.toContain(secret);
}

describe('YooKassa (RUB)', () => {
  const notify = (paymentId: string, event = 'payment.succeeded') =>
    h.billingApi('POST', '/api/billing/webhooks/yookassa', {
      body: { type: 'notification', event, object: { id: paymentId, status: 'succeeded', paid: true } },
    });

  it('creates a redirect payment with an Idempotence-Key and answers its confirmation address', async () => {
    const u = await h.user();
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    expect(r.status).toBe(201);
    noSecrets(r.body);
    expect(r.body.data.checkout_url).toMatch(/^https:\/\/yoomoney\.example\//);
    const sent = yookassa.received.at(-1)!;
    expect(sent.headers['idempotence-key']).toBe(r.body.data.order_id);
    expect(JSON.parse(sent.body)).toMatchObject({
      amount: { value: '499.00', currency: 'RUB' },
      capture: true,
      confirmation: { type: 'redirect', return_url: `https://board.example/dashboard?payment=success&order=${r.body.data.order_id}` },
      metadata: { order_id: r.body.data.order_id },
    });
  });

  it('a notification the provider does not confirm is rejected; the confirmed one pays once', async () => {
    const u = await h.user();
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    const { rows } = await h.pool.query('SELECT provider_payment_id FROM payments WHERE id = $1', [r.body.data.order_id]);
    const paymentId = rows[0].provider_payment_id as string;

    // Claims success, but the API still says pending.
    const before = await snapshot(h.pool);
    const early = await notify(paymentId);
    expect(early.status).toBe(400);
    expect(early.body.code).toBe('WEBHOOK_REJECTED');
    // A payment the provider never heard of.
    expect((await notify('2c-forged-payment-id')).status).toBe(400);
    expect(await snapshot(h.pool)).toBe(before);
    expect(await subscriptionOf(u)).toBeNull();

    yookassa.setStatus(paymentId, 'succeeded');
    const ok = await notify(paymentId);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toBe('paid');
    expect((await notify(paymentId)).body.result).toBe('already_paid');
    expect(await subscriptionOf(u)).toMatchObject({ plan_name: 'Pro', status: 'active' });
  });

  it('a confirmed payment whose amount differs from the order is rejected', async () => {
    const u = await h.user();
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    const { rows } = await h.pool.query('SELECT provider_payment_id FROM payments WHERE id = $1', [r.body.data.order_id]);
    yookassa.setStatus(rows[0].provider_payment_id, 'succeeded');
    yookassa.setAmount(rows[0].provider_payment_id, '1.00');
    expect((await notify(rows[0].provider_payment_id)).status).toBe(400);
    expect(await subscriptionOf(u)).toBeNull();
  });

  it('a canceled payment is recorded as failed', async () => {
    const u = await h.user();
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: PRO_MONTH_ID } });
    const { rows } = await h.pool.query('SELECT provider_payment_id FROM payments WHERE id = $1', [r.body.data.order_id]);
    yookassa.setStatus(rows[0].provider_payment_id, 'canceled');
    expect((await notify(rows[0].provider_payment_id, 'payment.canceled')).body.result).toBe('failed');
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments).toMatchObject([{ status: 'failed', provider: 'yookassa' }]);
  });
});

describe('Stripe Checkout (USD, EUR)', () => {
  const event = (orderId: string, sessionId: string, type = 'checkout.session.completed', amount = 999) =>
    JSON.stringify({
      id: 'evt_1',
      type,
      data: { object: { id: sessionId, client_reference_id: orderId, payment_status: 'paid', amount_total: amount, currency: 'usd' } },
    });
  const post = (body: string, signature: string | undefined) =>
    h.billingApi('POST', '/api/billing/webhooks/stripe', {
      raw: body,
      headers: signature === undefined ? {} : { 'stripe-signature': signature },
    });
  const nowS = () => Math.floor(h.clock().getTime() / 1000);

  async function order(u: TestUser) {
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: usdVariant } });
    expect(r.status).toBe(201);
    noSecrets(r.body);
    const { rows } = await h.pool.query('SELECT provider_payment_id FROM payments WHERE id = $1', [r.body.data.order_id]);
    return { orderId: r.body.data.order_id as string, sessionId: rows[0].provider_payment_id as string, url: r.body.data.checkout_url as string };
  }

  it('creates a Checkout Session for the order and answers its url', async () => {
    const u = await h.user();
    const o = await order(u);
    expect(o.url).toBe(`https://checkout.stripe.example/c/pay/${o.sessionId}`);
    const sent = stripe.received.at(-1)!;
    expect(sent.headers['idempotency-key']).toBe(o.orderId);
    const form = new URLSearchParams(sent.body);
    expect(form.get('mode')).toBe('payment');
    expect(form.get('client_reference_id')).toBe(o.orderId);
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('999');
    expect(form.get('success_url')).toBe(`https://board.example/dashboard?payment=success&order=${o.orderId}`);
  });

  it('a forged, missing, stale or body-altered signature is rejected and changes nothing', async () => {
    const u = await h.user();
    const o = await order(u);
    const body = event(o.orderId, o.sessionId);
    const before = await snapshot(h.pool);
    for (const sig of [
      undefined,
      'garbage',
      stripeSignatureHeader('whsec_wrong', nowS(), body),
      stripeSignatureHeader(STRIPE_WEBHOOK_SECRET, nowS() - 3600, body),
      stripeSignatureHeader(STRIPE_WEBHOOK_SECRET, nowS(), body.replace('999', '1')),
    ]) {
      const r = await post(body, sig);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('WEBHOOK_REJECTED');
      noSecrets(r.body);
    }
    expect(await snapshot(h.pool)).toBe(before);
    expect(await subscriptionOf(u)).toBeNull();
  });

  it('a signed completion pays the order once, replays change nothing, a late expiry cannot undo it', async () => {
    const u = await h.user();
    const o = await order(u);
    const body = event(o.orderId, o.sessionId);
    const sig = stripeSignatureHeader(STRIPE_WEBHOOK_SECRET, nowS(), body);
    const first = await post(body, sig);
    expect(first.status).toBe(200);
    expect(first.body.result).toBe('paid');
    expect((await post(body, sig)).body.result).toBe('already_paid');
    const expired = event(o.orderId, o.sessionId, 'checkout.session.expired');
    expect((await post(expired, stripeSignatureHeader(STRIPE_WEBHOOK_SECRET, nowS(), expired))).body.result).toBe('already_paid');
    expect(await subscriptionOf(u)).toMatchObject({ plan_name: 'Pro', status: 'active' });
    const payments = (await h.billingApi('GET', '/api/billing/payments', { token: u.token })).body.payments;
    expect(payments).toMatchObject([{ status: 'paid', amount_minor: 999, currency: 'USD', provider: 'stripe' }]);
  });

  it('events about other things are acknowledged and ignored', async () => {
    const body = JSON.stringify({ id: 'evt_2', type: 'customer.created', data: { object: { id: 'cus_1' } } });
    const r = await post(body, stripeSignatureHeader(STRIPE_WEBHOOK_SECRET, nowS(), body));
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('ignored');
  });
});

describe('provider failures', () => {
  it('a provider that does not answer gives "Ошибка создания заказа" and a failed order, never a 500', async () => {
    const u = await h.user();
    await stripe.close();
    const r = await h.billingApi('POST', '/api/billing/checkout', { token: u.token, body: { plan_id: PRO_ID, variant_id: usdVariant } });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'CHECKOUT_FAILED', error: 'Ошибка создания заказа' });
    noSecrets(r.body);
    const { rows } = await h.pool.query("SELECT status FROM payments WHERE user_id = $1", [u.id]);
    expect(rows).toEqual([{ status: 'failed' }]);
  });
});
