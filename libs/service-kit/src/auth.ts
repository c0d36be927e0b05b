import type { Request, RequestHandler } from 'express';
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import {
  ACCESS_TOKEN_ALG,
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  AccessClaims,
  type AccessClaims as Claims,
} from '@wb/contracts';
import { appError, AppError } from './errors.ts';
import { createRevocationList, fetchRevokedFrom, revokedSessionsUrl, type RevocationList } from './revocation.ts';

export interface TokenVerifier {
  /**
   * Verifies an access token; throws TOKEN_INVALID or TOKEN_EXPIRED (also TOKEN_INVALID for a revoked
   * session), or SERVICE_UNAVAILABLE when auth's keys cannot be fetched.
   */
  verify(token: string): Promise<Claims>;
  /** The revoked sessions it checks `sid` against (realtime listens to close sockets). */
  revocations?: RevocationList;
}

/** `headers` go with every JWKS fetch: auth's /internal/jwks wants the internal credential. */
export type KeySource = { jwksUrl: string; headers?: Record<string, string> } | { jwks: JSONWebKeySet | (() => JSONWebKeySet) };

const CACHE_MAX = 10_000;

/**
 * Checks access tokens against auth's public keys (JWKS): algorithm, issuer, audience and expiry.
 * A verified token is remembered until it expires, so a hot path does not re-run the signature check.
 */
export function createTokenVerifier(source: KeySource, opts: { revocations?: RevocationList } = {}): TokenVerifier {
  // A remote verifier learns revoked sessions from auth, next to the keys (see revocation.ts).
  const revocations =
    opts.revocations ??
    ('jwksUrl' in source ? createRevocationList({ fetch: fetchRevokedFrom(revokedSessionsUrl(source.jwksUrl), source.headers) }) : undefined);
  let primed: Promise<void> | undefined;
  const checkSession = (claims: Claims) => {
    if (claims.sid && revocations?.isRevoked(claims.sid)) throw appError('TOKEN_INVALID');
    return claims;
  };
  const getKey: JWTVerifyGetKey =
    'jwksUrl' in source
      ? createRemoteJWKSet(new URL(source.jwksUrl), { cooldownDuration: 5_000, cacheMaxAge: 10 * 60_000, headers: source.headers })
      : (header, token) => {
          const set = typeof source.jwks === 'function' ? source.jwks() : source.jwks;
          return createLocalJWKSet(set)(header, token);
        };
  const cache = new Map<string, { claims: Claims; exp: number }>();

  return {
    revocations,
    async verify(token) {
      // The first call waits for the first list: a fresh process must not accept sessions revoked before it started.
      // A feed that cannot start (NATS down) leaves us not knowing what was revoked: "try again", not a verdict.
      if (revocations) {
        await (primed ??= revocations.start().catch(() => {
          primed = undefined;
          throw appError('SERVICE_UNAVAILABLE');
        }));
      }
      const now = Date.now() / 1000;
      const hit = cache.get(token);
      if (hit) {
        if (hit.exp > now) return checkSession(hit.claims);
        cache.delete(token);
        throw appError('TOKEN_EXPIRED');
      }
      let claims: Claims;
      try {
        const { payload } = await jwtVerify(token, getKey, {
          algorithms: [ACCESS_TOKEN_ALG],
          audience: ACCESS_TOKEN_AUDIENCE,
          issuer: ACCESS_TOKEN_ISSUER,
          requiredClaims: ['exp', 'sub'],
        });
        claims = AccessClaims.parse(payload);
        if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
        cache.set(token, { claims, exp: payload.exp as number });
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw appError('TOKEN_EXPIRED');
        // Keys we could not fetch say nothing about the token: a 401 (or close code 4401) would
        // end a valid session, so the caller hears "try again" instead.
        if (keysUnavailable(err)) throw appError('SERVICE_UNAVAILABLE');
        throw appError('TOKEN_INVALID');
      }
      return checkSession(claims);
    },
  };
}

/**
 * The key set could not be had (auth down or slow, a non-200 or unreadable answer), as opposed to a
 * token that fails with the keys we have. jose reports the latter with its specific error classes
 * and the former with a timeout, the generic JOSEError, or the fetch's own error.
 */
function keysUnavailable(err: unknown): boolean {
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid) return true;
  if (err instanceof joseErrors.JOSEError) return err.code === joseErrors.JOSEError.code;
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}

export function bearerToken(req: Request): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/** Requires a valid access token; sets req.user. */
export function requireAuth(verifier: TokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) return next(appError('TOKEN_MISSING'));
    try {
      req.user = await verifier.verify(token);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Sets req.user when a valid token is present; an invalid one is still an error (the client must refresh). */
export function optionalAuth(verifier: TokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) return next();
    try {
      req.user = await verifier.verify(token);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The signed-in caller's token claims (name, e-mail, admin) after requireAuth or optionalAuth;
 * TOKEN_MISSING when the request carries none. Routes read the caller through this and
 * currentUserId, never `req.user` directly.
 */
export function signedInUser(req: Request): Claims {
  if (!req.user) throw appError('TOKEN_MISSING');
  return req.user;
}

/** The signed-in caller's user id (the token's `sub`); TOKEN_MISSING without one. */
export const currentUserId = (req: Request): string => signedInUser(req).sub;

/** The caller's user id on routes open to visitors (optionalAuth): null for a visitor. */
export const optionalUserId = (req: Request): string | null => (req.user ? req.user.sub : null);

/** After requireAuth: only administrators pass. */
export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(appError('TOKEN_MISSING'));
  if (!req.user.admin) return next(appError('ADMIN_REQUIRED'));
  next();
};

export { AppError };
