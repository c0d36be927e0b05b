import { Router } from 'express';
import type { AuthContext } from './context.ts';

/** Service-to-service only; the gateway never routes /internal/*. */
export function internalRouter(ctx: AuthContext): Router {
  const r = Router();
  r.get('/jwks', (_req, res) => {
    // Verifiers cache it (jose's remote JWKS), so a short max-age only bounds key-rotation lag.
    res.setHeader('cache-control', 'public, max-age=300');
    res.json(ctx.signer().jwks);
  });
  return r;
}
