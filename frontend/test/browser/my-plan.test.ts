// Issue 32 item 12: "Мой тариф" in settings, the dashboard's word after a checkout, receipts as PDF,
// the Free card as the landing page shows it. Real product (embedded) and Chromium at 375 and 1280 px.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN_ACCOUNT,
  appReady,
  newAccount,
  registerViaApi,
  signInWithTokens,
  useProduct,
  withPage,
  type TestAccount,
} from './harness.ts';

const product = useProduct();
const PRO_ID = '00000000-0000-4000-8000-000000000002';
const PRO_MONTH_ID = '00000000-0000-4000-8000-000000000021';
const WIDTHS = [375, 1280] as const;
const today = () => new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });
const inDays = (days: number) => today().format(new Date(Date.now() + days * 86_400_000));

async function api(method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${product.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function tokenOf(acc: Pick<TestAccount, 'email' | 'password'>): Promise<string> {
  const res = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function signedIn(page: Page): Promise<TestAccount> {
  const acc = newAccount('myplan');
  await registerViaApi(product.url, acc);
  await signInWithTokens(page, product.url, acc);
  return acc;
}

async function openSettings(page: Page) {
  await page.goto('/settings');
  await appReady(page);
  await page.locator('[data-testid="my-plan"]').waitFor();
}

/** Pricing → Pro → the test provider's page → the given button; answers the order id. */
async function checkoutInBrowser(page: Page, button: 'Оплатить' | 'Отклонить'): Promise<string> {
  await page.goto('/pricing');
  await appReady(page);
  await page.locator('[data-plan="Pro"] [data-testid="plan-variant"]').first().getByRole('button', { name: 'Выбрать' }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/api/billing/test-checkout/'));
  const orderId = new URL(page.url()).pathname.split('/').pop()!;
  // The page's script fetches the order after the load event; poll until the amount is in.
  await expect
    .poll(async () => (await page.locator('[data-testid="test-checkout-amount"]').innerText()).replace(/\s/g, ' '))
    .toBe('499,00 ₽');
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((u) => u.pathname === '/dashboard');
  return orderId;
}

const text = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]`).innerText();

describe('"Мой тариф" and checkout results', { timeout: 180_000 }, () => {
  for (const width of WIDTHS) {
    const viewport = { width, height: width < 600 ? 800 : 900 };

    it(`${width} px: a new user sees Free, the same card as the landing page, and no payments`, async () => {
      await withPage(
        product,
        async ({ page, errors }) => {
          await signedIn(page);
          await page.goto('/');
          await appReady(page);
          const landingFree = page.locator('#pricing [data-plan="Free"]');
          await landingFree.waitFor();
          const landing = (await landingFree.innerText()).replace(/\n?Начать\n?/, '\n');
          await openSettings(page);
          const card = page.locator('[data-testid="my-plan-free"]');
          await card.waitFor();
          const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
          expect(norm(await card.innerText())).toBe(norm(landing));
          expect(await page.locator('[data-testid="my-plan-current"]').count()).toBe(0);
          await expect.poll(() => text(page, 'payments-table')).toContain('Платежей пока не было');
          expect(await text(page, 'my-plan-change')).toBe('Выбрать тариф');
          await page.locator('[data-testid="my-plan"]').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/shot-my-plan-free-${width}.png`, fullPage: true });
          expect(errors).toEqual([]);
        },
        viewport,
      );
    });

    it(`${width} px: a paid checkout says so on the dashboard; settings show Pro, the switch and a PDF receipt`, async () => {
      await withPage(
        product,
        async ({ page, errors }) => {
          await signedIn(page);
          await checkoutInBrowser(page, 'Оплатить');
          const banner = page.locator('[data-testid="checkout-result"]');
          await banner.waitFor();
          expect(await text(page, 'checkout-result-title')).toBe('Оплата прошла успешно');
          expect(await text(page, 'checkout-result-text')).toBe(`Тариф «Pro» подключён до ${inDays(30)}.`);
          expect(new URL(page.url()).search).toBe('');
          await page.screenshot({ path: `/tmp/shot-checkout-paid-${width}.png` });

          await openSettings(page);
          expect(await text(page, 'my-plan-name')).toBe('Pro');
          expect(await text(page, 'my-plan-status')).toBe('Активна');
          expect(await text(page, 'my-plan-expiry')).toBe(`Действует до ${inDays(30)}. Автопродление включено.`);
          expect(await page.locator('[data-testid="my-plan-free"]').count()).toBe(0);
          const toggle = page.locator('[data-testid="auto-renew"]');
          expect(await toggle.getAttribute('aria-checked')).toBe('true');
          await toggle.click();
          await expect.poll(() => text(page, 'my-plan-expiry')).toContain('Автопродление выключено: тариф сохранится до этой даты');
          await page.reload();
          await appReady(page);
          await expect.poll(() => page.locator('[data-testid="auto-renew"]').getAttribute('aria-checked')).toBe('false');
          expect(await text(page, 'my-plan-status')).toBe('Активна');

          const row = page.locator('[data-testid="payments-table"] tbody tr');
          await expect.poll(() => row.count()).toBe(1);
          const rowText = (await row.innerText()).replace(/\s+/g, ' ');
          expect(rowText).toContain('Pro');
          expect(rowText).toContain('499 ₽');
          expect(rowText).toContain('Оплачен');
          const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('receipt-download').click()]);
          expect(download.suggestedFilename()).toMatch(/^receipt-\d{4}-\d{2}-\d{2}\.pdf$/);
          const file = path.join(mkdtempSync(path.join(tmpdir(), 'wb-receipt-')), 'r.pdf');
          await download.saveAs(file);
          expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
          const pdf = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
          expect(pdf).toMatch(/499,00\s₽/);
          expect(pdf).toContain('Pro, 30 дн.');
          await page.locator('[data-testid="my-plan"]').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/shot-my-plan-pro-${width}.png`, fullPage: true });
          expect(errors).toEqual([]);
        },
        viewport,
      );
    });

    it(`${width} px: a declined checkout says so and the plan stays Free`, async () => {
      await withPage(
        product,
        async ({ page }) => {
          await signedIn(page);
          await checkoutInBrowser(page, 'Отклонить');
          await page.locator('[data-testid="checkout-result"]').waitFor();
          expect(await text(page, 'checkout-result-title')).toBe('Оплата отклонена');
          expect(await text(page, 'checkout-result-text')).toContain('Тариф не изменился.');
          await page.screenshot({ path: `/tmp/shot-checkout-declined-${width}.png` });
          await openSettings(page);
          await page.locator('[data-testid="my-plan-free"]').waitFor();
          const row = page.locator('[data-testid="payments-table"] tbody tr');
          await expect.poll(() => row.innerText()).toContain('Отклонён');
          expect(await row.getByTestId('receipt-download').count()).toBe(0);
        },
        viewport,
      );
    });
  }

  it('declining an order that is already paid says the plan did change', async () => {
    await withPage(product, async ({ page }) => {
      const acc = await signedIn(page);
      const token = await tokenOf(acc);
      const order = await api('POST', '/api/billing/checkout', token, { plan_id: PRO_ID, variant_id: PRO_MONTH_ID });
      const id = order.body.data.order_id as string;
      expect((await api('POST', `/api/billing/test-checkout/${id}`, token, { outcome: 'pay' })).body.result).toBe('paid');
      await page.goto(`/api/billing/test-checkout/${id}`);
      await expect.poll(() => page.locator('[data-testid="test-checkout-status"]').innerText()).toBe('Заказ уже оплачен.');
      await page.getByRole('button', { name: 'Отклонить' }).click();
      await page.waitForURL((u) => u.pathname === '/dashboard');
      await page.locator('[data-testid="checkout-result"]').waitFor();
      expect(await text(page, 'checkout-result-title')).toBe('Этот заказ уже оплачен');
      expect(await text(page, 'checkout-result-text')).toBe(
        `Отклонить его нельзя: оплата прошла, тариф изменён — «Pro» подключён до ${inDays(30)}.`,
      );
    });
  });

  it("another user opening someone's checkout page sees no order and cannot pay it", async () => {
    await withPage(product, async ({ page }) => {
      const owner = newAccount('owner');
      await registerViaApi(product.url, owner);
      const order = await api('POST', '/api/billing/checkout', await tokenOf(owner), { plan_id: PRO_ID, variant_id: PRO_MONTH_ID });
      await signedIn(page);
      const response = await page.goto(order.body.data.checkout_url);
      // Through the gateway too: the page may not be framed and runs only its own nonce'd script.
      const csp = response?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'nonce-/);
      expect(response?.headers()['x-frame-options']).toBe('DENY');
      await expect.poll(() => page.locator('[data-testid="test-checkout-status"]').innerText()).toBe('Заказ не найден');
      expect(await page.locator('[data-testid="test-checkout-amount"]').isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Оплатить' }).isVisible()).toBe(false);
    });
  });

  it('grace and expired subscriptions show "Льготный период" and "Истекла" (with the Free card)', async () => {
    await withPage(
      product,
      async ({ page }) => {
        const acc = await signedIn(page);
        const token = await tokenOf(acc);
        const order = await api('POST', '/api/billing/checkout', token, { plan_id: PRO_ID, variant_id: PRO_MONTH_ID });
        await api('POST', `/api/billing/test-checkout/${order.body.data.order_id}`, token, { outcome: 'pay' });
        const sub = (await api('GET', '/api/billing/subscription', token)).body.subscription;
        const admin = await tokenOf(ADMIN_ACCOUNT);
        const set = (daysAgo: number, status: string) =>
          api('PUT', `/api/admin/subscriptions/${sub.id}`, admin, {
            plan_id: PRO_ID,
            expires_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
            status,
          });
        expect((await set(1, 'grace')).status).toBe(200);
        await openSettings(page);
        await expect.poll(() => text(page, 'my-plan-status')).toBe('Льготный период');
        expect(await text(page, 'my-plan-expiry')).toContain(`Оплаченный период закончился ${inDays(-1)}`);
        await page.screenshot({ path: '/tmp/shot-my-plan-grace-375.png', fullPage: true });

        expect((await set(10, 'expired')).status).toBe(200);
        await page.reload();
        await appReady(page);
        await expect.poll(() => text(page, 'my-plan-status')).toBe('Истекла');
        await page.locator('[data-testid="my-plan-free"]').waitFor();
        expect(await page.locator('[data-testid="auto-renew"]').count()).toBe(0);
      },
      { width: 375, height: 800 },
    );
  });
});
