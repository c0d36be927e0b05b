import type { Currency } from '@wb/contracts';
import type { Clock } from '../clock.ts';
import type { ProvidersConfig } from '../config.ts';
import { createStripeProvider } from './stripe.ts';
import { createTestProvider, type TestProvider } from './test.ts';
import type { PaymentProvider, ProviderName } from './types.ts';
import { createYooKassaProvider } from './yookassa.ts';

export interface Providers {
  /** The real provider of a currency if one is configured, else the test provider if enabled. */
  forCurrency(currency: Currency): PaymentProvider | undefined;
  byName(name: string): PaymentProvider | undefined;
  test?: TestProvider;
}

export function createProviders(cfg: ProvidersConfig, deps: { clock: Clock }): Providers {
  const real: PaymentProvider[] = [];
  if (cfg.yookassa) real.push(createYooKassaProvider(cfg.yookassa));
  if (cfg.stripe) real.push(createStripeProvider(cfg.stripe, deps.clock));
  const test = cfg.test ? createTestProvider({ secret: cfg.test.secret }) : undefined;
  const all: PaymentProvider[] = test ? [...real, test] : real;
  return {
    forCurrency: (currency) => real.find((p) => p.currencies.includes(currency)) ?? test,
    byName: (name) => all.find((p) => p.name === (name as ProviderName)),
    test,
  };
}
