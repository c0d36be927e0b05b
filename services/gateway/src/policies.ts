import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { requireAdmin, requireAuth, type TokenVerifier } from '@wb/service-kit';

/** The gateway's API paths: answers of the services behind it. */
const API_PATH = /^\/(api|yjs)(\/|$)/;

/**
 * Our cookies that vouch for someone: `wb_device` (a browser that signed in before) and `wb_session`,
 * the name reserved for a session cookie. Other cookies of the site (analytics) say nothing: counting
 * them would take the cache from every image an <img> loads with a signed URL.
 */
const CREDENTIAL_COOKIE = /(?:^|;\s*)(?:wb_device|wb_session)=/;

/** Whether a request carries a credential: an access token, a share link's token, or one of our credential cookies. */
export const carriesCredentials = (req: Request): boolean =>
  Boolean(req.headers.authorization || req.headers['x-share-token'] || CREDENTIAL_COOKIE.test(req.headers.cookie ?? ''));

/**
 * `Cache-Control: no-store`, decided once here for every service (docs/decisions.md): on every answer
 * to a request carrying credentials, whatever the service said; on every other /api and /yjs answer
 * unless its service chose a Cache-Control itself (signed image URLs, a public list). Pages and
 * assets keep theirs. Set when the head is written, so it holds for proxied, in-process and the
 * gateway's own answers alike.
 */
export const cachePolicy: RequestHandler = (req, res, next) => {
  const credentialed = carriesCredentials(req);
  if (!credentialed && !API_PATH.test(req.path)) return next();
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    // writeHead(status, [message], [headers]): headers given here win over setHeader's.
    const last = args[args.length - 1];
    const given = last && typeof last === 'object' && !Array.isArray(last) ? (last as OutgoingHttpHeaders) : undefined;
    const givenKey = given && Object.keys(given).find((k) => k.toLowerCase() === 'cache-control');
    if (credentialed || (!givenKey && !this.hasHeader('cache-control'))) {
      if (givenKey) delete given[givenKey];
      this.setHeader('cache-control', 'no-store');
    }
    return writeHead.apply(this, args);
  } as typeof res.writeHead;
  next();
};

/**
 * /api/admin/* is for administrators whichever service owns the path and whether or not it is
 * deployed: a visitor gets 401 TOKEN_MISSING, a signed-in non-administrator 403 ADMIN_REQUIRED, before
 * any routing (an absent service would otherwise answer everyone 503). The owning service checks again.
 */
export const adminGate = (verifier: TokenVerifier): RequestHandler[] => [requireAuth(verifier), requireAdmin];
