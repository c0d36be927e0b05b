/**
 * Login throttling (OWASP ASVS 2.2.1): a growing delay after repeated failures, never a permanent
 * lockout. Each key (an account, an address, a trusted device) has its own policy: the first
 * `freeFailures` failures cost nothing, then every further failure blocks the key for a delay that
 * doubles from `baseMs` up to `maxMs`. A key with no failure for `forgetAfterMs` starts over.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  baseMs: number;
  maxMs: number;
  forgetAfterMs: number;
}

/** Guessing one account's password: 5 tries, then 1 s, 2 s, 4 s … up to 15 minutes between tries. */
export const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, baseMs: 1_000, maxMs: 15 * 60_000, forgetAfterMs: 24 * 3_600_000 };

/**
 * Spraying many accounts from one address. Capped at one minute: people behind the same NAT with
 * their right password wait at most that long (and not at all from a browser they signed in from).
 */
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 20, baseMs: 1_000, maxMs: 60_000, forgetAfterMs: 15 * 60_000 };

/** A trusted device is exempt from the two above, so it gets a budget of its own. */
export const DEVICE_POLICY: ThrottlePolicy = ACCOUNT_POLICY;

/** How long a key stays blocked after its `failures`-th consecutive failure (0 = not blocked). */
export function blockAfter(failures: number, p: ThrottlePolicy): number {
  if (failures <= p.freeFailures) return 0;
  const doublings = Math.min(failures - p.freeFailures - 1, 40);
  return Math.min(p.baseMs * 2 ** doublings, p.maxMs);
}

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (ip: string) => `address:${ip}`;
export const deviceKey = (tokenHashHex: string) => `device:${tokenHashHex}`;
/** The current password asked again by a signed-in account (change password or address, delete the account). */
export const reauthKey = (userId: string) => `reauth:${userId}`;

/** Whole seconds for Retry-After, at least 1. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
