import { describe, expect, it } from 'vitest';
import {
  ADMIN_ACCOUNT,
  appReady,
  newAccount,
  pathOf,
  registerViaApi,
  signInWithTokens,
  usePage,
  useProduct,
  withPage,
  type PageSession,
} from './harness.ts';

const product = useProduct();

async function landOn(page: PageSession['page'], path: string): Promise<URL> {
  await page.goto(path);
  await appReady(page);
  await page.waitForLoadState('networkidle');
  return new URL(page.url());
}

describe('route guards (visitor)', () => {
  const s = usePage(product);

  it('shows the landing page with its sections', async () => {
    const u = await landOn(s.page, '/');
    expect(u.pathname).toBe('/');
    expect(await s.page.locator('[data-testid="feature-block"]').count()).toBe(3);
    expect(await s.page.locator('#pricing').count()).toBe(1);
    await s.page.screenshot({ path: '/tmp/shot-landing.png', fullPage: true });
  });

  it('sends a visitor from /dashboard to /login', async () => {
    expect((await landOn(s.page, '/dashboard')).pathname).toBe('/login');
    await s.page.screenshot({ path: '/tmp/shot-login.png' });
  });

  it('sends a visitor from /settings and /admin to /login', async () => {
    const u = await landOn(s.page, '/settings');
    expect(u.pathname).toBe('/login');
    expect(u.searchParams.get('redirect')).toBe('/settings');
    expect((await landOn(s.page, '/admin')).pathname).toBe('/login');
  });

  it('opens /board/:id with a share token, otherwise sends to /login with the return path', async () => {
    const u = await landOn(s.page, '/board/123');
    expect(u.pathname).toBe('/login');
    expect(u.searchParams.get('redirect')).toBe('/board/123');
    const withToken = await landOn(s.page, '/board/123?token=abc');
    expect(withToken.pathname).toBe('/board/123');
    // The guard lets the link through; the page then finds no such board and says so (§2 load error).
    await s.page.waitForSelector('[data-testid="board-denied"]');
    expect(await s.page.locator('[data-testid="board-denied"] h1').first().innerText()).toBe('Доступ запрещен');
    // Not signed in: told the login page comes next, and taken there (not to /dashboard, whose guard would bounce them).
    expect(await s.page.locator('[data-testid="board-denied-notice"]').innerText()).toBe('Через 2 секунды откроется страница входа.');
    await s.page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
    expect(new URL(s.page.url()).searchParams.get('redirect')).toBeNull();
  });

  it('keeps /pricing, /login and /register open', async () => {
    expect((await landOn(s.page, '/pricing')).pathname).toBe('/pricing');
    expect(await s.page.locator('[data-testid="pricing-title"]').innerText()).toBe('Выберите свой тариф');
    expect((await landOn(s.page, '/login')).pathname).toBe('/login');
    expect((await landOn(s.page, '/register')).pathname).toBe('/register');
  });

  it('redirects an unknown path to /', async () => {
    expect((await landOn(s.page, '/no/such/page')).pathname).toBe('/');
  });

  it('has a working mobile menu toggle', async () => {
    await withPage(
      product,
      async ({ page }) => {
        await landOn(page, '/');
        const login = page.locator('[data-testid="landing-login"]');
        expect(await login.isVisible()).toBe(false);
        await page.click('[data-testid="mobile-menu-toggle"]');
        await login.waitFor({ state: 'visible' });
        await page.screenshot({ path: '/tmp/shot-landing-mobile.png' });
        await login.click();
        await page.waitForURL((u) => u.pathname === '/login');
      },
      { width: 390, height: 800 },
    );
  });
});

describe('route guards (signed-in user)', () => {
  const s = usePage(product, async ({ page }) => {
    const acc = newAccount('guard');
    await registerViaApi(product.url, acc);
    await signInWithTokens(page, product.url, acc);
  });

  it('sends a signed-in user from /login and /register to /dashboard', async () => {
    expect((await landOn(s.page, '/login')).pathname).toBe('/dashboard');
    expect((await landOn(s.page, '/register')).pathname).toBe('/dashboard');
  });

  it('sends a non-admin from /admin to /dashboard, without an admin link', async () => {
    expect((await landOn(s.page, '/admin')).pathname).toBe('/dashboard');
    expect(await s.page.locator('[data-testid="admin-link"]').count()).toBe(0);
    expect(await s.page.locator('[data-testid="board-count"]').innerText()).toMatch(/^\d+\/(\d+|∞|—)$/);
  });

  it('opens /board/:id, /settings and /dashboard', async () => {
    expect((await landOn(s.page, '/board/42')).pathname).toBe('/board/42');
    // Signed in, the guard opens the page; an unknown board is the §2 load error, not /login.
    await s.page.waitForSelector('[data-testid="board-denied"]');
    expect(await s.page.locator('[data-testid="board-denied"] h1').first().innerText()).toBe('Доступ запрещен');
    expect(await s.page.locator('[data-testid="board-denied-notice"]').innerText()).toBe('Через 2 секунды вы будете перенаправлены к списку досок.');
    expect((await landOn(s.page, '/settings')).pathname).toBe('/settings');
    expect((await landOn(s.page, '/dashboard')).pathname).toBe('/dashboard');
    expect(pathOf(s.page)).toBe('/dashboard');
  });

  it('redirects an unknown path to /', async () => {
    expect((await landOn(s.page, '/whatever')).pathname).toBe('/');
    expect(s.errors).toEqual([]);
  });

  it('a page whose chunk cannot be fetched shows the error page with a way out; the reload opens it', async () => {
    const chunk = '**/assets/SettingsPage-*.js';
    await s.page.route(chunk, (route) => route.abort());
    await s.page.goto('/settings');
    await s.page.locator('[data-testid="route-error"]').waitFor();
    expect(await s.page.locator('[data-testid="route-error"] h1').innerText()).toBe('Не удалось открыть страницу');
    await s.page.unroute(chunk);
    await s.page.getByRole('button', { name: 'Обновить страницу' }).click();
    await s.page.locator('[data-testid="route-error"]').waitFor({ state: 'detached' });
    await s.page.locator('[data-testid="back-to-boards"]').waitFor();
    expect(pathOf(s.page)).toBe('/settings');
    s.errors.length = 0; // the aborted chunk was reported on purpose
  });
});

describe('route guards (administrator)', () => {
  it('opens /admin for an admin and shows the admin link', async () => {
    await withPage(product, async ({ page, errors }) => {
      await signInWithTokens(page, product.url, ADMIN_ACCOUNT);
      expect((await landOn(page, '/dashboard')).pathname).toBe('/dashboard');
      await page.waitForSelector('[data-testid="admin-link"]');
      await page.click('[data-testid="admin-link"]');
      await page.waitForURL((u) => u.pathname === '/admin');
      await page.waitForSelector('[data-testid="admin-page"]');
      expect(errors).toEqual([]);
    });
  });
});
