import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';
import { EMAIL_PATTERN, LIMITS } from '@wb/contracts';
import { parseDuration } from './domain/durations.ts';

/** A duration in seconds: '900', '15m', '1h', '30d'. */
const duration = (def: string) =>
  z
    .string()
    .default(def)
    .transform((v, ctx) => {
      const s = parseDuration(v);
      if (s === null) {
        ctx.addIssue({ code: 'custom', message: 'expected a positive duration such as 900, 15m, 1h or 30d' });
        return z.NEVER;
      }
      return s;
    });

/** Said when a production start has no mail server (docs/decisions.md: refuse, do not drop mails). */
export const SMTP_REQUIRED_IN_PRODUCTION =
  'SMTP_URL is required under NODE_ENV=production: password reset and e-mail verification send their links by mail (smtp://user:pass@host:587).';

export const AuthConfigSchema = serviceConfig(3001, {
  DATABASE_URL: env.url(),
  ACCESS_TOKEN_TTL: duration('15m'),
  REFRESH_TOKEN_TTL: duration('30d'),
  /** See domain/refresh.ts: a rotated token presented again within this window is a race, not theft. */
  REFRESH_REUSE_GRACE: duration('10s'),
  ADMIN_EMAIL: env.optionalSecret().refine(
    (v) => v === undefined || EMAIL_PATTERN.test(v.trim()),
    'not an email address',
  ),
  ADMIN_PASSWORD: env.optionalSecret().refine(
    (v) => v === undefined || (v.length >= LIMITS.passwordMin && v.length <= LIMITS.passwordMax),
    `must be ${LIMITS.passwordMin}-${LIMITS.passwordMax} characters`,
  ),
  /** EC P-256 private key (PEM). Absent: a key pair is generated once and kept in the database. */
  AUTH_PRIVATE_KEY_PEM: env.optionalSecret(),
  /** How long verify/profile may answer from memory (see store/userCache.ts); 0 turns it off. */
  USER_CACHE_TTL_MS: env.int(2_000, { min: 0, max: 60_000 }),
  // Mail of the password reset and e-mail verification (mail/mailer.ts; docs/operations.md "Mail").
  NODE_ENV: env.optionalString(),
  /** smtp://user:pass@host:587 or smtps://...; unset: mails go to the log (refused under NODE_ENV=production). */
  SMTP_URL: env.optionalString().refine((v) => v === undefined || /^smtps?:\/\/[^\s]+$/.test(v), 'expected smtp://host:port or smtps://host:port'),
  MAIL_FROM: z.string().trim().min(3).default('Холст <no-reply@localhost>'),
  /** The address users open the product at: the links in mails point there (never the request's Host). */
  PUBLIC_URL: env.url().default('http://localhost:8080'),
  /** With NATS: the longest a logout waits for a verifier that is alive but does not acknowledge (revocation-feed.ts). */
  REVOCATION_WAIT_MS: env.int(3_000, { min: 0, max: 30_000 }),
}).superRefine((c, ctx) => {
  // One without the other is almost certainly a deployment mistake; say so instead of ignoring it.
  if (Boolean(c.ADMIN_EMAIL) !== Boolean(c.ADMIN_PASSWORD)) {
    ctx.addIssue({
      code: 'custom',
      path: [c.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
      message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    });
  }
  // A production start without a mail server would take reset requests and silently send nothing.
  if (c.NODE_ENV === 'production' && !c.SMTP_URL) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: SMTP_REQUIRED_IN_PRODUCTION });
  }
});

export type AuthConfig = z.infer<typeof AuthConfigSchema>;
