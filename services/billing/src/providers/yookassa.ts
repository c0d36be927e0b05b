import { z } from 'zod';
import { appError } from '@wb/service-kit';
import { decimalToMinor, minorToDecimal } from '../domain/money.ts';
import type { PaymentProvider } from './types.ts';

export interface YooKassaConfig {
  shopId: string;
  secretKey: string;
  apiUrl: string;
}

const CreatedPayment = z.object({ id: z.string().min(1), confirmation: z.object({ confirmation_url: z.string().url() }) });
const FetchedPayment = z.object({
  id: z.string(),
  status: z.string(),
  paid: z.boolean().optional(),
  amount: z.object({ value: z.string(), currency: z.string() }),
  metadata: z.object({ order_id: z.string().uuid() }).partial().optional(),
});
const Notification = z.object({ event: z.string(), object: z.object({ id: z.string().min(1).max(100) }) });

const TIMEOUT_MS = 10_000;

/**
 * YooKassa (RUB): a payment with redirect confirmation, created with an Idempotence-Key (the order
 * id, so a retried checkout never makes a second payment). Its notifications carry no signature,
 * so one is believed only after fetching that payment back from the API with our credentials.
 */
export function createYooKassaProvider(cfg: YooKassaConfig): PaymentProvider {
  const auth = `Basic ${Buffer.from(`${cfg.shopId}:${cfg.secretKey}`).toString('base64')}`;
  const api = cfg.apiUrl.replace(/\/$/, '');
  return {
    name: 'yookassa',
    currencies: ['RUB'],
    async createCheckout(req) {
      const res = await fetch(`${api}/payments`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json', 'idempotence-key': req.orderId },
        body: JSON.stringify({
          amount: { value: minorToDecimal(req.amountMinor), currency: req.currency },
          capture: true,
          confirmation: { type: 'redirect', return_url: req.successUrl },
          description: req.description.slice(0, 128),
          metadata: { order_id: req.orderId },
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`yookassa create payment: HTTP ${res.status}`);
      const p = CreatedPayment.parse(await res.json());
      return { providerPaymentId: p.id, checkoutUrl: p.confirmation.confirmation_url };
    },
    async readNotification({ rawBody }) {
      let id: string;
      try {
        id = Notification.parse(JSON.parse(rawBody.toString('utf8'))).object.id;
      } catch {
        throw appError('WEBHOOK_REJECTED');
      }
      const res = await fetch(`${api}/payments/${encodeURIComponent(id)}`, {
        headers: { authorization: auth },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (res.status === 404) throw appError('WEBHOOK_REJECTED');
      // Anything else unexpected is ours or theirs to retry: a 5xx makes YooKassa send it again.
      if (!res.ok) throw new Error(`yookassa get payment: HTTP ${res.status}`);
      const p = FetchedPayment.parse(await res.json());
      const orderId = p.metadata?.order_id;
      if (!orderId) throw appError('WEBHOOK_REJECTED');
      const outcome = p.status === 'succeeded' && p.paid !== false ? 'paid' : p.status === 'canceled' ? 'failed' : null;
      // Not final yet (pending, waiting_for_capture): the provider does not confirm what the notification claims.
      if (!outcome) throw appError('WEBHOOK_REJECTED');
      return { orderId, providerPaymentId: p.id, outcome, amountMinor: decimalToMinor(p.amount.value) ?? -1, currency: p.amount.currency };
    },
  };
}
