import { Router } from 'express';
import { z } from 'zod';
import { parse, type RevokedSessionsAnswer } from '@wb/service-kit';
import { revokedSince } from '../store/sessions.ts';
import type { AuthContext } from './context.ts';

const RevokedQuery = z.object({ since: z.iso.datetime({ offset: true }).optional() });

/** Service-to-service only; the gateway never routes /internal/*. */
export function internalRouter(ctx: AuthContext): Router {
  const r = Router();
  r.get('/jwks', (_req, res) => {
    // Verifiers cache it (jose's remote JWKS), so a short max-age only bounds key-rotation lag.
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(ctx.signer().jwks);
  });
  // Every verifier (service-kit revocation.ts) polls this each second: sessions revoked lately.
  r.get('/sessions/revoked', async (req, res) => {
    const { since } = parse(RevokedQuery, req.query);
    const ttl = ctx.config.ACCESS_TOKEN_TTL;
    const answer: RevokedSessionsAnswer = { ...(await revokedSince(ctx.pool, since, ttl)), keepSeconds: ttl };
    res.setHeader('cache-control', 'no-store');
    res.json(answer);
  });
  return r;
}
