import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import type { RequestHandler } from 'express';
import { appError } from './errors.ts';

/** The header every service-to-service call carries. */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** Headers for a call to another service's /internal/*. */
export function internalHeaders(token: string): Record<string, string> {
  return { [INTERNAL_TOKEN_HEADER]: token };
}

// Hashing first gives both sides the same length, so the comparison leaks neither content nor length.
const digest = (s: string) => createHash('sha256').update(s).digest();

/** True when the request carries `token` in the internal header. */
export function hasInternalToken(req: IncomingMessage, token: string): boolean {
  const given = req.headers[INTERNAL_TOKEN_HEADER];
  if (typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * Mounted before a service's /internal router. A call without the shared secret gets the same 404
 * as a path that does not exist: to an outsider there is no internal API at all.
 */
export function internalAuth(token: string): RequestHandler {
  return (req, _res, next) => next(hasInternalToken(req, token) ? undefined : appError('NOT_FOUND'));
}

/**
 * For a listener that only other services may use (the embedded mode's loopback ports): anything
 * without the credential is answered 404 with an empty body, so the port tells a stranger nothing.
 */
export function onlyWithInternalToken(token: string, handler: RequestListener): RequestListener {
  return (req, res) => {
    if (hasInternalToken(req, token)) return handler(req, res);
    res.writeHead(404, { 'content-length': '0', connection: 'close' });
    res.end();
  };
}
