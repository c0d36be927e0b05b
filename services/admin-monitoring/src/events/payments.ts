import type { PoolClient } from '@wb/db';
import { defineConsumer } from '@wb/events';
import { paymentLine } from '../domain/activity-texts.ts';
import { utcDay } from '../domain/day.ts';
import { revenueMinorOf } from '../domain/money.ts';
import { addActivityAbout } from '../store/activity.ts';
import { bump, bumpDaily } from '../store/counters.ts';
import { notePayment } from '../store/projections.ts';

/** Revenue and today's payments amount (RUB only, see domain/money.ts) and the payment lines. */
export const paymentsConsumer = defineConsumer({
  durable: 'admin-payments',
  types: ['payment.succeeded', 'payment.failed'],
  async handle(event, client: PoolClient) {
    const at = event.occurredAt;
    const ok = event.type === 'payment.succeeded';
    const { paymentId, userId, amountMinor, currency } = event.data;
    if (!(await notePayment(client, { id: paymentId, ok, amountMinor, currency, at }))) return;
    await addActivityAbout(client, userId, at, (who) => paymentLine(ok, amountMinor, currency, who));
    if (ok) {
      const minor = revenueMinorOf(amountMinor, currency);
      await bump(client, 'revenue_minor', minor);
      await bumpDaily(client, utcDay(at), 'payments_minor', minor);
    }
  },
});
