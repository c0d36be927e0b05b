import express, { Router } from 'express';
import { appError } from '@wb/service-kit';
import { settleOrder } from '../actions/payments.ts';
import type { RouteContext } from './context.ts';

/**
 * POST /api/billing/webhooks/{test|yookassa|stripe}. The raw body is kept (Stripe signs the exact
 * bytes). A verified notification answers 200 whatever it changed, so the provider stops
 * resending; an untrusted one answers 400 WEBHOOK_REJECTED and changes nothing.
 */
export function webhooksRouter(ctx: RouteContext): Router {
  const r = Router();
  r.post('/webhooks/:provider', express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
    const provider = ctx.providers.byName(String(req.params.provider));
    if (!provider) throw appError('NOT_FOUND');
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const settlement = await provider.readNotification({ rawBody, headers: req.headers });
    if (!settlement) {
      res.json({ ok: true, result: 'ignored' });
      return;
    }
    const result = await settleOrder(ctx.pool, provider, settlement, ctx.clock());
    req.log.info({ provider: provider.name, orderId: settlement.orderId, result }, 'payment notification');
    res.json({ ok: true, result });
  });
  return r;
}
