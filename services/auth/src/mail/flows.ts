/**
 * Password reset and e-mail verification (issue 32, item 11): links by e-mail, single use, one
 * hour, throttled. The routes (routes/email.ts) parse and answer; this decides and stores.
 */
import type { Pool } from '@wb/db';
import { appError, type Logger } from '@wb/service-kit';
import {
  RESET_PER_CLIENT,
  RESET_PER_EMAIL,
  resetClientKey,
  resetEmailKey,
  VERIFY_PER_USER,
  verifyUserKey,
  type Clock,
} from '../domain/email-links.ts';
import { linkUrl, passwordResetMail, verificationMail } from '../domain/mail-texts.ts';
import { hashPassword } from '../domain/passwords.ts';
import { accountKey } from '../domain/throttle.ts';
import { claimLink, countMail, createLink, spendOpenLinks } from '../store/email-links.ts';
import { revokeUserSessions } from '../store/sessions.ts';
import { clearFailures } from '../store/throttle.ts';
import { findUserByEmail, setPasswordHash } from '../store/users.ts';
import type { Mailer } from './mailer.ts';

export interface EmailFlows {
  /** Sends a reset link if the address is registered; answers the same either way. Throws MAIL_RATE_LIMITED (with retryAfterMs). */
  requestReset(email: string, clientIp: string): Promise<void>;
  /** Sets the new password from a link and answers the sessions it ended (all of the user's). */
  confirmReset(token: string, password: string): Promise<{ userId: string; revokedSessions: string[] }>;
  /** Marks the address the link went to as verified (if it is still the user's address). */
  verifyEmail(token: string): Promise<{ userId: string }>;
  /**
   * A verification link to the user's current address. `throttle`: counted against the user's
   * hourly budget, refused with MAIL_RATE_LIMITED when over it (the resend call).
   */
  sendVerification(user: { id: string; email: string; name: string }, opts?: { throttle?: boolean }): Promise<void>;
}

/** The 429 of a throttled mail, with how long to wait (the route turns it into Retry-After). */
export class MailThrottled extends Error {
  constructor(readonly retryAfterMs: number) {
    super('mail throttled');
  }
}

export function createEmailFlows(deps: { pool: Pool; mailer: Mailer; clock: Clock; publicUrl: string; logger: Logger }): EmailFlows {
  const { pool, mailer, clock, publicUrl } = deps;

  const sendVerificationLink = async (user: { id: string; email: string; name: string }) => {
    const now = clock.now();
    // Only the newest link verifies: an older one may have gone to an address the user left.
    await spendOpenLinks(pool, user.id, 'email_verification', now);
    const token = await createLink(pool, user.id, user.email, 'email_verification', now);
    mailer.send(user.email, verificationMail(user.name, linkUrl(publicUrl, '/verify-email', token)));
  };

  return {
    async requestReset(email, clientIp) {
      const now = clock.now();
      // Both keys count before the address is even looked up: the same work and the same 429
      // whether or not the account exists.
      const waits = await Promise.all([
        countMail(pool, resetClientKey(clientIp), RESET_PER_CLIENT, now),
        countMail(pool, resetEmailKey(email), RESET_PER_EMAIL, now),
      ]);
      const wait = Math.max(...waits);
      if (wait > 0) throw new MailThrottled(wait);
      const user = await findUserByEmail(pool, email);
      if (!user) return;
      const token = await createLink(pool, user.id, user.email, 'password_reset', now);
      mailer.send(user.email, passwordResetMail(user.name, linkUrl(publicUrl, '/reset-password', token)));
    },

    async confirmReset(token, password) {
      // Hashing (~40 ms of CPU) before the transaction: no connection waits on it. A wasted hash for
      // a bad link is the price of not holding a lock meanwhile.
      const hash = await hashPassword(password);
      const now = clock.now();
      const claimed = await claimLink(pool, token, 'password_reset', now, async (client, link) => {
        const r = await client.query<{ email: string }>('SELECT email FROM users WHERE id = $1 FOR UPDATE', [link.userId]);
        const current = r.rows[0];
        if (!current) return null;
        await setPasswordHash(client, link.userId, hash);
        await spendOpenLinks(client, link.userId, 'password_reset', now);
        // Opening the link proved the mailbox: if it is still the account's address, it is verified.
        if (current.email.toLowerCase() === link.email.toLowerCase()) {
          await client.query('UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2) WHERE id = $1', [link.userId, now]);
        }
        // The owner may sign in at once, even if someone had been guessing the old password.
        await clearFailures(client, [accountKey(current.email)]);
        // Whoever knew the old password may hold a session: every session ends, none is kept.
        return { userId: link.userId, revokedSessions: await revokeUserSessions(client, link.userId, 'password_reset') };
      });
      if (claimed.state === 'expired') throw appError('RESET_TOKEN_EXPIRED');
      if (claimed.state === 'used') throw appError('RESET_TOKEN_USED');
      if (claimed.state !== 'valid' || !claimed.result) throw appError('RESET_TOKEN_INVALID');
      return claimed.result;
    },

    async verifyEmail(token) {
      const now = clock.now();
      const claimed = await claimLink(pool, token, 'email_verification', now, async (client, link) => {
        const r = await client.query(
          'UPDATE users SET email_verified_at = COALESCE(email_verified_at, $3) WHERE id = $1 AND lower(email) = lower($2)',
          [link.userId, link.email, now],
        );
        return r.rowCount === 1 ? { userId: link.userId } : null;
      });
      if (claimed.state === 'expired') throw appError('VERIFY_TOKEN_EXPIRED');
      if (claimed.state === 'used') throw appError('VERIFY_TOKEN_USED');
      // 'unknown', or the account's address changed since the link was sent.
      if (claimed.state !== 'valid' || !claimed.result) throw appError('VERIFY_TOKEN_INVALID');
      return claimed.result;
    },

    async sendVerification(user, opts = {}) {
      if (opts.throttle) {
        const wait = await countMail(pool, verifyUserKey(user.id), VERIFY_PER_USER, clock.now());
        if (wait > 0) throw new MailThrottled(wait);
      }
      await sendVerificationLink(user);
    },
  };
}
