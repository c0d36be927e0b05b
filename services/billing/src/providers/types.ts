import type { Currency } from '@wb/contracts';

export type ProviderName = 'test' | 'yookassa' | 'stripe';

export interface CheckoutRequest {
  orderId: string;
  amountMinor: number;
  currency: Currency;
  description: string;
  /** The public origin the browser uses (the test provider's page lives there). */
  baseUrl: string;
  /** Where the provider sends the browser after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  providerPaymentId: string;
  checkoutUrl: string;
}

/** What a verified notification says about one of our orders. */
export interface Settlement {
  orderId: string;
  providerPaymentId: string;
  outcome: 'paid' | 'failed';
  /** As the provider reports it, checked against the order. */
  amountMinor?: number;
  currency?: string;
}

export interface IncomingNotification {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One payment provider. `readNotification` answers only with what the provider itself vouches for
 * (a checked signature, or the payment fetched back from its API): null when the notification is
 * about nothing we settle (a non-final state, an unrelated event); it throws WEBHOOK_REJECTED when
 * the notification cannot be trusted.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  readonly currencies: readonly Currency[];
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  readNotification(n: IncomingNotification): Promise<Settlement | null>;
}
