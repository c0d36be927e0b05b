/**
 * Issue 32, item 11 in Chromium at 375 and 1280 px: 'Забыли пароль?' → the form → the mail read
 * from the Mailpit the product started (mailpit-api) → its link → a new password twice → sign-in
 * with it; the verification notice in settings, its resend, and the verification link. The pages
 * are checked with axe-core (no serious or critical WCAG violation) and for horizontal overflow.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MailpitClient } from 'mailpit-api';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appReady,
  loginViaForm,
  newAccount,
  pathOf,
  registerViaApi,
  signInWithTokens,
  uniqueEmail,
  useProduct,
  withPage,
} from './harness.ts';

const product = useProduct();
const mailpit = () => {
  if (!product.mailpitUrl) throw new Error('the product started no Mailpit');
  return new MailpitClient(product.mailpitUrl);
};

const RESET_SENT =
  'Если этот адрес зарегистрирован, мы отправили на него письмо со ссылкой для сброса пароля. Ссылка действует 1 час.';

/** The newest mail to `to` whose subject starts with `subject`, once there are at least `n` of them. */
async function mailTo(to: string, subject: string, n = 1) {
  const client = mailpit();
  let ids: string[] = [];
  await expect
    .poll(
      async () => {
        const found = await client.searchMessages({ query: `to:"${to}"` });
        ids = found.messages.filter((m) => m.Subject.startsWith(subject)).map((m) => m.ID);
        return ids.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(n);
  return client.getMessageSummary(ids[0]);
}

/** The link to `path` in a mail's text, made relative so the page opens it on the product under test. */
function linkIn(text: string, path: string): string {
  const m = new RegExp(`https?://[^\\s/]+(${path}\\?token=[A-Za-z0-9_-]{43})`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1]!;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

const VIEWPORTS = [
  { width: 375, height: 740 },
  { width: 1280, height: 860 },
];

describe('password reset by e-mail', () => {
  for (const viewport of VIEWPORTS) {
    it(`forgot password → mail → link → new password → sign in (${viewport.width} px)`, async () => {
      await withPage(
        product,
        async ({ page, errors }) => {
          const acc = newAccount('reset');
          await registerViaApi(product.url, acc);
          await page.goto('/login');
          await appReady(page);
          await page.getByRole('link', { name: 'Забыли пароль?' }).click();
          await page.waitForURL((u) => u.pathname === '/forgot-password');
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Восстановление пароля');

          // Client validation with the contracts' texts.
          await page.click('[data-testid="forgot-submit"]');
          await expect.poll(() => page.locator('#email-error').innerText()).toBe('Email обязателен');
          await page.fill('#email', 'not-an-email');
          await page.click('[data-testid="forgot-submit"]');
          await expect.poll(() => page.locator('#email-error').innerText()).toBe('Некорректный email');
          await fitsWidth(page, viewport.width);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: `/tmp/shot-forgot-${viewport.width}.png` });

          await page.fill('#email', acc.email);
          await page.click('[data-testid="forgot-submit"]');
          expect(await page.locator('[data-testid="forgot-sent"]').innerText()).toBe(RESET_SENT);
          await page.screenshot({ path: `/tmp/shot-forgot-sent-${viewport.width}.png` });

          const mail = await mailTo(acc.email, 'Сброс пароля');
          const link = linkIn(mail.Text, '/reset-password');
          // The link points at the product itself (PUBLIC_URL of the embedded run).
          expect(mail.Text).toContain(`${product.url}${link}`);
          await page.goto(link);
          await appReady(page);
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Новый пароль');
          await page.click('[data-testid="reset-submit"]');
          await expect.poll(() => page.locator('#password-error').innerText()).toBe('Пароль обязателен');
          await page.fill('#password', 'short');
          await page.fill('#confirmPassword', 'other');
          await page.click('[data-testid="reset-submit"]');
          await expect.poll(() => page.locator('#password-error').innerText()).toBe('Пароль должен содержать минимум 8 символов');
          expect(await page.locator('#confirmPassword-error').innerText()).toBe('Пароли не совпадают');
          const newPassword = 'Новый-Пароль-77';
          await page.fill('#password', newPassword);
          await page.fill('#confirmPassword', newPassword);
          await fitsWidth(page, viewport.width);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: `/tmp/shot-reset-${viewport.width}.png` });
          await page.click('[data-testid="reset-submit"]');
          await page.waitForURL((u) => u.pathname === '/login');
          await expect.poll(() => page.locator('.Toastify__toast').allInnerTexts()).toContain('Пароль изменён. Войдите с новым паролем');

          // The old password no longer opens the account, the new one does.
          await loginViaForm(page, acc.email, acc.password);
          await expect.poll(() => page.locator('[data-testid="login-server-error"]').innerText()).toBe('Неверный email или пароль');
          await loginViaForm(page, acc.email, newPassword);
          await page.waitForURL((u) => u.pathname === '/dashboard');

          // The same link a second time: the page says it is used and offers a new one.
          await page.goto(link);
          await appReady(page);
          await page.fill('#password', 'Ещё-Один-Пароль-1');
          await page.fill('#confirmPassword', 'Ещё-Один-Пароль-1');
          await page.click('[data-testid="reset-submit"]');
          await expect
            .poll(() => page.locator('[data-testid="reset-server-error"]').innerText())
            .toBe('Эта ссылка для сброса пароля уже использована. Запросите новую');
          await page.screenshot({ path: `/tmp/shot-reset-used-${viewport.width}.png` });
          await page.click('[data-testid="reset-request-new"]');
          await page.waitForURL((u) => ['/forgot-password', '/dashboard'].includes(u.pathname));
          expect(errors).toEqual([]);
        },
        viewport,
      );
    }, 120_000);
  }

  it('an unknown address gets the very same answer and no mail', async () => {
    await withPage(product, async ({ page, errors }) => {
      const nobody = uniqueEmail('nobody');
      await page.goto('/forgot-password');
      await appReady(page);
      await page.fill('#email', nobody);
      await page.click('[data-testid="forgot-submit"]');
      expect(await page.locator('[data-testid="forgot-sent"]').innerText()).toBe(RESET_SENT);
      expect((await mailpit().searchMessages({ query: `to:"${nobody}"` })).messages_count).toBe(0);
      // A link without its code says so instead of showing a form that cannot work.
      await page.goto('/reset-password');
      await appReady(page);
      expect(await page.locator('[data-testid="reset-server-error"]').innerText()).toBe(
        'В ссылке нет кода. Откройте ссылку из письма целиком или запросите новую',
      );
      expect(pathOf(page)).toBe('/reset-password');
      expect(errors).toEqual([]);
    });
  });
});

