import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN_ACCOUNT,
  appReady,
  newAccount,
  pathOf,
  registerViaApi,
  signInWithTokens,
  toastTexts,
  useProduct,
  withPage,
  type TestAccount,
} from './harness.ts';

const product = useProduct();

async function tokenOf(acc: Pick<TestAccount, 'email' | 'password'>): Promise<string> {
  const res = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function setBillingEnabled(enabled: boolean) {
  const res = await fetch(`${product.url}/api/admin/config`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${await tokenOf(ADMIN_ACCOUNT)}` },
    body: JSON.stringify({ billing_enabled: enabled }),
  });
  expect(res.status).toBe(200);
}

const proButton = (page: Page, label: string) =>
  page.locator('[data-plan="Pro"] [data-testid="plan-variant"]').first().getByRole('button', { name: label });

async function openPricingSignedIn(page: Page): Promise<TestAccount> {
  const acc = newAccount('billing');
  await registerViaApi(product.url, acc);
  await signInWithTokens(page, product.url, acc);
  await page.goto('/pricing');
  await appReady(page);
  await page.waitForSelector('[data-testid="plans-grid"]');
  return acc;
}

/** The header's 'current/max' on the dashboard, reloading until billing's event has reached boards. */
async function expectBoardCount(page: Page, text: string) {
  await expect
    .poll(
      async () => {
        await page.goto('/dashboard');
        await appReady(page);
        return page.locator('[data-testid="board-count"]').innerText({ timeout: 5_000 });
      },
      { timeout: 15_000, interval: 300 },
    )
    .toBe(text);
}

// Paying goes through several full page loads; on the shared 2-core machine one test can take 30 s.
describe(
  'pricing page and checkout (spec §2 Pricing page, §4 Pricing checkout)',
  { timeout: 120_000 },
  () => {
    it('shows three-column plan cards with the popular badge, prices and the FAQ', async () => {
      await withPage(product, async ({ page, errors }) => {
        await page.goto('/pricing');
        await appReady(page);
        await page.waitForSelector('[data-testid="plans-grid"]');
        expect(await page.locator('[data-testid="plan-card"]').count()).toBe(2);
        const pro = page.locator('[data-plan="Pro"]');
        expect(await pro.locator('.plan__badge').innerText()).toBe('Популярный');
        expect(await pro.innerText()).toContain('Неограниченное количество досок');
        expect(await pro.innerText()).toContain('Экспорт в PDF');
        expect((await pro.locator('.plan__price').first().innerText()).replace(/\s/g, ' ')).toBe('499 ₽');
        expect(await pro.locator('.plan__period').allInnerTexts()).toEqual(['за месяц', 'за год']);
        const free = page.locator('[data-plan="Free"]');
        expect(await free.locator('.plan__price').innerText()).toBe('Бесплатно');
        expect(await free.innerText()).toContain('До 3 досок');
        expect(await free.innerText()).not.toContain('Экспорт в PDF');
        expect(await free.getByRole('button', { name: 'Начать' }).count()).toBe(1);
        expect(await page.locator('[data-testid="pricing-faq"] details').count()).toBe(4);
        expect(await page.locator('[data-testid="billing-off"]').count()).toBe(0);
        expect(errors).toEqual([]);
      });
    });

    it('plans that fail to load: the error and a retry, no claim about what is free; the title stays at 375 px', async () => {
      await withPage(
        product,
        async ({ page }) => {
          let failing = true;
          await page.route('**/api/billing/plans', (route) =>
            failing ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"INTERNAL_ERROR","error":"x"}' }) : route.continue(),
          );
          await page.goto('/pricing');
          await appReady(page);
          const panel = page.locator('[data-testid="plans-error"]');
          await panel.waitFor();
          expect(await panel.innerText()).toContain('Не удалось загрузить тарифы');
          await expect.poll(() => toastTexts(page)).toContain('Не удалось загрузить тарифы');
          expect(await page.locator('main').innerText()).not.toContain('бесплатно');
          expect(await page.locator('.simple-header__brand').isVisible()).toBe(true);
          expect(await page.getByRole('link', { name: 'Назад' }).isVisible()).toBe(true);
          failing = false;
          await panel.getByRole('button', { name: 'Повторить' }).click();
          await page.waitForSelector('[data-testid="plans-grid"]');
        },
        { width: 375, height: 800 },
      );
    });

    it('a visitor who picks Pro is sent to /register', async () => {
      await withPage(product, async ({ page }) => {
        await page.goto('/pricing');
        await appReady(page);
        await proButton(page, 'Выбрать').click();
        await page.waitForURL((u) => u.pathname === '/register');
        expect(pathOf(page)).toBe('/register');
      });
    });

    it('a visitor who picks a plan on the landing page is sent to /register too', async () => {
      await withPage(product, async ({ page }) => {
        await page.goto('/');
        await appReady(page);
        await page
          .locator('#pricing [data-plan="Pro"]')
          .getByRole('button', { name: 'Выбрать' })
          .first()
          .click();
        await page.waitForURL((u) => u.pathname === '/register');
      });
    });

    it('a signed-in user who picks Free goes to the dashboard', async () => {
      await withPage(product, async ({ page }) => {
        await openPricingSignedIn(page);
        await page.locator('[data-plan="Free"]').getByRole('button', { name: 'Начать' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard');
      });
    });

    it('a user picks Pro, pays on the test provider page, returns, and the dashboard shows the new limit', async () => {
      await withPage(product, async ({ page, errors }) => {
        await openPricingSignedIn(page);
        await expectBoardCount(page, '0/3');
        await page.goto('/pricing');
        await appReady(page);
        await proButton(page, 'Выбрать').click();
        await page.waitForURL((u) => u.pathname.startsWith('/api/billing/test-checkout/'));
        // The page's script fetches the order after the load event; poll until the amount is in.
        await expect
          .poll(async () => (await page.locator('[data-testid="test-checkout-amount"]').innerText()).replace(/\s/g, ' '))
          .toBe('499,00 ₽');
        await page.getByRole('button', { name: 'Оплатить' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard');
        await expectBoardCount(page, '0/∞');
        expect(errors).toEqual([]);
      });
    });

    it('"Отклонить" brings the user back to the dashboard, which says so, with the limit unchanged', async () => {
      await withPage(product, async ({ page }) => {
        await openPricingSignedIn(page);
        await proButton(page, 'Выбрать').click();
        await page.waitForURL((u) => u.pathname.startsWith('/api/billing/test-checkout/'));
        await page.getByRole('button', { name: 'Отклонить' }).click();
        await page.waitForURL((u) => u.pathname === '/dashboard');
        await expect
          .poll(() => page.locator('[data-testid="checkout-result"]').innerText(), { timeout: 10_000 })
          .toContain('Оплата отклонена');
        await expectBoardCount(page, '0/3');
      });
    });

    it('billing off: the yellow notice shows and checkout answers "Биллинг временно недоступен"', async () => {
      await setBillingEnabled(false);
      try {
        await withPage(product, async ({ page }) => {
          const acc = await openPricingSignedIn(page);
          const notice = page.locator('[data-testid="billing-off"]');
          expect(await notice.innerText()).toContain('Биллинг временно недоступен');
          expect(await notice.innerText()).toContain(
            'В настоящее время все премиум функции доступны бесплатно для всех пользователей.',
          );
          await proButton(page, 'Выбрать').click();
          await expect
            .poll(() => toastTexts(page), { timeout: 10_000 })
            .toContain('Биллинг временно недоступен');
          expect(pathOf(page)).toBe('/pricing');

          const res = await fetch(`${product.url}/api/billing/checkout`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', authorization: `Bearer ${await tokenOf(acc)}` },
            body: JSON.stringify({
              plan_id: '00000000-0000-4000-8000-000000000002',
              variant_id: '00000000-0000-4000-8000-000000000021',
            }),
          });
          expect(await res.json()).toMatchObject({
            error: 'Биллинг временно недоступен',
            code: 'BILLING_DISABLED',
          });
          // Premium for everyone while billing is off.
          await expectBoardCount(page, '0/∞');
        });
      } finally {
        await setBillingEnabled(true);
      }
    });
  },
);
