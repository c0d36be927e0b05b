/**
 * Links sent by e-mail (password reset, address verification): rules without I/O. A link carries a
 * random token; the database keeps only its sha256, so whoever reads the table cannot use a link.
 */
import { createHash, randomBytes } from 'node:crypto';

export type LinkPurpose = 'password_reset' | 'email_verification';

/** A link lives one hour (OWASP's forgotten-password cheat sheet asks for a short life). */
export const LINK_TTL_MS = 60 * 60_000;

/** Time as the e-mail flows see it: injected, so tests move it instead of waiting an hour. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export const newLinkToken = (): string => randomBytes(32).toString('base64url');
export const hashLinkToken = (token: string): Buffer => createHash('sha256').update(token).digest();

export interface StoredLink {
  expiresAt: Date;
  usedAt: Date | null;
}

export type LinkState = 'valid' | 'expired' | 'used' | 'unknown';

/** Used beats expired: a link that did its job says so even after its hour is over. */
export function linkState(link: StoredLink | null, now: Date): LinkState {
  if (!link) return 'unknown';
  if (link.usedAt) return 'used';
  return link.expiresAt.getTime() > now.getTime() ? 'valid' : 'expired';
}

/**
 * How many mails a key may cause per window. Fixed windows per key, counted in PostgreSQL so every
 * replica shares them. The address limit is checked for unknown addresses exactly as for known
 * ones, so a 429 tells nothing about which addresses are registered.
 */
export interface MailLimit {
  max: number;
  windowMs: number;
}

/** Reset mails to one address: 3 an hour (a user retrying a slow mail, not a mailbox flood). */
export const RESET_PER_EMAIL: MailLimit = { max: 3, windowMs: 60 * 60_000 };
/** Reset requests from one client address, whatever the addresses asked for: 10 an hour. */
export const RESET_PER_CLIENT: MailLimit = { max: 10, windowMs: 60 * 60_000 };
/** Verification mails of one account (resends and address changes): 3 an hour. */
export const VERIFY_PER_USER: MailLimit = { max: 3, windowMs: 60 * 60_000 };

export const resetEmailKey = (email: string) => `reset-email:${email.trim().toLowerCase()}`;
export const resetClientKey = (ip: string) => `reset-ip:${ip}`;
export const verifyUserKey = (userId: string) => `verify-user:${userId}`;

/** Milliseconds until a key that counted `count` in a window started at `windowStart` may send again (0 = now). */
export function mailBlockedFor(count: number, windowStart: Date, now: Date, limit: MailLimit): number {
  if (count <= limit.max) return 0;
  return Math.max(1, windowStart.getTime() + limit.windowMs - now.getTime());
}
