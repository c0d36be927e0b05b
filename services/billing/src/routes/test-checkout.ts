import express, { Router } from 'express';
import { appError } from '@wb/service-kit';
import { settleOrder } from '../actions/payments.ts';
import { orderById } from '../store/payments.ts';
import type { RouteContext } from './context.ts';
import { idParam } from './context.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const price = (minor: number, currency: string) =>
  new Intl.NumberFormat('ru-RU', { style: 'currency', currency }).format(minor / 100);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f5f9;margin:0;display:grid;place-items:center;min-height:100vh;color:#0f172a}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(15,23,42,.12);padding:32px;max-width:420px;width:calc(100% - 32px)}
h1{font-size:20px;margin:0 0 8px}p{color:#475569}.amount{font-size:28px;font-weight:700;color:#0f172a;margin:16px 0}
.note{font-size:13px;background:#fef9c3;border-radius:8px;padding:8px 12px;color:#854d0e}
form{display:inline}button{font:inherit;border:0;border-radius:10px;padding:10px 18px;cursor:pointer;margin-right:8px}
.pay{background:#4f46e5;color:#fff}.decline{background:#e2e8f0;color:#0f172a}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The test provider's checkout page (development and the embedded mode). Its buttons post here;
 * the server turns the choice into the provider's signed notification and handles it exactly as
 * the webhook would, then sends the browser back like a real provider does.
 */
export function testCheckoutRouter(ctx: RouteContext): Router {
  const r = Router();
  const test = ctx.providers.test;
  if (!test) return r;

  r.get('/test-checkout/:id', async (req, res) => {
    const order = await orderById(ctx.pool, idParam(req, 'ORDER_NOT_FOUND'));
    if (!order || order.provider !== 'test') throw appError('ORDER_NOT_FOUND');
    const done = order.status !== 'pending';
    res.type('html').send(
      page(
        'Тестовая оплата',
        `<h1>Тестовая оплата</h1>
<p>Тариф «${escapeHtml(order.plan_name)}», ${order.days} дн.</p>
<div class="amount" data-testid="test-checkout-amount">${escapeHtml(price(order.amount_minor, order.currency))}</div>
<p class="note">Это тестовый платёжный шлюз: деньги не списываются.</p>
${
  done
    ? `<p data-testid="test-checkout-status">Заказ уже ${order.status === 'paid' ? 'оплачен' : 'отклонён'}.</p>`
    : `<form method="post"><input type="hidden" name="outcome" value="pay"><button class="pay" type="submit">Оплатить</button></form>
<form method="post"><input type="hidden" name="outcome" value="decline"><button class="decline" type="submit">Отклонить</button></form>`
}`,
      ),
    );
  });

  r.post('/test-checkout/:id', express.urlencoded({ extended: false, limit: '1kb' }), async (req, res) => {
    const id = idParam(req, 'ORDER_NOT_FOUND');
    const order = await orderById(ctx.pool, id);
    if (!order || order.provider !== 'test') throw appError('ORDER_NOT_FOUND');
    const paid = (req.body as { outcome?: string } | undefined)?.outcome === 'pay';
    const notification = test.notification(id, paid);
    const settlement = await test.readNotification({ rawBody: Buffer.from(JSON.stringify(notification)), headers: {} });
    if (settlement) await settleOrder(ctx.pool, test, settlement, ctx.clock());
    const base = ctx.baseUrl(req);
    res.redirect(303, paid ? `${base}/dashboard?payment=success` : `${base}/pricing?payment=cancelled`);
  });

  return r;
}
