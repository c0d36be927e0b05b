/**
 * Revenue is in roubles (spec §2: "revenue in roubles"): only RUB payments add to it. A USD or EUR
 * payment is shown in the activity with its own currency but not converted (no rate source the
 * product trusts); docs/decisions.md "Admin stats".
 */
export const REVENUE_CURRENCY = 'RUB';

/** Kopecks a paid payment adds to the revenue and to today's payments amount. */
export function revenueMinorOf(amountMinor: number, currency: string): number {
  return currency.toUpperCase() === REVENUE_CURRENCY ? amountMinor : 0;
}

/** Kopecks → roubles as the stats carry them (a number with at most two decimals). */
export const roublesOf = (minor: number): number => Math.round(minor) / 100;

const SYMBOLS: Record<string, string> = { RUB: '₽', USD: '$', EUR: '€' };

/** '1 990 ₽', '9,50 $', '12 GBP': groups of three, a decimal comma only when there are kopecks. */
export function formatMoney(amountMinor: number, currency: string): string {
  const sign = amountMinor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(amountMinor));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const cents = abs % 100;
  const code = currency.toUpperCase();
  return `${sign}${whole}${cents ? `,${String(cents).padStart(2, '0')}` : ''} ${SYMBOLS[code] ?? code}`;
}
