import { Router } from 'express';
import type { OrderAnswer, ReceiptInput } from '@wb/contracts';
import { appError, currentUserId, idParam, internalHeaders, signedInUser } from '@wb/service-kit';
import { calculatedStatus } from '../domain/status.ts';
import { getConfig } from '../store/config.ts';
import { orderById } from '../store/payments.ts';
import { setAutoRenew, subscriptionOfUser } from '../store/subscriptions.ts';
import { userEmail } from '../store/users.ts';
import type { RouteContext } from './context.ts';

export interface MyPlanDeps {
  /** export's base address for /internal/receipts; absent: receipts answer 503. */
  exportUrl?: string;
  internalToken?: string;
}

/**
 * "Мой тариф": the owner's order (what the dashboard says after a checkout), resuming auto-renew,
 * and a paid payment's PDF receipt, drawn by the export service (billing sends it the payment's
 * data; services never import each other). Someone else's order or payment is a 404, as an unknown one.
 */
export function myPlanRouter(ctx: RouteContext, deps: MyPlanDeps): Router {
  const r = Router();

  r.get('/orders/:id', ...ctx.auth, async (req, res) => {
    const order = await orderById(ctx.pool, idParam(req, 'ORDER_NOT_FOUND'));
    if (!order || order.user_id !== currentUserId(req)) throw appError('ORDER_NOT_FOUND');
    const [sub, config] = await Promise.all([subscriptionOfUser(ctx.pool, order.user_id), getConfig(ctx.pool)]);
    const answer: OrderAnswer = {
      order: {
        id: order.id,
        plan_name: order.plan_name,
        days: order.days,
        amount_minor: order.amount_minor,
        currency: order.currency,
        status: order.status,
        created_at: order.created_at,
      },
      subscription: sub
        ? { ...sub, calculated_status: calculatedStatus(sub.status, new Date(sub.expires_at), config.grace_days, ctx.clock()) }
        : null,
    };
    res.json(answer);
  });

  r.post('/resume-auto-renew', ...ctx.auth, async (req, res) => {
    if (!(await setAutoRenew(ctx.pool, currentUserId(req), true))) throw appError('SUBSCRIPTION_NOT_FOUND');
    res.json({ subscription: await subscriptionOfUser(ctx.pool, currentUserId(req)) });
  });

  r.get('/payments/:id/receipt', ...ctx.auth, async (req, res) => {
    const order = await orderById(ctx.pool, idParam(req, 'PAYMENT_NOT_FOUND'));
    if (!order || order.user_id !== currentUserId(req) || order.status === 'pending') throw appError('PAYMENT_NOT_FOUND');
    if (order.status !== 'paid') throw appError('RECEIPT_NOT_AVAILABLE');
    if (!deps.exportUrl) throw appError('RECEIPT_FAILED');
    const input: ReceiptInput = {
      payment_id: order.id,
      user_name: order.user_name ?? signedInUser(req).name,
      user_email: (await userEmail(ctx.pool, order.user_id)) ?? signedInUser(req).email,
      plan_name: order.plan_name,
      days: order.days,
      amount_minor: order.amount_minor,
      currency: order.currency,
      provider: order.provider,
      paid_at: new Date(order.settled_at ?? order.created_at).toISOString(),
    };
    let pdf: Buffer;
    try {
      const answer = await fetch(`${deps.exportUrl.replace(/\/+$/, '')}/internal/receipts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(deps.internalToken ? internalHeaders(deps.internalToken) : {}) },
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(15_000),
      });
      if (!answer.ok || !answer.headers.get('content-type')?.startsWith('application/pdf')) throw new Error(`export answered ${answer.status}`);
      pdf = Buffer.from(await answer.arrayBuffer());
    } catch (err) {
      req.log.warn({ paymentId: order.id, error: (err as Error).message }, 'receipt not rendered');
      throw appError('RECEIPT_FAILED');
    }
    const day = input.paid_at.slice(0, 10);
    res.setHeader('content-type', 'application/pdf');
    res.setHeader('content-disposition', `attachment; filename="receipt-${day}-${order.id.slice(0, 8)}.pdf"`);
    res.setHeader('cache-control', 'no-store');
    res.send(pdf);
  });

  return r;
}
