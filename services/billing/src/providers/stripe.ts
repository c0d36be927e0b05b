import { z } from 'zod';
import { appError } from '@wb/service-kit';
import { verifyStripeSignature } from '../domain/stripe-signature.ts';
import type { Clock } from '../clock.ts';
import type { PaymentProvider, Settlement } from './types.ts';

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}

const Session = z.object({ id: z.string().min(1), url: z.string().url() });
const Event = z.object({
  type: z.string(),
  data: z.object({
    object: z.object({
      id: z.string(),
      client_reference_id: z.string().uuid().nullable().optional(),
      payment_status: z.string().optional(),
      amount_total: z.number().int().nullable().optional(),
      currency: z.string().nullable().optional(),
    }),
  }),
});

const TIMEOUT_MS = 10_000;

/**
 * Stripe Checkout (USD, EUR) over its HTTP API, no SDK: a Checkout Session per order (the order id
 * as client_reference_id and Idempotency-Key), and webhooks believed only with a valid
 * Stripe-Signature over the raw body.
 */
export function createStripeProvider(cfg: StripeConfig, clock: Clock): PaymentProvider {
  const api = cfg.apiUrl.replace(/\/$/, '');
  return {
    name: 'stripe',
    currencies: ['USD', 'EUR'],
    async createCheckout(req) {
      const form = new URLSearchParams({
        mode: 'payment',
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: req.orderId,
        'metadata[order_id]': req.orderId,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': req.currency.toLowerCase(),
        'line_items[0][price_data][unit_amount]': String(req.amountMinor),
        'line_items[0][price_data][product_data][name]': req.description,
      });
      const res = await fetch(`${api}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${cfg.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': req.orderId,
        },
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`stripe create session: HTTP ${res.status}`);
      const s = Session.parse(await res.json());
      return { providerPaymentId: s.id, checkoutUrl: s.url };
    },
    async readNotification({ rawBody, headers }) {
      const header = headers['stripe-signature'];
      const nowS = Math.floor(clock().getTime() / 1000);
      if (!verifyStripeSignature(typeof header === 'string' ? header : undefined, rawBody, cfg.webhookSecret, nowS)) {
        throw appError('WEBHOOK_REJECTED');
      }
      let event: z.infer<typeof Event>;
      try {
        event = Event.parse(JSON.parse(rawBody.toString('utf8')));
      } catch {
        throw appError('WEBHOOK_REJECTED');
      }
      const s = event.data.object;
      let outcome: Settlement['outcome'] | null = null;
      if (event.type === 'checkout.session.completed' && s.payment_status === 'paid') outcome = 'paid';
      else if (event.type === 'checkout.session.async_payment_succeeded') outcome = 'paid';
      else if (event.type === 'checkout.session.async_payment_failed' || event.type === 'checkout.session.expired') outcome = 'failed';
      if (!outcome || !s.client_reference_id) return null;
      return {
        orderId: s.client_reference_id,
        providerPaymentId: s.id,
        outcome,
        amountMinor: s.amount_total ?? undefined,
        currency: s.currency?.toUpperCase(),
      };
    },
  };
}
