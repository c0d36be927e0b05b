import type { SubscriptionStatus } from '@wb/contracts';

const DAY_MS = 86_400_000;
const SEVERITY: Record<SubscriptionStatus, number> = { active: 0, grace: 1, expired: 2 };

/** What time alone says: paid until expires_at, then grace_days of grace, then expired. */
export function timeStatus(expiresAt: Date, graceDays: number, now: Date): SubscriptionStatus {
  const t = now.getTime();
  if (t < expiresAt.getTime()) return 'active';
  if (t < expiresAt.getTime() + graceDays * DAY_MS) return 'grace';
  return 'expired';
}

/**
 * The status lists show and limits follow. Time only moves a subscription forward (active → grace →
 * expired); an admin may set a later stage by hand before its time (an "expired" set by hand stays
 * expired), and an admin edit or an extension writes the time status afresh.
 */
export function calculatedStatus(stored: SubscriptionStatus, expiresAt: Date, graceDays: number, now: Date): SubscriptionStatus {
  const byTime = timeStatus(expiresAt, graceDays, now);
  return SEVERITY[byTime] >= SEVERITY[stored] ? byTime : stored;
}

/** Active and grace subscriptions give their plan; expired ones give Free. */
export const grantsPlan = (status: SubscriptionStatus): boolean => status !== 'expired';

/** Extending (a payment for the same plan, or the admin's extend) adds days to what is left, never to the past. */
export function extendedExpiry(current: Date, days: number, now: Date): Date {
  const from = Math.max(current.getTime(), now.getTime());
  return new Date(from + days * DAY_MS);
}

export const expiryFromNow = (days: number, now: Date): Date => new Date(now.getTime() + days * DAY_MS);
