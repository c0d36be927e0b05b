import { Router, type Response } from 'express';
import {
  ChangeEmailRequest,
  ChangePasswordRequest,
  DeleteAccountRequest,
  FavoriteEmojisRequest,
  UpdateProfileRequest,
  UpdateSettingsRequest,
  VALIDATION_TEXTS,
  type UserAnswer,
} from '@wb/contracts';
import { withTransaction } from '@wb/db';
import { appError, currentUserId, parse, requireAuth } from '@wb/service-kit';
import { favoritesOrDefault, normalizeFavorites } from '../domain/emojis.ts';
import { hashPassword, verifyPassword } from '../domain/passwords.ts';
import { toPublicUser, type UserRow } from '../domain/users.ts';
import { revokeUserSessions } from '../store/sessions.ts';
import {
  endAccountIn,
  findUserById,
  getFavoriteEmojis,
  getPasswordHash,
  setFavoriteEmojis,
  setPasswordHash,
  updateProfile,
  updateSettings,
} from '../store/users.ts';
import { currentSessionId, type AuthContext } from './context.ts';
import { ACCOUNT_POLICY, reauthKey, retryAfterSeconds } from '../domain/throttle.ts';
import { blockedFor, clearFailures, recordFailure } from '../store/throttle.ts';

/**
 * A valid token of a user who no longer exists (deleted by an admin) is answered as an invalid
 * token, so the client's refresh-then-login flow takes over.
 */
function existing<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw appError('TOKEN_INVALID');
  return value;
}

