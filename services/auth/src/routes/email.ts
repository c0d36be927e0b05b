import { Router, type Response } from 'express';
import {
  EMAIL_FLOW_TEXTS,
  PasswordResetConfirmRequest,
  PasswordResetRequest,
  VerifyEmailRequest,
  type MessageAnswer,
} from '@wb/contracts';
import { appError, currentUserId, parse, requireAuth } from '@wb/service-kit';
import { retryAfterSeconds } from '../domain/throttle.ts';
import { MailThrottled } from '../mail/flows.ts';
import { findUserById } from '../store/users.ts';
import type { AuthContext } from './context.ts';

/** A throttled mail becomes 429 MAIL_RATE_LIMITED with Retry-After; anything else passes on. */
async function unlessThrottled(res: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof MailThrottled)) throw err;
    res.setHeader('retry-after', String(retryAfterSeconds(err.retryAfterMs)));
    throw appError('MAIL_RATE_LIMITED');
  }
}

/** Password reset and e-mail verification by links sent by e-mail (mail/flows.ts). */
export function emailRouter(ctx: AuthContext): Router {
  const r = Router();
  const flows = ctx.emails;
  const noStore = (res: Response) => res.setHeader('cache-control', 'no-store');

  // 202 and the same sentence whether or not the address is registered (nor when it is, but the
  // mail fails later): nothing here tells which addresses have an account.
  r.post('/password-reset/request', async (req, res) => {
    const body = parse(PasswordResetRequest, req.body);
    await unlessThrottled(res, () => flows.requestReset(body.email, req.ip ?? 'unknown'));
    noStore(res);
    res.status(202).json({ message: EMAIL_FLOW_TEXTS.resetRequested } satisfies MessageAnswer);
  });

  r.post('/password-reset/confirm', async (req, res) => {
    const body = parse(PasswordResetConfirmRequest, req.body);
    const { userId, revokedSessions } = await flows.confirmReset(body.token, body.password);
    // Every session of the user ends before the answer, on every replica (as logout does).
    await ctx.endSessions(revokedSessions);
    ctx.users.forget(userId);
    noStore(res);
    res.json({ message: EMAIL_FLOW_TEXTS.passwordReset } satisfies MessageAnswer);
  });

  // No sign-in needed: the link may be opened on another device than the one signed in.
  r.post('/verify-email', async (req, res) => {
    const body = parse(VerifyEmailRequest, req.body);
    const { userId } = await flows.verifyEmail(body.token);
    ctx.users.forget(userId);
    noStore(res);
    res.json({ message: EMAIL_FLOW_TEXTS.emailVerified } satisfies MessageAnswer);
  });

  r.post('/verify-email/resend', requireAuth(ctx.verifier), async (req, res) => {
    const user = await findUserById(ctx.pool, currentUserId(req));
    if (!user) throw appError('TOKEN_INVALID');
    if (user.email_verified_at) throw appError('EMAIL_ALREADY_VERIFIED');
    await unlessThrottled(res, () => flows.sendVerification(user, { throttle: true }));
    noStore(res);
    res.status(202).json({ message: EMAIL_FLOW_TEXTS.verificationSent } satisfies MessageAnswer);
  });

  return r;
}
