import { Router } from 'express';
import { withTransaction } from '@wb/db';
import { LoginRequest, LogoutRequest, RefreshRequest, RegisterRequest } from '@wb/contracts';
import { appError, optionalAuth, parse } from '@wb/service-kit';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from '../domain/passwords.ts';
import { signAccessToken } from '../domain/tokens.ts';
import { toPublicUser, type UserRow } from '../domain/users.ts';
import { createSession, revokeSession, revokeSessionByToken, rotateRefreshToken } from '../store/sessions.ts';
import { findUserByEmail, insertUser, setPasswordHash } from '../store/users.ts';
import { currentSessionId, type AuthContext } from './context.ts';

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
    res.status(201).json({
      user: toPublicUser(user),
      accessToken: await accessToken(user, session.sessionId),
      refreshToken: session.refreshToken,
    });
  });

  r.post('/login', async (req, res) => {
    const body = parse(LoginRequest, req.body);
    const user = await findUserByEmail(pool, body.email);
    if (!user) {
      await burnPasswordCheck(body.password);
      throw appError('INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(user.password_hash, body.password))) throw appError('INVALID_CREDENTIALS');
    if (needsRehash(user.password_hash)) {
      // Parameters were raised since this hash was made; upgrade it while the password is at hand.
      await setPasswordHash(pool, user.id, await hashPassword(body.password)).catch((err) => req.log.warn({ err }, 'rehash failed'));
    }
    const session = await withTransaction(pool, (client) => createSession(client, user.id, config.REFRESH_TOKEN_TTL));
    res.json({ user: toPublicUser(user), accessToken: await accessToken(user, session.sessionId), refreshToken: session.refreshToken });
  });

  r.post('/refresh', async (req, res) => {
    const body = parse(RefreshRequest, req.body);
    const result = await rotateRefreshToken(pool, body.refreshToken, {
      ttlSeconds: config.REFRESH_TOKEN_TTL,
      graceMs: config.REFRESH_REUSE_GRACE * 1000,
    });
    if (!result.ok) {
      if (result.reason === 'reuse') req.log.warn('refresh token reuse: session family revoked');
      throw appError('REFRESH_TOKEN_INVALID');
    }
    res.json({ accessToken: await accessToken(result.user, result.sessionId), refreshToken: result.refreshToken });
  });

  // The refresh token is the credential here: the access token may well have expired by logout time.
  r.post('/logout', optionalAuthLenient(ctx), async (req, res) => {
    const body = parse(LogoutRequest, req.body ?? {});
    if (body.refreshToken) await revokeSessionByToken(pool, body.refreshToken, 'logout');
    else {
      const sid = req.user ? currentSessionId(req) : undefined;
      if (sid) await revokeSession(pool, sid, 'logout');
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
      if (err) req.user = undefined;
      next();
    });
}