/** Calls of a signed-in user. */
export function accountRouter(ctx: AuthContext): Router {
  const r = Router();
  const { pool } = ctx;
  // Per route, not r.use(): unknown paths under /api/auth must stay 404, not 401.
  const auth = requireAuth(ctx.verifier);

  const userAnswer = (row: UserRow): UserAnswer => ({ user: toPublicUser(row) });
  /** A write's fresh row goes to the cache too, so this replica never answers the old one. */
  const written = (row: UserRow | null | undefined) => {
    const user = existing(row);
    ctx.users.set(user);
    return userAnswer(user);
  };
  const currentUser = async (id: string) => {
    const cached = ctx.users.get(id);
    if (cached) return cached;
    const row = existing(await findUserById(pool, id));
    ctx.users.set(row);
    return row;
  };

  // The hot path (every page load, benchmarked through the gateway): cached signature check, then
  // the user from memory or one primary-key lookup.
  r.get('/verify', auth, async (req, res) => {
    res.json(userAnswer(await currentUser(currentUserId(req))));
  });

  r.get('/profile', auth, async (req, res) => {
    res.json(userAnswer(await currentUser(currentUserId(req))));
  });

  /** A new address needs the current password (a stolen session must not take the account over). */
  /**
   * The current password, asked again before a change only the owner may make. Throttled like a
   * sign-in (per account, a growing delay): a stolen access token must not become a way to guess
   * the password the sign-in form protects.
   */
  const checkCurrentPassword = async (userId: string, password: string, res: Response) => {
    const key = reauthKey(userId);
    const wait = await blockedFor(pool, [key]);
    if (wait > 0) {
      res.setHeader('retry-after', String(retryAfterSeconds(wait)));
      throw appError('RATE_LIMITED');
    }
    if (!(await verifyPassword(existing(await getPasswordHash(pool, userId)), password))) {
      await recordFailure(pool, key, ACCOUNT_POLICY);
      throw appError('INVALID_CURRENT_PASSWORD');
    }
    await clearFailures(pool, [key]);
  };

  const checkPasswordForEmail = async (userId: string, email: string | undefined, password: string | undefined, res: Response) => {
    if (email === undefined) return;
    const user = await currentUser(userId);
    if (user.email.toLowerCase() === email.toLowerCase()) return;
    if (password === undefined) {
      throw appError('VALIDATION_ERROR', { message: VALIDATION_TEXTS.currentPasswordRequired, fields: { currentPassword: VALIDATION_TEXTS.currentPasswordRequired } });
    }
    await checkCurrentPassword(userId, password, res);
  };

  /** A new address (not a letter-case change) gets a verification link; a failed mail does not fail the change. */
  const verifyIfNewAddress = async (before: string, answer: UserAnswer): Promise<UserAnswer> => {
    if (before.toLowerCase() !== answer.user.email.toLowerCase()) {
      await ctx.emails.sendVerification(answer.user).catch((err) => ctx.logger.error({ err }, 'verification mail not queued'));
    }
    return answer;
  };

  // isAdmin and any other unknown key is dropped by the schema: no public call grants admin.
  r.patch('/profile', auth, async (req, res) => {
    const body = parse(UpdateProfileRequest, req.body);
    const userId = currentUserId(req);
    await checkPasswordForEmail(userId, body.email, body.currentPassword, res);
    const before = (await currentUser(userId)).email;
    res.json(await verifyIfNewAddress(before, written(await updateProfile(pool, userId, { name: body.name, email: body.email }))));
  });

  r.patch('/change-email', auth, async (req, res) => {
    const body = parse(ChangeEmailRequest, req.body);
    const userId = currentUserId(req);
    await checkPasswordForEmail(userId, body.email, body.currentPassword, res);
    const before = (await currentUser(userId)).email;
    res.json(await verifyIfNewAddress(before, written(await updateProfile(pool, userId, { email: body.email }))));
  });

  r.patch('/settings', auth, async (req, res) => {
    const body = parse(UpdateSettingsRequest, req.body);
    res.json(written(await updateSettings(pool, currentUserId(req), body.settings)));
  });

  /**
   * Every other session of the user is revoked: whoever knew the old password may hold one. The
   * caller's own session (the access token's sid) stays, so the device that changed it stays
   * signed in. The revoked sessions' access tokens stop working at once (revocation list).
   */
  r.patch('/change-password', auth, async (req, res) => {
    const body = parse(ChangePasswordRequest, req.body);
    const userId = currentUserId(req);
    await checkCurrentPassword(userId, body.currentPassword, res);
    const hash = await hashPassword(body.newPassword);
    const revoked = await withTransaction(pool, async (client) => {
      existing((await setPasswordHash(client, userId, hash)) || null);
      return revokeUserSessions(client, userId, 'password_changed', currentSessionId(req));
    });
    await ctx.endSessions(revoked);
    res.json({ message: 'Пароль изменён' });
  });

  /**
   * Deleting one's own account: every session ends (all verifiers know before the answer, sockets
   * close with 4401), then user.deleted lets boards, realtime (through board.deleted) and billing
   * drop what they hold. The password, not the token alone, proves the owner.
   */
  r.delete('/account', auth, async (req, res) => {
    const body = parse(DeleteAccountRequest, req.body ?? {});
    const userId = currentUserId(req);
    await checkCurrentPassword(userId, body.password, res);
    const revoked = existing(await withTransaction(pool, (client) => endAccountIn(client, userId, 'account_deleted')));
    await ctx.accountEnded(userId, revoked);
    res.setHeader('cache-control', 'no-store');
    res.status(204).end();
  });

  r.get('/user/favorite-emojis', auth, async (req, res) => {
    const stored = await getFavoriteEmojis(pool, currentUserId(req));
    if (stored === undefined) throw appError('TOKEN_INVALID');
    res.json({ favorites: favoritesOrDefault(stored) });
  });

  r.put('/user/favorite-emojis', auth, async (req, res) => {
    const body = parse(FavoriteEmojisRequest, req.body);
    const favorites = normalizeFavorites(body.favorites);
    existing((await setFavoriteEmojis(pool, currentUserId(req), favorites)) || null);
    res.json({ favorites: favoritesOrDefault(favorites) });
  });

  return r;
}