describe('e-mail verification', () => {
  for (const viewport of VIEWPORTS) {
    it(`settings shows the unverified address, resends, and the link verifies it (${viewport.width} px)`, async () => {
      await withPage(
        product,
        async ({ page, errors }) => {
          const acc = newAccount('verify');
          await registerViaApi(product.url, acc);
          await mailTo(acc.email, 'Подтверждение email');
          await signInWithTokens(page, product.url, acc);
          await page.goto('/settings');
          await appReady(page);
          const notice = page.locator('[data-testid="email-verification-notice"]');
          await expect.poll(() => notice.getByRole('heading').innerText()).toBe('Email не подтверждён');
          expect(await notice.innerText()).toContain(acc.email);
          await page.click('[data-testid="resend-verification"]');
          await expect.poll(() => page.locator('[data-testid="resend-result"]').innerText()).toBe('Письмо для подтверждения отправлено');
          await fitsWidth(page, viewport.width);
          await page.screenshot({ path: `/tmp/shot-settings-unverified-${viewport.width}.png`, fullPage: true });

          const mail = await mailTo(acc.email, 'Подтверждение email', 2);
          await page.goto(linkIn(mail.Text, '/verify-email'));
          await appReady(page);
          await expect.poll(() => page.locator('[data-testid="verify-done"]').innerText()).toBe('Email подтверждён');
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: `/tmp/shot-verified-${viewport.width}.png` });
          await page.goto('/settings');
          await appReady(page);
          await page.locator('#profile-name').waitFor();
          expect(await notice.count()).toBe(0);
          expect(errors).toEqual([]);
        },
        viewport,
      );
    }, 120_000);
  }
});
