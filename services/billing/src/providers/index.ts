import type { Currency } from '@wb/contracts';
import type { Clock } from '../clock.ts';
import type { ProvidersConfig } from '../config.ts';
import { createStripeProvider } from './stripe.ts';
import { createTestProvider, type TestProvider } from './test.ts';
import type { PaymentProvider, ProviderName } from './types.ts';
import { createYooKassaProvider } from './yookassa.ts';

export interface Providers {
  /**
   * The provider that takes this currency, or undefined (checkout answers CURRENCY_NOT_SUPPORTED).
   * The test provider stands in only where no real provider is configured at all: with real keys
   * set, a currency none of them takes is refused rather than handed to a provider that grants plans for free.
   */
  forCurrency(currency: Currency): PaymentProvider | undefined;
  byName(name: string): PaymentProvider | undefined;
  test?: TestProvider;
}

export function createProviders(cfg: ProvidersConfig, deps: { clock: Clock }): Providers {
  const real: PaymentProvider[] = [];
  if (cfg.yookassa) real.push(createYooKassaProvider(cfg.yookassa));
  if (cfg.stripe) real.push(createStripeProvider(cfg.stripe, deps.clock));
  const test = cfg.test && real.length === 0 ? createTestProvider({ secret: cfg.test.secret }) : undefined;
  const all: PaymentProvider[] = test ? [...real, test] : real;
  return {
    forCurrency: (currency) => all.find((p) => p.currencies.includes(currency)),
    byName: (name) => all.find((p) => p.name === (name as ProviderName)),
    test,
  };
}
