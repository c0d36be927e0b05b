import { Router } from 'express';
import { z } from 'zod';
import { PlanInput, SubscriptionCreateInput, SubscriptionExtendInput, SubscriptionUpdateInput, SystemConfigInput } from '@wb/contracts';
import { idParam, parse } from '@wb/service-kit';
import { changeConfig } from '../actions/config.ts';
import { createPlan, editPlan, removePlan } from '../actions/plans.ts';
import {
  adminCreateSubscription,
  adminExtendSubscription,
  adminUpdateSubscription,
  revokeSubscription,
  runExpiryPass,
} from '../actions/subscriptions.ts';
import { calculatedStatus } from '../domain/status.ts';
import { getConfig } from '../store/config.ts';
import { allPayments } from '../store/payments.ts';
import { listPlans } from '../store/plans.ts';
import { listSubscriptions, type SubscriptionRow } from '../store/subscriptions.ts';
import { actorOf, type RouteContext } from './context.ts';

const Search = z.object({ search: z.string().max(200).optional() });

/** /api/admin/{plans,subscriptions,payments,config} (spec §7 Administration); administrators only. */
export function adminRouter(ctx: RouteContext): Router {
  const r = Router();
  r.use(['/plans', '/subscriptions', '/payments', '/config'], ...ctx.admin);

  const view = async (s: SubscriptionRow) => {
    const { grace_days } = await getConfig(ctx.pool);
    return { ...s, calculated_status: calculatedStatus(s.status, new Date(s.expires_at), grace_days, ctx.clock()) };
  };

  r.get('/plans', async (_req, res) => {
    res.json({ plans: await listPlans(ctx.pool, { activeOnly: false }) });
  });
  r.post('/plans', async (req, res) => {
    const plan = await createPlan(ctx.pool, parse(PlanInput, req.body), ctx.clock(), actorOf(req));
    ctx.plans.invalidate();
    res.status(201).json({ plan });
  });
  r.put('/plans/:id', async (req, res) => {
    const id = idParam(req, 'PLAN_NOT_FOUND');
    const plan = await editPlan(ctx.pool, id, parse(PlanInput, req.body), ctx.clock(), actorOf(req));
    ctx.plans.invalidate();
    res.json({ plan });
  });
  r.delete('/plans/:id', async (req, res) => {
    const plan = await removePlan(ctx.pool, idParam(req, 'PLAN_NOT_FOUND'), ctx.clock(), actorOf(req));
    ctx.plans.invalidate();
    res.json({ plan });
  });

  r.get('/subscriptions', async (req, res) => {
    const { search } = parse(Search, req.query);
    const [rows, { grace_days }] = await Promise.all([listSubscriptions(ctx.pool, search?.trim() || undefined), getConfig(ctx.pool)]);
    const now = ctx.clock();
    res.json({
      subscriptions: rows.map((s) => ({ ...s, calculated_status: calculatedStatus(s.status, new Date(s.expires_at), grace_days, now) })),
    });
  });
  r.post('/subscriptions', async (req, res) => {
    const row = await adminCreateSubscription(ctx.pool, parse(SubscriptionCreateInput, req.body), ctx.clock(), actorOf(req));
    res.status(201).json({ subscription: await view(row) });
  });
  r.put('/subscriptions/:id/extend', async (req, res) => {
    const id = idParam(req, 'SUBSCRIPTION_NOT_FOUND');
    const { days } = parse(SubscriptionExtendInput, req.body);
    res.json({ subscription: await view(await adminExtendSubscription(ctx.pool, id, days, ctx.clock(), actorOf(req))) });
  });
  r.put('/subscriptions/:id', async (req, res) => {
    const id = idParam(req, 'SUBSCRIPTION_NOT_FOUND');
    const row = await adminUpdateSubscription(ctx.pool, id, parse(SubscriptionUpdateInput, req.body), ctx.clock(), actorOf(req));
    res.json({ subscription: await view(row) });
  });
  r.delete('/subscriptions/:id', async (req, res) => {
    await revokeSubscription(ctx.pool, idParam(req, 'SUBSCRIPTION_NOT_FOUND'), ctx.clock(), actorOf(req));
    res.json({ ok: true });
  });

  r.get('/payments', async (_req, res) => {
    res.json({ payments: await allPayments(ctx.pool) });
  });

  r.get('/config', async (_req, res) => {
    res.json(await getConfig(ctx.pool));
  });
  r.put('/config', async (req, res) => {
    const config = await changeConfig(ctx.pool, parse(SystemConfigInput, req.body), ctx.clock(), actorOf(req));
    ctx.plans.invalidate();
    // A shorter grace period may end some graces now.
    await runExpiryPass(ctx.pool, ctx.clock());
    res.json(config);
  });

  return r;
}
