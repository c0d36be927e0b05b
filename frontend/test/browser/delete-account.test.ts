import { describe, expect, it } from 'vitest';
import {
  appReady,
  loginViaForm,
  newAccount,
  pathOf,
  registerViaApi,
  signIn,
  toastTexts,
  useProduct,
  withPage,
} from './harness.ts';

/** Issue 32 item 13: deleting one's own account from the settings page, with the password. */
const product = useProduct();

async function boardsOf(token: string): Promise<number> {
  const res = await fetch(`${product.url}/api/boards`, { headers: { authorization: `Bearer ${token}` } });
  return res.status;
}

describe('settings: delete account', () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 860 },
  ]) {
    it(`at ${viewport.width} px: the dialog asks for the password, deletes, lands signed out, and the account cannot sign in`, async () => {
      await withPage(
        product,
        async ({ page, errors }) => {
          const acc = newAccount(`delete-${viewport.width}`);
          await registerViaApi(product.url, acc);
          await signIn(page, acc);
          const token = await page.evaluate(() => localStorage.getItem('accessToken'));
          expect(await boardsOf(token!)).toBe(200);

          await page.goto('/settings');
          const section = page.locator('[data-testid="delete-account"]');
          await section.scrollIntoViewIfNeeded();
          expect(await section.getByRole('heading', { name: 'Удаление аккаунта' }).isVisible()).toBe(true);
          // The card fits the narrow screen: nothing scrolls sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: `/tmp/shot-delete-account-${viewport.width}.png`, fullPage: true });

          await page.click('[data-testid="delete-account-open"]');
          const dialog = page.getByRole('alertdialog', { name: 'Удалить аккаунт навсегда?' });
          await dialog.waitFor();
          // Focus starts in the password field, not on the destructive button.
          expect(await page.evaluate(() => document.activeElement?.id)).toBe('delete-account-password');
          // Empty: the contract's text, nothing sent.
          await page.click('[data-testid="delete-account-confirm"]');
          await expect.poll(() => page.locator('#delete-account-password-error').innerText()).toBe('Текущий пароль обязателен');
          // Wrong: the server's text under the field; the account stays.
          await page.fill('#delete-account-password', 'Not-My-Pass-9');
          await page.click('[data-testid="delete-account-confirm"]');
          await expect.poll(() => page.locator('#delete-account-password-error').innerText()).toBe('Неверный текущий пароль');
          expect(await boardsOf(token!)).toBe(200);
          // The dialog fits the screen (its text wraps; nothing is cut off at 375 px).
          const box = (await dialog.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
          await page.screenshot({ path: `/tmp/shot-delete-account-dialog-${viewport.width}.png` });
          // Cancel keeps everything; the dialog opens again.
          await page.click('[data-testid="delete-account-cancel"]');
          await dialog.waitFor({ state: 'detached' });
          await page.click('[data-testid="delete-account-open"]');

          await page.fill('#delete-account-password', acc.password);
          await page.click('[data-testid="delete-account-confirm"]');
          await page.waitForURL((u) => u.pathname === '/');
          await expect.poll(() => toastTexts(page)).toContain('Аккаунт удалён');
          expect(await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')])).toEqual([null, null]);
          // The old token is refused at once.
          expect(await boardsOf(token!)).toBe(401);
          await page.screenshot({ path: `/tmp/shot-delete-account-done-${viewport.width}.png` });

          await page.goto('/dashboard');
          await page.waitForURL((u) => u.pathname === '/login');
          await appReady(page);
          await loginViaForm(page, acc.email, acc.password);
          await expect.poll(() => page.locator('[data-testid="login-server-error"]').innerText()).toBe('Неверный email или пароль');
          expect(pathOf(page)).toBe('/login');
          expect(errors).toEqual([]);
        },
        viewport,
      );
    });
  }
});
