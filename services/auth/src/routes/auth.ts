import { Router, type Request } from 'express';
import { withTransaction } from '@wb/db';
import {
  LoginRequest,
  LogoutRequest,
  RefreshRequest,
  RegisterRequest,
  type AuthAnswer,
  type RefreshAnswer,
} from '@wb/contracts';
import { appError, optionalAuth, optionalUserId, parse } from '@wb/service-kit';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from '../domain/passwords.ts';
import { signAccessToken } from '../domain/tokens.ts';
import { toPublicUser, type UserRow } from '../domain/users.ts';
import { createSession, revokeSession, revokeSessionByToken, rotateRefreshToken } from '../store/sessions.ts';
import {
  ACCOUNT_POLICY,
  accountKey,
  ADDRESS_POLICY,
  addressKey,
  DEVICE_POLICY,
  deviceKey,
  retryAfterSeconds,
} from '../domain/throttle.ts';
import { blockedFor, clearFailures, deviceHashHex, isTrustedDevice, recordFailure, trustDevice } from '../store/throttle.ts';
import { findUserByEmail, insertUser, setPasswordHash } from '../store/users.ts';
import { currentSessionId, type AuthContext } from './context.ts';

const DEVICE_COOKIE = 'wb_device';
const DEVICE_TTL_SECONDS = 180 * 24 * 3600;
const DEVICE_COOKIE_VALUE = /(?:^|;\s*)wb_device=([A-Za-z0-9_-]{43})(?:;|$)/;

function readDeviceCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? DEVICE_COOKIE_VALUE.exec(header)?.[1] : undefined;
}

/** Public calls: register, login, refresh, logout. */
export function authRouter(ctx: AuthContext): Router {
  const r = Router();
  const { pool, config } = ctx;
  // Answers here carry access and refresh tokens: no browser or proxy cache may keep them.
  r.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  const accessToken = (user: UserRow, sessionId: string) =>
    signAccessToken(ctx.signer(), { id: user.id, name: user.name, email: user.email, isAdmin: user.is_admin }, sessionId, config.ACCESS_TOKEN_TTL);

  r.post('/register', async (req, res) => {
    const body = parse(RegisterRequest, req.body);
    // Hash before the transaction: no connection is held during ~40 ms of CPU work.
    const passwordHash = await hashPassword(body.password);
    const { user, session } = await withTransaction(pool, async (client) => {
      const user = await insertUser(client, { name: body.name, email: body.email, passwordHash });
      return { user, session: await createSession(client, user.id, config.REFRESH_TOKEN_TTL) };
    });
    // A verification link to the new address; the account works without it (registration never fails on mail).
    await ctx.emails.sendVerification(user).catch((err) => req.log.error({ err }, 'verification mail not queued'));
    res.status(201).json({
      user: toPublicUser(user),
      accessToken: await accessToken(user, session.sessionId),
      refreshToken: session.refreshToken,
    } satisfies AuthAnswer);
  });

  /**
   * Throttled per account and per address (a growing delay, state in PostgreSQL for every replica);
   * a browser that signed in to this account before is judged by its own budget instead, so neither
   * an attack on the account nor a neighbour behind the same address holds its owner back.
   */
  r.post('/login', async (req, res) => {
    const body = parse(LoginRequest, req.body);
    const user = await findUserByEmail(pool, body.email);
    const device = readDeviceCookie(req);
    const trusted = user !== null && device !== undefined && (await isTrustedDevice(pool, device, user.id));
    const keys = trusted ? [deviceKey(deviceHashHex(device!))] : [accountKey(body.email), addressKey(req.ip ?? 'unknown')];
    const wait = await blockedFor(pool, keys);
    if (wait > 0) {
      res.setHeader('retry-after', String(retryAfterSeconds(wait)));
      throw appError('RATE_LIMITED');
    }
    const ok = user ? await verifyPassword(user.password_hash, body.password) : (await burnPasswordCheck(body.password), false);
    if (!user || !ok) {
      if (trusted) await recordFailure(pool, keys[0]!, DEVICE_POLICY);
      else await Promise.all([recordFailure(pool, keys[0]!, ACCOUNT_POLICY), recordFailure(pool, keys[1]!, ADDRESS_POLICY)]);
      throw appError('INVALID_CREDENTIALS');
    }
    // The address keeps its count: signing in to one's own account must not reset a sprayer's budget.
    await clearFailures(pool, [keys[0]!]);
    if (!trusted) {
      res.cookie(DEVICE_COOKIE, await trustDevice(pool, user.id, DEVICE_TTL_SECONDS), {
        httpOnly: true,
        sameSite: 'strict',
        secure: req.secure,
        path: '/api/auth',
        maxAge: DEVICE_TTL_SECONDS * 1000,
      });
    }
    if (needsRehash(user.password_hash)) {
      // Parameters were raised since this hash was made; upgrade it while the password is at hand.
      await setPasswordHash(pool, user.id, await hashPassword(body.password)).catch((err) => req.log.warn({ err }, 'rehash failed'));
    }
    const session = await withTransaction(pool, (client) => createSession(client, user.id, config.REFRESH_TOKEN_TTL));
    res.json({
      user: toPublicUser(user),
      accessToken: await accessToken(user, session.sessionId),
      refreshToken: session.refreshToken,
    } satisfies AuthAnswer);
  });

  r.post('/refresh', async (req, res) => {
    const body = parse(RefreshRequest, req.body);
    const result = await rotateRefreshToken(pool, body.refreshToken, {
      ttlSeconds: config.REFRESH_TOKEN_TTL,
      graceMs: config.REFRESH_REUSE_GRACE * 1000,
    });
    if (!result.ok) {
      if (result.reason === 'reuse') {
        req.log.warn('refresh token reuse: session family revoked');
        await ctx.endSessions(result.revoked ?? []);
      }
      throw appError('REFRESH_TOKEN_INVALID');
    }
    res.json({
      accessToken: await accessToken(result.user, result.sessionId),
      refreshToken: result.refreshToken,
    } satisfies RefreshAnswer);
  });

  // The refresh token is the credential here: the access token may well have expired by logout time.
  r.post('/logout', optionalAuthLenient(ctx), async (req, res) => {
    const body = parse(LogoutRequest, req.body ?? {});
    if (body.refreshToken) await ctx.endSessions(await revokeSessionByToken(pool, body.refreshToken, 'logout'));
    else {
      const sid = optionalUserId(req) ? currentSessionId(req) : undefined;
      if (sid) await ctx.endSessions(await revokeSession(pool, sid, 'logout'));
    }
    // Always 204: logout is idempotent and does not reveal whether a token was known.
    res.status(204).end();
  });

  return r;
}

/** Like optionalAuth, but a bad or expired access token is ignored rather than failing the logout. */
function optionalAuthLenient(ctx: AuthContext) {
  const inner = optionalAuth(ctx.verifier);
  return (req: Parameters<typeof inner>[0], res: Parameters<typeof inner>[1], next: Parameters<typeof inner>[2]) =>
    inner(req, res, (err?: unknown) => {
      // eslint-disable-next-line no-restricted-syntax -- an auth middleware is what sets (here: forgets) the caller
      if (err) req.user = undefined;
      next();
    });
}
