import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CURRENCIES } from '@wb/contracts';
import { appError } from '@wb/service-kit';
import type { PaymentProvider } from './types.ts';

export const TEST_CHECKOUT_PATH = '/api/billing/test-checkout';

const Notification = z.object({
  order_id: z.string().uuid(),
  event: z.enum(['payment.succeeded', 'payment.canceled']),
  signature: z.string(),
});
export type TestNotification = z.infer<typeof Notification>;

export interface TestProvider extends PaymentProvider {
  /** The notification its checkout page sends for "Оплатить" / "Отклонить". */
  notification(orderId: string, paid: boolean): TestNotification;
}

/**
 * The built-in provider of development and the embedded mode: a checkout page served by billing
 * itself, whose buttons produce a signed notification handled like any provider's. It accepts every
 * currency no real provider is configured for.
 */
export function createTestProvider(opts: { secret?: string }): TestProvider {
  const secret = opts.secret ?? randomBytes(32).toString('hex');
  const sign = (orderId: string, event: string) => createHmac('sha256', secret).update(`${orderId}:${event}`).digest('hex');
  return {
    name: 'test',
    currencies: CURRENCIES,
    async createCheckout(req) {
      return { providerPaymentId: `test_${req.orderId}`, checkoutUrl: `${req.baseUrl}${TEST_CHECKOUT_PATH}/${req.orderId}` };
    },
    notification(orderId, paid) {
      const event = paid ? 'payment.succeeded' : 'payment.canceled';
      return { order_id: orderId, event, signature: sign(orderId, event) };
    },
    async readNotification({ rawBody }) {
      let parsed: TestNotification;
      try {
        parsed = Notification.parse(JSON.parse(rawBody.toString('utf8')));
      } catch {
        throw appError('WEBHOOK_REJECTED');
      }
      const expected = Buffer.from(sign(parsed.order_id, parsed.event), 'hex');
      const got = Buffer.from(parsed.signature, 'hex');
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw appError('WEBHOOK_REJECTED');
      return {
        orderId: parsed.order_id,
        providerPaymentId: `test_${parsed.order_id}`,
        outcome: parsed.event === 'payment.succeeded' ? 'paid' : 'failed',
      };
    },
  };
}
