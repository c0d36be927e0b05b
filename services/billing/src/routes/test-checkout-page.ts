/**
 * The test provider's page: a shell with no order data in it (a navigation carries no token). Its
 * one script (allowed by the CSP nonce) reads the order and posts the choice with the access token
 * the SPA keeps in localStorage (key `accessToken`, spec §3 "Auth session"), so only the order's
 * owner, signed in, sees the amount or can pay or decline.
 */
const STYLE = `
body{font-family:system-ui,sans-serif;background:#f1f5f9;margin:0;display:grid;place-items:center;min-height:100vh;color:#0f172a}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(15,23,42,.12);padding:32px;max-width:420px;width:calc(100% - 32px)}
h1{font-size:20px;margin:0 0 8px}p{color:#475569}.amount{font-size:28px;font-weight:700;color:#0f172a;margin:16px 0}
.note{font-size:13px;background:#fef9c3;border-radius:8px;padding:8px 12px;color:#854d0e}
button{font:inherit;border:0;border-radius:10px;padding:10px 18px;cursor:pointer;margin-right:8px}
.pay{background:#4f46e5;color:#fff}.decline{background:#e2e8f0;color:#0f172a}[hidden]{display:none}`;

// Plain DOM calls with textContent only: nothing the server answers is ever parsed as HTML.
const SCRIPT = `
(() => {
  const id = document.body.dataset.order;
  const $ = (s) => document.querySelector(s);
  const say = (text) => { $('#status').textContent = text; $('#status').hidden = false; };
  const token = localStorage.getItem('accessToken');
  const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
  if (!token) { say('Войдите в аккаунт, которым оформлен заказ, и откройте эту страницу снова.'); return; }
  const money = (minor, currency) => new Intl.NumberFormat('ru-RU', { style: 'currency', currency }).format(minor / 100);
  fetch('/api/billing/orders/' + id, { headers }).then(async (r) => {
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { say(body.error || 'Заказ не найден'); return; }
    const o = body.order;
    $('#plan').textContent = 'Тариф «' + o.plan_name + '», ' + o.days + ' дн.';
    $('#amount').textContent = money(o.amount_minor, o.currency);
    $('#order').hidden = false;
    if (o.status !== 'pending') say(o.status === 'paid' ? 'Заказ уже оплачен.' : 'Заказ уже отклонён.');
    $('#actions').hidden = false;
  }, () => say('Нет связи с сервером. Обновите страницу.'));
  const choose = (outcome) => async () => {
    for (const b of document.querySelectorAll('button')) b.disabled = true;
    const r = await fetch('/api/billing/test-checkout/' + id, { method: 'POST', headers, body: JSON.stringify({ outcome }) }).catch(() => null);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok && body.redirect_url) { location.assign(body.redirect_url); return; }
    say(body.error || 'Нет связи с сервером. Попробуйте ещё раз.');
    for (const b of document.querySelectorAll('button')) b.disabled = false;
  };
  $('#pay').addEventListener('click', choose('pay'));
  $('#decline').addEventListener('click', choose('decline'));
})();`;

export function checkoutPage(orderId: string, nonce: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Тестовая оплата</title><style nonce="${nonce}">${STYLE}</style></head>
<body data-order="${orderId}"><main>
<h1>Тестовая оплата</h1>
<div id="order" hidden><p id="plan"></p><div class="amount" id="amount" data-testid="test-checkout-amount"></div></div>
<p class="note">Это тестовый платёжный шлюз: деньги не списываются.</p>
<p id="status" data-testid="test-checkout-status" role="status" hidden></p>
<div id="actions" hidden><button id="pay" class="pay" type="button">Оплатить</button><button id="decline" class="decline" type="button">Отклонить</button></div>
</main><script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}
