import { randomBytes } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { TestCheckoutInput, type TestCheckoutAnswer } from '@wb/contracts';
import { appError, currentUserId, idParam, parse } from '@wb/service-kit';
import { settleOrder } from '../actions/payments.ts';
import { orderById } from '../store/payments.ts';
import type { RouteContext } from './context.ts';
import { checkoutPage } from './test-checkout-page.ts';

/** Every answer of the test provider: never framed (no clickjacking of "Оплатить"), no referrer, no caching. */
const lockedDown = (csp: string): RequestHandler => (_req, res, next) => {
  res.setHeader('content-security-policy', csp);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('cache-control', 'no-store');
  next();
};
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The test provider's checkout (development and tests only: the router is empty unless the
 * provider is enabled). A page navigation carries no access token, so the page is a shell holding
 * no order data; its script reads the order and posts the choice with the signed-in user's token,
 * and both calls act only for the order's owner (anyone else gets 404, as for an unknown order).
 * The choice becomes the provider's signed notification, handled exactly as the webhook would.
 */
export function testCheckoutRouter(ctx: RouteContext): Router {
  const r = Router();
  const test = ctx.providers.test;
  if (!test) return r;

  r.get('/test-checkout/:id', (req, res) => {
    const id = idParam(req, 'ORDER_NOT_FOUND');
    const nonce = randomBytes(16).toString('base64');
    const csp =
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
      "img-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
    lockedDown(csp)(req, res, () => res.type('html').send(checkoutPage(id, nonce)));
  });

  r.post('/test-checkout/:id', lockedDown(API_CSP), ...ctx.auth, async (req, res) => {
    const id = idParam(req, 'ORDER_NOT_FOUND');
    const { outcome } = parse(TestCheckoutInput, req.body);
    const order = await orderById(ctx.pool, id);
    if (!order || order.provider !== 'test' || order.user_id !== currentUserId(req)) throw appError('ORDER_NOT_FOUND');
    const settlement = await test.readNotification({
      rawBody: Buffer.from(JSON.stringify(test.notification(id, outcome === 'pay'))),
      headers: {},
    });
    const result = settlement ? await settleOrder(ctx.pool, test, settlement, ctx.clock()) : 'already_failed';
    const answer: TestCheckoutAnswer = {
      result,
      redirect_url: `${ctx.baseUrl(req)}/dashboard?payment=${outcome === 'pay' ? 'success' : 'declined'}&order=${id}`,
    };
    res.json(answer);
  });

  return r;
}
