import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';

/** Said when a production start is asked to run the test provider (docs/decisions.md: refuse, do not ignore). */
export const TEST_PROVIDER_IN_PRODUCTION =
  'PAYMENTS_TEST_PROVIDER is set under NODE_ENV=production: the built-in test payment provider grants any plan without payment and never runs in production. Unset PAYMENTS_TEST_PROVIDER and configure YooKassa or Stripe.';

/** The billing service's environment (common settings in serviceConfig). Provider keys never leave this object. */
export const BillingConfigSchema = serviceConfig(3005, {
  NODE_ENV: env.optionalString(),
  DATABASE_URL: env.url(),
  DATABASE_POOL_MAX: env.int(10, { min: 1, max: 200 }),
  AUTH_JWKS_URL: env.url(),
  /** Where the browser comes back after paying; absent: the origin the checkout request came through. */
  PUBLIC_URL: env.optionalUrl(),
  /**
   * The built-in test provider (its own checkout page): only when set explicitly (`npm start` in
   * development and the tests set it); a production start with it set refuses to start.
   */
  PAYMENTS_TEST_PROVIDER: env.bool(false),
  /** Signs the test provider's notifications; a random key per process when absent. */
  PAYMENTS_TEST_SECRET: env.optionalString(),
  YOOKASSA_SHOP_ID: env.optionalString(),
  YOOKASSA_SECRET_KEY: env.optionalString(),
  YOOKASSA_API_URL: env.url().default('https://api.yookassa.ru/v3'),
  STRIPE_SECRET_KEY: env.optionalString(),
  STRIPE_WEBHOOK_SECRET: env.optionalString(),
  STRIPE_API_URL: env.url().default('https://api.stripe.com'),
  /** How often the expiry job looks for subscriptions whose time ran out. */
  EXPIRY_INTERVAL_MS: env.int(60_000, { min: 100 }),
  BODY_LIMIT: env.string('100kb'),
  /** The export service, which renders payment receipts (PDF); absent: receipts answer 503. */
  EXPORT_URL: env.optionalUrl(),
}).superRefine((c, ctx) => {
  if (c.NODE_ENV === 'production' && c.PAYMENTS_TEST_PROVIDER) {
    ctx.addIssue({ code: 'custom', path: ['PAYMENTS_TEST_PROVIDER'], message: TEST_PROVIDER_IN_PRODUCTION });
  }
});

export type BillingConfig = z.infer<typeof BillingConfigSchema>;

/** What createBillingService itself needs (the runner reads the rest). */
export interface BillingServiceConfig {
  http: { bodyLimit: string; publicUrl?: string };
  /** Where receipts are rendered (export's /internal/receipts). */
  exportUrl?: string;
  providers: {
    test?: { secret?: string };
    yookassa?: { shopId: string; secretKey: string; apiUrl: string };
    stripe?: { secretKey: string; webhookSecret: string; apiUrl: string };
  };
  jobs: { expiryIntervalMs: number };
}
export type ProvidersConfig = BillingServiceConfig['providers'];

/** A provider is on when all of its keys are set. */
export function billingServiceConfig(c: BillingConfig): BillingServiceConfig {
  return {
    http: { bodyLimit: c.BODY_LIMIT, publicUrl: c.PUBLIC_URL },
    exportUrl: c.EXPORT_URL,
    providers: {
      test: c.PAYMENTS_TEST_PROVIDER ? { secret: c.PAYMENTS_TEST_SECRET } : undefined,
      yookassa:
        c.YOOKASSA_SHOP_ID && c.YOOKASSA_SECRET_KEY
          ? { shopId: c.YOOKASSA_SHOP_ID, secretKey: c.YOOKASSA_SECRET_KEY, apiUrl: c.YOOKASSA_API_URL }
          : undefined,
      stripe:
        c.STRIPE_SECRET_KEY && c.STRIPE_WEBHOOK_SECRET
          ? { secretKey: c.STRIPE_SECRET_KEY, webhookSecret: c.STRIPE_WEBHOOK_SECRET, apiUrl: c.STRIPE_API_URL }
          : undefined,
    },
    jobs: { expiryIntervalMs: c.EXPIRY_INTERVAL_MS },
  };
}
