import { randomUUID } from 'node:crypto';
import type { Pool } from '@wb/db';
import { withTransaction } from '@wb/db';
import { appError } from '@wb/service-kit';
import type { Logger } from '@wb/service-kit';
import { publishPayment } from '../events/publish.ts';
import type { Providers } from '../providers/index.ts';
import type { PaymentProvider, Settlement } from '../providers/types.ts';
import { getConfig } from '../store/config.ts';
import { getPlan, getVariant } from '../store/plans.ts';
import { failUnsentOrder, insertOrder, orderById, setProviderPayment, settleOrderRow } from '../store/payments.ts';
import { grantPaidDays } from './subscriptions.ts';

export interface CheckoutDeps {
  pool: Pool;
  providers: Providers;
  logger: Logger;
}

/** POST /billing/checkout: an order for one active, paid variant, handed to the provider of its currency. */
export async function createCheckout(
  deps: CheckoutDeps,
  user: { id: string; name: string },
  input: { plan_id: string; variant_id: string },
  urls: { baseUrl: string },
): Promise<{ order_id: string; checkout_url: string }> {
  const { pool, providers } = deps;
  const config = await getConfig(pool);
  if (!config.billing_enabled) throw appError('BILLING_DISABLED');
  const variant = await getVariant(pool, input.plan_id, input.variant_id);
  if (!variant) throw appError((await getPlan(pool, input.plan_id)) ? 'VARIANT_NOT_FOUND' : 'PLAN_NOT_FOUND');
  if (!variant.plan_active) throw appError('PLAN_INACTIVE');
  if (!variant.is_active) throw appError('VARIANT_INACTIVE');
  if (variant.price_minor === 0) throw appError('FREE_PLAN_NO_CHECKOUT');
  const provider = providers.forCurrency(variant.currency);
  if (!provider) throw appError('CURRENCY_NOT_SUPPORTED');

  const orderId = randomUUID();
  await insertOrder(pool, {
    id: orderId,
    user_id: user.id,
    user_name: user.name,
    plan_id: variant.plan_id,
    plan_name: variant.plan_name,
    variant_id: variant.id,
    days: variant.days,
    amount_minor: variant.price_minor,
    currency: variant.currency,
    provider: provider.name,
  });
  try {
    const session = await provider.createCheckout({
      orderId,
      amountMinor: variant.price_minor,
      currency: variant.currency,
      description: `${variant.plan_name}, ${variant.days} дн.`,
      baseUrl: urls.baseUrl,
      successUrl: `${urls.baseUrl}/dashboard?payment=success&order=${orderId}`,
      cancelUrl: `${urls.baseUrl}/pricing?payment=cancelled`,
    });
    await setProviderPayment(pool, orderId, session.providerPaymentId, session.checkoutUrl);
    return { order_id: orderId, checkout_url: session.checkoutUrl };
  } catch (err) {
    // The message only: provider errors never carry our keys, but their request objects might.
    deps.logger.error({ provider: provider.name, orderId, error: (err as Error).message }, 'checkout failed at the provider');
    await failUnsentOrder(pool, orderId);
    throw appError('CHECKOUT_FAILED');
  }
}

export type SettleResult = 'paid' | 'failed' | 'already_paid' | 'already_failed';

/**
 * Applies a verified notification to its order exactly once: the order row is locked, a paid order
 * stays paid (repeats and late "failed" notifications change nothing), and paying grants the days
 * in the same transaction as the status change.
 */
export async function settleOrder(pool: Pool, provider: PaymentProvider, s: Settlement, now: Date): Promise<SettleResult> {
  return withTransaction(pool, async (client) => {
    const order = await orderById(client, s.orderId, true);
    if (!order || order.provider !== provider.name) throw appError('WEBHOOK_REJECTED');
    if (s.amountMinor !== undefined && s.amountMinor !== order.amount_minor) throw appError('WEBHOOK_REJECTED');
    if (s.currency !== undefined && s.currency !== order.currency) throw appError('WEBHOOK_REJECTED');
    if (order.status === 'paid') return 'already_paid';
    const event = {
      paymentId: order.id,
      userId: order.user_id,
      planId: order.plan_id,
      amountMinor: order.amount_minor,
      currency: order.currency,
      provider: provider.name,
    };
    if (s.outcome === 'failed') {
      if (order.status === 'failed') return 'already_failed';
      await settleOrderRow(client, order.id, 'failed');
      await publishPayment(client, 'failed', event);
      return 'failed';
    }
    // A provider may confirm a payment after an earlier failure of the same order (a retried card): paid wins.
    await settleOrderRow(client, order.id, 'paid');
    await publishPayment(client, 'paid', event);
    // The account was deleted before the provider confirmed: a subscription would bring back a user
    // nobody can sign in as. The payment stays recorded as paid, for a refund.
    if (order.user_deleted_at !== null) return 'paid';
    if (await getPlan(client, order.plan_id)) await grantPaidDays(client, order.user_id, order.plan_id, order.days, now);
    return 'paid';
  });
}
