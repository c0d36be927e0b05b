import type { Request, RequestHandler } from 'express';
import type { Pool } from '@wb/db';
import { requireAdmin, requireAuth, signedInUser, type Logger, type TokenVerifier } from '@wb/service-kit';
import type { Clock } from '../clock.ts';
import type { AdminActor } from '../events/publish.ts';
import type { Providers } from '../providers/index.ts';
import { upsertUser } from '../store/users.ts';
import { createPlansCache, type PlansCache } from './plans-cache.ts';

export interface RouteContext {
  pool: Pool;
  providers: Providers;
  clock: Clock;
  logger: Logger;
  /** The public plan list; admin plan and config writes invalidate it. */
  plans: PlansCache;
  /** requireAuth + the user remembered from the token (names for the admin lists). */
  auth: RequestHandler[];
  admin: RequestHandler[];
  /** The origin the browser sees: PUBLIC_URL, else the one this request came through. */
  baseUrl(req: Request): string;
}

const SEEN_MAX = 50_000;

/** Users who signed up before billing ran (or whose event is still on its way) become known on their first billing call. */
function rememberUser(pool: Pool): RequestHandler {
  const seen = new Map<string, string>();
  return async (req, _res, next) => {
    const u = signedInUser(req);
    const key = `${u.name}\u0000${u.email}`;
    if (seen.get(u.sub) !== key) {
      await upsertUser(pool, { id: u.sub, name: u.name, email: u.email });
      if (seen.size >= SEEN_MAX) seen.clear();
      seen.set(u.sub, key);
    }
    next();
  };
}

export function createRouteContext(deps: {
  pool: Pool;
  verifier: TokenVerifier;
  providers: Providers;
  clock: Clock;
  logger: Logger;
  publicUrl?: string;
}): RouteContext {
  const auth = [requireAuth(deps.verifier), rememberUser(deps.pool)];
  return {
    pool: deps.pool,
    providers: deps.providers,
    clock: deps.clock,
    logger: deps.logger,
    plans: createPlansCache(deps.pool),
    auth,
    admin: [requireAuth(deps.verifier), requireAdmin],
    baseUrl: (req) => (deps.publicUrl ? deps.publicUrl.replace(/\/$/, '') : `${req.protocol}://${req.get('host')}`),
  };
}

/** The administrator behind a request (after requireAdmin), as the audit log names them. */
export const actorOf = (req: Request): AdminActor => {
  const u = signedInUser(req);
  return { id: u.sub, name: u.name };
};
