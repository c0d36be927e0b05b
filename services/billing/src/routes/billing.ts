import { Router } from 'express';
import { CheckoutInput } from '@wb/contracts';
import { appError, currentUserId, parse, signedInUser } from '@wb/service-kit';
import { currentEntitlements } from '../actions/entitlements.ts';
import { createCheckout } from '../actions/payments.ts';
import { calculatedStatus } from '../domain/status.ts';
import { getConfig } from '../store/config.ts';
import { paymentsOfUser } from '../store/payments.ts';
import { setAutoRenew, subscriptionOfUser } from '../store/subscriptions.ts';
import type { RouteContext } from './context.ts';

/** The signed-in user's calls and the public plan list (spec §7 Billing). */
export function billingRouter(ctx: RouteContext): Router {
  const r = Router();

  r.get('/plans', async (_req, res) => {
    res.type('json').send(await ctx.plans.body());
  });

  r.post('/checkout', ...ctx.auth, async (req, res) => {
    const input = parse(CheckoutInput, req.body);
    const user = signedInUser(req);
    const data = await createCheckout(ctx, { id: user.sub, name: user.name }, input, { baseUrl: ctx.baseUrl(req) });
    res.status(201).json({ data });
  });

  r.get('/subscription', ...ctx.auth, async (req, res) => {
    const userId = currentUserId(req);
    const [sub, config, ent] = await Promise.all([
      subscriptionOfUser(ctx.pool, userId),
      getConfig(ctx.pool),
      currentEntitlements(ctx.pool, userId),
    ]);
    res.json({
      subscription: sub
        ? { ...sub, calculated_status: calculatedStatus(sub.status, new Date(sub.expires_at), config.grace_days, ctx.clock()) }
        : null,
      entitlements: ent,
      billing_enabled: config.billing_enabled,
      limits_enabled: config.limits_enabled,
    });
  });

  r.post('/cancel-auto-renew', ...ctx.auth, async (req, res) => {
    if (!(await setAutoRenew(ctx.pool, currentUserId(req), false))) throw appError('SUBSCRIPTION_NOT_FOUND');
    res.json({ subscription: await subscriptionOfUser(ctx.pool, currentUserId(req)) });
  });

  r.get('/payments', ...ctx.auth, async (req, res) => {
    res.json({ payments: await paymentsOfUser(ctx.pool, currentUserId(req)) });
  });

  return r;
}
