/**
 * Issue 34 item 2: the admin panel (spec §2 Admin panel, §4, §5, §8) in Chromium against the whole
 * product: an administrator opens every tab (axe clean, at 1280 and 375 px), edits a plan, extends
 * a subscription, deletes a user, toggles billing and runs the system update to 'Завершено'.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsEnded, seriousViolations } from './axe.ts';
import {
  ADMIN_ACCOUNT,
  appReady,
  newAccount,
  registerViaApi,
  signInWithTokens,
  toastTexts,
  useProduct,
  withPage,
  type TestAccount,
} from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_TEST_BASE_URL });

const TABS = ['overview', 'system', 'plans', 'users', 'subscriptions', 'payments', 'settings'] as const;
const TAB_NAMES = ['Обзор', 'Система', 'Планы', 'Пользователи', 'Подписки', 'Платежи', 'Настройки'];

async function tokenOf(acc: Pick<TestAccount, 'email' | 'password'>): Promise<string> {
  const res = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  if (!res.ok) throw new Error(`login ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${await tokenOf(ADMIN_ACCOUNT)}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Plan {
  id: string;
  name: string;
  description: string;
  is_active: boolean;
  limits_json: {
    max_board_count: number;
    max_canvas_extent_w: number;
    max_canvas_extent_h: number;
    export_pdf_enabled: boolean;
  };
  variants: { id: string; days: number; price_minor: number; currency: string; is_active: boolean }[];
}
interface Subscription {
  id: string;
  user_id: string;
  expires_at: string;
}

async function openAdmin(page: Page, tab: (typeof TABS)[number] = 'overview'): Promise<void> {
  await signInWithTokens(page, product.url, ADMIN_ACCOUNT);
  await page.goto('/admin');
  await appReady(page);
  await page.locator('[data-testid="admin-page"]').waitFor();
  if (tab !== 'overview') await openTab(page, tab);
}

async function openTab(page: Page, tab: (typeof TABS)[number]): Promise<void> {
  await page.click(`[data-testid="admin-tab-${tab}"]`);
  await page.locator(`[data-testid="admin-panel-${tab}"]`).waitFor();
}

/** What each tab shows once its data is in. */
const READY: Record<(typeof TABS)[number], string> = {
  overview: '[data-testid="admin-today"]',
  system: '[data-testid="container-card"]',
  plans: '[data-testid="admin-plan"]',
  users: '[data-testid="user-row"]',
  subscriptions: '[data-testid="subscriptions-table"]',
  payments: '[data-testid="payments-table"]',
  settings: '[data-testid="config-billing_enabled"]:not([disabled])',
};

/** The dialog each tab opens, checked by axe and photographed as well. */
const DIALOGS: Partial<Record<(typeof TABS)[number], { open: string; ready: string }>> = {
  plans: { open: '[data-testid="plan-create"]', ready: '[data-testid="plan-editor"]' },
  users: { open: '[data-testid="user-edit"]', ready: '[data-testid="user-editor"]' },
  subscriptions: {
    open: '[data-testid="subscription-create"]',
    ready: '[data-testid="subscription-editor"]',
  },
};

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Entry animations finished, so colours are measured as they end up.
  await animationsEnded(page);
}

describe('admin panel (spec §2 Admin panel)', { timeout: 180_000 }, () => {
  it.each([
    [1280, 860],
    [375, 800],
  ])('shows the header, the counters and every tab at %i px, axe clean', async (width, height) => {
    await withPage(
      product,
      async ({ page, errors }) => {
        await openAdmin(page);
        const header = page.locator('.app-header');
        expect(await header.getByRole('button', { name: 'Обновить' }).isVisible()).toBe(true);
        expect(await header.locator('.badge').innerText()).toBe('Администратор');
        expect(await header.getByRole('link', { name: 'К доскам' }).isVisible()).toBe(true);
        // The account's own name (the test administrator happens to be called 'Администратор' too).
        expect(await page.locator('[data-testid="admin-who"]').textContent()).toBe(
          `${ADMIN_ACCOUNT.name} Администратор`,
        );
        // The counters come from the kept stats: numbers, the revenue in roubles.
        await expect.poll(() => page.locator('[data-testid="admin-stats-users"]').innerText()).toMatch(/\d/);
        expect(await page.locator('[data-testid="admin-stats-revenue"]').innerText()).toContain('₽');
        expect(await page.getByRole('tab').allInnerTexts()).toEqual(TAB_NAMES);
        for (const tab of TABS) {
          await openTab(page, tab);
          await page.locator(READY[tab]).first().waitFor();
          await settle(page);
          await page.screenshot({ path: `/tmp/shot-admin-${tab}-${width}.png`, fullPage: true });
          expect(await seriousViolations(page), tab).toEqual([]);
          expect(await noHorizontalScroll(page), tab).toBe(true);
          const dialog = DIALOGS[tab];
          if (dialog) {
            await page.click(dialog.open);
            await page.locator(dialog.ready).waitFor();
            await settle(page);
            await page.screenshot({ path: `/tmp/shot-admin-${tab}-dialog-${width}.png` });
            expect(await seriousViolations(page), `${tab} dialog`).toEqual([]);
            await page.keyboard.press('Escape');
            await page.locator(dialog.ready).waitFor({ state: 'detached' });
          }
        }
        expect(errors).toEqual([]);
      },
      { width, height },
    );
  });

  it('overview: today’s numbers and the activity of a new registration', async () => {
    const acc = newAccount('admin-overview');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await openAdmin(page);
      const activity = page.locator('[data-testid="admin-activity"]');
      await expect
        .poll(
          async () => {
            await openTab(page, 'plans');
            await openTab(page, 'overview');
            return (await activity.count()) ? activity.innerText() : '';
          },
          { timeout: 15_000, interval: 500 },
        )
        .toContain(acc.name);
      expect(
        Number(await page.locator('[data-testid="admin-today-users"] span').last().innerText()),
      ).toBeGreaterThan(0);
    });
  });

  it('system tab: gauges coloured by usage, container states, the 30 s refresh, and the retry after a failure', async () => {
    await withPage(product, async ({ page }) => {
      let failing = true;
      await page.route('**/api/admin/system', (route) =>
        failing
          ? route.fulfill({
              status: 503,
              contentType: 'application/json',
              body: '{"code":"SERVICE_UNAVAILABLE","error":"x"}',
            })
          : route.continue(),
      );
      await openAdmin(page, 'system');
      const panel = page.locator('[data-testid="system-error"]');
      await panel.waitFor();
      expect(await panel.innerText()).toContain('Ошибка получения данных системы');
      failing = false;
      await panel.getByRole('button', { name: 'Повторить' }).click();
      await page.locator('[data-testid="gauge-cpu"]').waitFor();
      for (const g of ['cpu', 'memory', 'disk']) {
        const gauge = page.locator(`[data-testid="gauge-${g}"]`);
        const pct = Number((await gauge.getByRole('meter').getAttribute('aria-valuenow')) ?? 'NaN');
        expect(await gauge.getAttribute('data-tone')).toBe(
          pct >= 90 ? 'red' : pct >= 70 ? 'yellow' : 'green',
        );
      }
      expect(['Из кеша', 'Свежие данные']).toContain(
        await page.locator('[data-testid="cache-badge"]').innerText(),
      );
      await page.locator('[data-testid="container-card"]').first().waitFor();
      const cards = page.locator('[data-testid="container-card"]');
      for (let i = 0; i < (await cards.count()); i++) {
        const state = (await cards.nth(i).getAttribute('data-state')) ?? '';
        const tone = { running: 'green', exited: 'red', paused: 'yellow' }[state] ?? 'grey';
        expect(await cards.nth(i).getAttribute('data-tone')).toBe(tone);
      }
      expect(await page.locator('[data-testid="containers-count"]').innerText()).toMatch(
        /^\d+ из \d+ запущено$/,
      );
      expect(['Система работает', 'Система недоступна']).toContain(
        await page.locator('[data-testid="system-health"]').innerText(),
      );

      // Refresh-cache failing: the spec's text as a toast.
      await page.route('**/api/admin/system/refresh-cache', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"code":"SERVICE_UNAVAILABLE","error":"Сервис недоступен"}',
        }),
      );
      await page.click('[data-testid="refresh-cache"]');
      await expect
        .poll(() => toastTexts(page))
        .toContainEqual(expect.stringContaining('Ошибка обновления кеша'));
      await page.unroute('**/api/admin/system/refresh-cache');
      // A refreshed cache reads the system data again at once.
      const reread = page.waitForResponse(
        (r) => r.url().endsWith('/api/admin/system') && r.request().method() === 'GET',
      );
      await page.click('[data-testid="refresh-cache"]');
      await reread;

      // The 30 s refresh: the next read of the system data comes by itself.
      const t0 = Date.now();
      await page.waitForRequest((r) => r.url().endsWith('/api/admin/system') && r.method() === 'GET', {
        timeout: 45_000,
      });
      expect(Date.now() - t0).toBeGreaterThan(20_000);
    });
  });

  it('plans: a new plan starts from the §9 defaults, §5 rules refuse bad input, an edit is saved in minor units', async () => {
    await withPage(product, async ({ page }) => {
      await openAdmin(page, 'plans');
      await page.getByRole('button', { name: 'Создать план' }).click();
      const editor = page.locator('[data-testid="plan-editor"]');
      await editor.waitFor();
      expect(await page.inputValue('#plan-max-boards')).toBe('3');
      expect(await page.inputValue('#plan-canvas')).toBe('8000');
      expect(await page.locator('[data-testid="plan-pdf"]').getAttribute('aria-checked')).toBe('false');
      expect(await page.inputValue('#variant-0-days')).toBe('30');
      expect(await page.inputValue('#variant-0-price')).toBe('0');
      expect(await page.inputValue('#variant-0-currency')).toBe('RUB');
      expect(await page.locator('[data-testid="variant-0-active"]').getAttribute('aria-checked')).toBe(
        'true',
      );
      // One variant left: no remove button.
      expect(await editor.locator('[data-testid="variant-remove"]').count()).toBe(0);
      await editor.locator('[data-testid="variant-add"]').click();
      expect(await editor.locator('[data-testid="variant-remove"]').count()).toBe(2);
      await editor.locator('[data-testid="variant-remove"]').last().click();
      expect(await editor.locator('[data-testid="variant-remove"]').count()).toBe(0);
      // Name required, days ≥ 1, price ≥ 0 in steps of 0.01.
      await page.fill('#variant-0-days', '0');
      await page.fill('#variant-0-price', '1.005');
      await page.click('[data-testid="plan-save"]');
      expect(await page.locator('#plan-name-error').innerText()).toBe('Название тарифа обязательно');
      expect(await page.locator('#variant-0-days-error').innerText()).toBe(
        'Количество дней должно быть целым числом не меньше 1',
      );
      expect(await page.locator('#variant-0-price-error').innerText()).toBe(
        'Цена — число не меньше 0 с шагом 0,01',
      );
      const name = `Команда ${Date.now().toString(36)}`;
      await page.fill('#plan-name', name);
      await page.fill('#variant-0-days', '90');
      await page.fill('#variant-0-price', '1234.56');
      await page.selectOption('#variant-0-currency', 'EUR');
      await page.fill('#plan-canvas', '12000');
      await page.click('[data-testid="plan-save"]');
      await editor.waitFor({ state: 'detached' });
      const card = page.locator(`[data-plan="${name}"]`);
      await card.waitFor();
      expect(await card.locator('[data-testid="plan-active"]').innerText()).toBe('Активен');
      const plans = (await api<{ plans: Plan[] }>('GET', '/admin/plans')).plans;
      const created = plans.find((p) => p.name === name)!;
      expect(created.variants).toEqual([
        expect.objectContaining({ days: 90, price_minor: 123456, currency: 'EUR', is_active: true }),
      ]);
      expect(created.limits_json).toEqual({
        max_board_count: 3,
        max_canvas_extent_w: 12000,
        max_canvas_extent_h: 12000,
        export_pdf_enabled: false,
      });

      // Edit: the description changes, the price reads back in roubles.
      await card.locator('[data-testid="plan-edit"]').click();
      await editor.waitFor();
      expect(await page.inputValue('#variant-0-price')).toBe('1234.56');
      await page.fill('#plan-description', 'Для команд');
      await page.click('[data-testid="plan-save"]');
      await editor.waitFor({ state: 'detached' });
      await expect.poll(() => card.innerText()).toContain('Для команд');
      await expect.poll(() => toastTexts(page)).toContain('План сохранён');

      // Deactivate: the confirmation of §8, then 'Неактивен'.
      await card.locator('[data-testid="plan-deactivate"]').click();
      const confirm = page.locator('[data-testid="confirm-deactivate"]');
      expect(await confirm.innerText()).toContain('Деактивировать план?');
      await page.click('[data-testid="confirm-deactivate-ok"]');
      await expect.poll(() => card.locator('[data-testid="plan-active"]').innerText()).toBe('Неактивен');
    });
  });

  it('subscriptions: created for a user, extended by the default 30 days, edited, revoked', async () => {
    const acc = newAccount('admin-sub');
    acc.name = `Подписчик ${Date.now().toString(36)}`;
    await registerViaApi(product.url, acc);
    const plans = (await api<{ plans: Plan[] }>('GET', '/admin/plans')).plans;
    const pro = plans.find((p) => p.name === 'Pro')!;
    await withPage(product, async ({ page }) => {
      await openAdmin(page, 'subscriptions');
      await page.click('[data-testid="subscription-create"]');
      const editor = page.locator('[data-testid="subscription-editor"]');
      await editor.waitFor();
      await page.click('[data-testid="subscription-save"]');
      expect(await page.locator('#subscription-user-error').innerText()).toBe('Выберите пользователя');
      expect(await page.locator('#subscription-plan-error').innerText()).toBe('Выберите тариф');
      await page.fill('[data-testid="subscription-user-search"]', acc.email);
      const userOption = page.locator('#subscription-user option', { hasText: acc.email });
      await expect.poll(() => userOption.count(), { timeout: 10_000 }).toBe(1);
      await page.selectOption('#subscription-user', { label: `${acc.name} (${acc.email})` });
      await page.selectOption('#subscription-plan', pro.id);
      expect(await page.inputValue('#subscription-days')).toBe('30');
      await page.click('[data-testid="subscription-save"]');
      await editor.waitFor({ state: 'detached' });

      await page.fill('[data-testid="subscriptions-search"]', acc.name);
      const row = page.locator('[data-testid="subscription-row"]', { hasText: acc.name });
      await row.waitFor();
      expect(await page.locator('[data-testid="subscription-row"]').count()).toBe(1);
      const before = (
        await api<{ subscriptions: Subscription[] }>(
          'GET',
          `/admin/subscriptions?search=${encodeURIComponent(acc.name)}`,
        )
      ).subscriptions[0]!;

      await row.locator('[data-testid="subscription-extend"]').click();
      await page.locator('[data-testid="extend-dialog"]').waitFor();
      expect(await page.inputValue('#extend-days')).toBe('30');
      await page.click('[data-testid="extend-save"]');
      await page.locator('[data-testid="extend-dialog"]').waitFor({ state: 'detached' });
      await expect.poll(() => toastTexts(page)).toContain('Подписка продлена');
      const after = (
        await api<{ subscriptions: Subscription[] }>(
          'GET',
          `/admin/subscriptions?search=${encodeURIComponent(acc.name)}`,
        )
      ).subscriptions[0]!;
      expect(Date.parse(after.expires_at) - Date.parse(before.expires_at)).toBe(30 * 86_400_000);
      const shown = new Intl.DateTimeFormat('ru-RU', {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
      }).format(new Date(after.expires_at));
      await expect.poll(() => row.locator('[data-testid="subscription-expires"]').innerText()).toBe(shown);

      // Edit: the status set by hand to grace ('Льготный период').
      await row.locator('[data-testid="subscription-edit"]').click();
      await page.locator('[data-testid="subscription-editor"]').waitFor();
      await page.selectOption('#subscription-status', 'grace');
      await page.fill('#subscription-expires', '2020-01-01T10:00');
      await page.click('[data-testid="subscription-save"]');
      await page.locator('[data-testid="subscription-editor"]').waitFor({ state: 'detached' });
      await expect
        .poll(() => row.locator('[data-testid="subscription-status"]').innerText())
        .not.toBe('Активна');

      // Revoke: the confirmation of §8, then the row is gone.
      await row.locator('[data-testid="subscription-revoke"]').click();
      expect(await page.locator('[data-testid="confirm-revoke"]').innerText()).toContain(
        'Аннулировать подписку?',
      );
      await page.click('[data-testid="confirm-revoke-ok"]');
      await expect.poll(() => toastTexts(page)).toContain('Подписка аннулирована');
    });
  });

  it('users: search, edit, and delete with the confirmation (not one’s own account)', async () => {
    const acc = newAccount('admin-del');
    acc.name = `Удаляемый ${Date.now().toString(36)}`;
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await openAdmin(page, 'users');
      await page.fill('[data-testid="users-search"]', ADMIN_ACCOUNT.email);
      const own = page.locator('[data-testid="user-row"]', { hasText: ADMIN_ACCOUNT.email });
      await own.waitFor();
      expect(await own.locator('[data-testid="user-delete"]').isDisabled()).toBe(true);

      await page.fill('[data-testid="users-search"]', acc.email);
      const row = page.locator('[data-testid="user-row"]', { hasText: acc.email });
      await row.waitFor();
      await expect.poll(() => page.locator('[data-testid="user-row"]').count()).toBe(1);
      expect(await row.innerText()).toContain('Free');

      await row.locator('[data-testid="user-edit"]').click();
      await page.locator('[data-testid="user-editor"]').waitFor();
      await page.fill('#user-name', '');
      await page.click('[data-testid="user-save"]');
      expect(await page.locator('#user-name-error').innerText()).toBe('Имя обязательно');
      await page.fill('#user-name', `${acc.name} 2`);
      await page.click('[data-testid="user-save"]');
      await page.locator('[data-testid="user-editor"]').waitFor({ state: 'detached' });
      await expect.poll(() => row.innerText()).toContain(`${acc.name} 2`);

      await row.locator('[data-testid="user-delete"]').click();
      expect(await page.locator('[data-testid="confirm-delete-user"]').innerText()).toContain(
        'Удалить пользователя? Это необратимо!',
      );
      await page.click('[data-testid="confirm-delete-user-ok"]');
      await expect
        .poll(() => page.locator('[data-testid="user-row"]', { hasText: acc.email }).count())
        .toBe(0);
      const login = await fetch(`${product.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: acc.email, password: acc.password }),
      });
      expect(login.status).toBe(401);
    });
  });

  it('settings: the billing switch is sent at once and survives a reload', async () => {
    const start = await api<{ billing_enabled: boolean; limits_enabled: boolean; grace_days: number }>(
      'GET',
      '/admin/config',
    );
    await withPage(product, async ({ page }) => {
      await openAdmin(page, 'settings');
      const billing = page.locator('[data-testid="config-billing_enabled"]:not([disabled])');
      await billing.waitFor();
      expect(await billing.getAttribute('aria-checked')).toBe(String(start.billing_enabled));
      expect(await page.inputValue('#config-grace-days')).toBe(String(start.grace_days));
      const put = page.waitForRequest((r) => r.url().endsWith('/api/admin/config') && r.method() === 'PUT');
      await billing.click();
      expect((await put).postDataJSON()).toEqual({ ...start, billing_enabled: !start.billing_enabled });
      await expect
        .poll(async () => (await api<{ billing_enabled: boolean }>('GET', '/admin/config')).billing_enabled)
        .toBe(!start.billing_enabled);
      await page.reload();
      await appReady(page);
      await openTab(page, 'settings');
      const again = page.locator('[data-testid="config-billing_enabled"]:not([disabled])');
      await again.waitFor();
      expect(await again.getAttribute('aria-checked')).toBe(String(!start.billing_enabled));
      await again.click();
      await expect
        .poll(async () => (await api<{ billing_enabled: boolean }>('GET', '/admin/config')).billing_enabled)
        .toBe(start.billing_enabled);
    });
  });

  it('payments: a paid payment and a declined one of the test provider, in roubles', async () => {
    const acc = newAccount('admin-pay');
    acc.name = `Плательщик ${Date.now().toString(36)}`;
    await registerViaApi(product.url, acc);
    const token = await tokenOf(acc);
    const plans = (await api<{ plans: Plan[] }>('GET', '/admin/plans')).plans;
    const pro = plans.find((p) => p.name === 'Pro')!;
    const month = pro.variants.find((v) => v.days === 30)!;
    for (const outcome of ['pay', 'decline'] as const) {
      const res = await fetch(`${product.url}/api/billing/checkout`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ plan_id: pro.id, variant_id: month.id }),
      });
      expect(res.ok).toBe(true);
      const orderId = ((await res.json()) as { data: { order_id: string } }).data.order_id;
      const paid = await fetch(`${product.url}/api/billing/test-checkout/${orderId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ outcome }),
      });
      expect(paid.status).toBe(200);
    }
    await withPage(product, async ({ page }) => {
      await openAdmin(page, 'payments');
      const rows = page.locator('[data-testid="payment-row"]', { hasText: acc.name });
      await expect.poll(() => rows.count()).toBe(2);
      const statuses = await rows.locator('[data-testid="payment-status"]').allInnerTexts();
      expect(statuses.sort()).toEqual(['Оплачен', 'Отклонён']);
      expect((await rows.first().innerText()).replace(/\s/g, ' ')).toContain('499 ₽');
    });
  });

  it('the system update: confirmation, the blocking overlay, waiting while the status fails, Завершено and the reload', async () => {
    await withPage(product, async ({ page }) => {
      await openAdmin(page);
      await page.getByRole('button', { name: 'Обновить' }).click();
      const confirm = page.locator('[data-testid="confirm-update"]');
      expect(await confirm.innerText()).toContain('Обновить систему? Это перезапустит все контейнеры.');
      // The first status read fails as if the service were restarting: the waiting message, a health check.
      let failures = 1;
      await page.route('**/api/admin/update/status', (route) =>
        failures-- > 0
          ? route.fulfill({
              status: 502,
              contentType: 'application/json',
              body: '{"code":"BAD_GATEWAY","error":"x"}',
            })
          : route.continue(),
      );
      const health = page.waitForRequest((r) => r.url().endsWith('/api/health'), { timeout: 30_000 });
      await page.click('[data-testid="confirm-update-ok"]');
      const overlay = page.locator('[data-testid="update-overlay"]');
      await overlay.waitFor();
      expect(await overlay.innerText()).toContain('Пожалуйста, не закрывайте страницу');
      await page.keyboard.press('Escape');
      expect(await overlay.isVisible()).toBe(true);
      await page.locator('[data-testid="update-waiting"]').waitFor({ timeout: 15_000 });
      await page.screenshot({ path: '/tmp/shot-admin-update-1280.png' });
      expect(await seriousViolations(page)).toEqual([]);
      await health;
      // The update runs to its end; the page reloads 2 s after 'Завершено'.
      await page
        .locator('[data-testid="update-step"]', { hasText: 'Завершено' })
        .waitFor({ timeout: 290_000 });
      const reloaded = page.waitForEvent('load', { timeout: 15_000 });
      expect(await page.locator('[data-testid="update-done"]').isVisible()).toBe(true);
      await reloaded;
      await appReady(page);
      await page.locator('[data-testid="admin-page"]').waitFor();
      expect(await page.locator('[data-testid="update-overlay"]').count()).toBe(0);
    });
  }, 330_000);
});
