import { describe, expect, it } from 'vitest';
import {
  appReady,
  loginViaForm,
  newAccount,
  pathOf,
  registerViaApi,
  signIn,
  signInWithTokens,
  useProduct,
  withPage,
} from './harness.ts';

const product = useProduct();

describe('auth screens', () => {
  it('registers, lands on /dashboard, logs out with a toast', async () => {
    await withPage(product, async ({ page, errors }) => {
      const acc = newAccount('reg');
      await page.goto('/register');
      await appReady(page);

      // Client validation first: every required text of §5.
      await page.click('[data-testid="register-submit"]');
      await expect.poll(() => page.locator('#name-error').innerText()).toBe('Имя обязательно');
      expect(await page.locator('#email-error').innerText()).toBe('Email обязателен');
      expect(await page.locator('#password-error').innerText()).toBe('Пароль обязателен');
      expect(await page.locator('#confirmPassword-error').innerText()).toBe(
        'Подтверждение пароля обязательно',
      );
      // Editing a field clears its error only.
      await page.fill('#name', acc.name);
      expect(await page.locator('#name-error').count()).toBe(0);
      expect(await page.locator('#email-error').count()).toBe(1);

      await page.fill('#email', acc.email);
      await page.fill('#password', 'abc');
      expect(await page.locator('[data-testid="password-strength"] .strength__label').innerText()).toBe(
        'Слабый пароль',
      );
      await page.fill('#password', acc.password);
      expect(await page.locator('[data-testid="password-strength"] .strength__label').innerText()).toBe(
        'Отличный пароль',
      );
      await page.fill('#confirmPassword', acc.password);
      expect(await page.locator('[data-testid="passwords-match"]').innerText()).toContain('Пароли совпадают');
      await page.screenshot({ path: '/tmp/shot-register.png' });

      await page.click('[data-testid="register-submit"]');
      await page.waitForURL((u) => u.pathname === '/dashboard');
      await expect
        .poll(() => page.locator('.Toastify__toast').allInnerTexts())
        .toContain('Регистрация успешна!');
      expect(await page.locator('[data-testid="user-menu-trigger"]').innerText()).toContain(acc.name);
      const tokens = await page.evaluate(() => [
        localStorage.getItem('accessToken'),
        localStorage.getItem('refreshToken'),
      ]);
      expect(tokens.every((t) => typeof t === 'string' && t.length > 10)).toBe(true);
      await page.screenshot({ path: '/tmp/shot-dashboard.png' });

      // Registering the same email again shows the server's text.
      // (done below in a fresh page, while this session logs out)
      await page.click('[data-testid="user-menu-trigger"]');
      expect(await page.locator('[data-testid="user-menu-email"]').innerText()).toBe(acc.email);
      await page.click('[data-testid="logout-button"]');
      await page.waitForURL((u) => u.pathname === '/');
      await expect
        .poll(() => page.locator('.Toastify__toast').allInnerTexts())
        .toContain('Вы вышли из системы');
      const after = await page.evaluate(() => [
        localStorage.getItem('accessToken'),
        localStorage.getItem('refreshToken'),
      ]);
      expect(after).toEqual([null, null]);
      // The session is gone: the dashboard is closed again.
      await page.goto('/dashboard');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(errors).toEqual([]);
    });
  });

  it('shows the server text on a duplicate registration', async () => {
    const acc = newAccount('dup');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await page.goto('/register');
      await appReady(page);
      await page.fill('#name', acc.name);
      await page.fill('#email', acc.email);
      await page.fill('#password', acc.password);
      await page.fill('#confirmPassword', acc.password);
      await page.click('[data-testid="register-submit"]');
      await expect
        .poll(() => page.locator('[data-testid="register-server-error"]').innerText())
        .toBe('Пользователь с таким email уже существует');
      expect(pathOf(page)).toBe('/register');
    });
  });

  it('rejects a wrong password with the server text, then logs in', async () => {
    const acc = newAccount('login');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page, errors }) => {
      await page.goto('/login');
      await appReady(page);
      await page.click('[data-testid="login-submit"]');
      expect(await page.locator('#email-error').innerText()).toBe('Email обязателен');
      expect(await page.locator('#password-error').innerText()).toBe('Пароль обязателен');
      await page.fill('#email', 'not-an-email');
      await page.click('[data-testid="login-submit"]');
      expect(await page.locator('#email-error').innerText()).toBe('Некорректный email');
      await page.screenshot({ path: '/tmp/shot-login-errors.png' });

      await loginViaForm(page, acc.email, 'Wrong-Pass-9');
      await expect
        .poll(() => page.locator('[data-testid="login-server-error"]').innerText())
        .toBe('Неверный email или пароль');
      await expect
        .poll(() => page.locator('.Toastify__toast').allInnerTexts())
        .toContain('Неверный email или пароль');
      expect(pathOf(page)).toBe('/login');

      // The show/hide toggle reveals the password.
      expect(await page.getAttribute('#password', 'type')).toBe('password');
      await page.click('[data-testid="password-toggle"]');
      expect(await page.getAttribute('#password', 'type')).toBe('text');

      await loginViaForm(page, acc.email, acc.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      await expect
        .poll(() => page.locator('.Toastify__toast').allInnerTexts())
        .toContain('Добро пожаловать!');
      expect(errors).toEqual([]);
    });
  });

  it('honours ?redirect= after login', async () => {
    const acc = newAccount('redir');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await page.goto('/settings');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/settings');
      await loginViaForm(page, acc.email, acc.password);
      await page.waitForURL((u) => u.pathname === '/settings');
    });
  });

  it('changes the password on /settings and logs in with the new one', async () => {
    const acc = newAccount('pw');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page, errors }) => {
      const newPassword = 'Brand-New-Pass-2';
      await signIn(page, acc);
      await page.click('[data-testid="user-menu-trigger"]');
      await page.click('text=Настройки');
      await page.waitForURL((u) => u.pathname === '/settings');
      expect(await page.inputValue('#profile-name')).toBe(acc.name);
      expect(await page.inputValue('#profile-email')).toBe(acc.email);

      // Client validation texts.
      await page.click('[data-testid="password-submit"]');
      expect(await page.locator('#current-password-error').innerText()).toBe('Текущий пароль обязателен');
      expect(await page.locator('#new-password-error').innerText()).toBe('Новый пароль обязателен');
      expect(await page.locator('#confirm-password-error').innerText()).toBe('Подтвердите новый пароль');
      await page.fill('#new-password', 'short');
      await page.fill('#confirm-password', 'other');
      await page.click('[data-testid="password-submit"]');
      expect(await page.locator('#new-password-error').innerText()).toBe(
        'Новый пароль должен содержать минимум 8 символов',
      );
      expect(await page.locator('#confirm-password-error').innerText()).toBe('Пароли не совпадают');

      // Wrong current password: the server's INVALID_CURRENT_PASSWORD under the field.
      await page.fill('#current-password', 'Not-My-Password-1');
      await page.fill('#new-password', newPassword);
      await page.fill('#confirm-password', newPassword);
      await page.click('[data-testid="password-submit"]');
      await expect
        .poll(() => page.locator('#current-password-error').innerText())
        .toBe('Неверный текущий пароль');

      await page.fill('#current-password', acc.password);
      await page.click('[data-testid="password-submit"]');
      await page.waitForSelector('[data-testid="password-success"]');
      expect(await page.inputValue('#current-password')).toBe('');
      expect(await page.inputValue('#new-password')).toBe('');
      expect(await page.inputValue('#confirm-password')).toBe('');
      await page.screenshot({ path: '/tmp/shot-settings.png', fullPage: true });
      // The success message disappears after 3 s.
      await page.waitForSelector('[data-testid="password-success"]', { state: 'detached', timeout: 6000 });

      // Log out, the old password no longer works, the new one does.
      await page.click('[data-testid="user-menu-trigger"]');
      await page.click('[data-testid="logout-button"]');
      await page.waitForURL((u) => u.pathname === '/');
      await page.goto('/login');
      await appReady(page);
      await loginViaForm(page, acc.email, acc.password);
      await expect
        .poll(() => page.locator('[data-testid="login-server-error"]').innerText())
        .toBe('Неверный email или пароль');
      await loginViaForm(page, acc.email, newPassword);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      expect(errors).toEqual([]);
    });
  });

  it('updates the profile name with a toast and shows the email conflict under the field', async () => {
    const acc = newAccount('prof');
    const other = newAccount('taken');
    await registerViaApi(product.url, acc);
    await registerViaApi(product.url, other);
    await withPage(product, async ({ page }) => {
      await signInWithTokens(page, product.url, acc);
      await page.goto('/settings');
      await appReady(page);
      await page.fill('#profile-name', 'Новое Имя');
      await page.click('[data-testid="profile-submit"]');
      await expect.poll(() => page.locator('.Toastify__toast').allInnerTexts()).toContain('Профиль обновлён');
      await expect
        .poll(() => page.locator('[data-testid="user-menu-trigger"]').innerText())
        .toContain('Новое Имя');

      // A new address needs the current password (auth's rule since issue 8).
      await page.fill('#profile-email', other.email);
      await page.fill('#profile-current-password', acc.password);
      await page.click('[data-testid="profile-submit"]');
      await expect
        .poll(() => page.locator('#profile-email-error').innerText())
        .toBe('Пользователь с таким email уже существует');
    });
  });

  it('refreshes an expired access token once and keeps the session', async () => {
    const acc = newAccount('refresh');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await signInWithTokens(page, product.url, acc);
      const oldRefresh = await page.evaluate(() => localStorage.getItem('refreshToken'));
      await page.evaluate(() => localStorage.setItem('accessToken', 'garbage.access.token'));
      let refreshCalls = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/auth/refresh')) refreshCalls++;
      });
      await page.goto('/dashboard');
      await appReady(page);
      expect(pathOf(page)).toBe('/dashboard');
      expect(refreshCalls).toBe(1);
      const [access, refresh] = await page.evaluate(() => [
        localStorage.getItem('accessToken'),
        localStorage.getItem('refreshToken'),
      ]);
      expect(access).not.toBe('garbage.access.token');
      expect(refresh).not.toBe(oldRefresh);

      // Both tokens invalid: the session ends, tokens are cleared, /login.
      await page.evaluate(() => {
        localStorage.setItem('accessToken', 'garbage');
        localStorage.setItem('refreshToken', 'garbage');
      });
      await page.goto('/settings');
      await page.waitForURL((u) => u.pathname === '/login');
      expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();

      // Stale tokens on a public page: verification fails quietly, the visitor stays there.
      await page.evaluate(() => {
        localStorage.setItem('accessToken', 'garbage');
        localStorage.setItem('refreshToken', 'garbage');
      });
      await page.goto('/pricing');
      await appReady(page);
      await page.waitForLoadState('networkidle');
      expect(pathOf(page)).toBe('/pricing');
      expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    });
  });

  it('keeps the session through an auth outage: a 503 from /auth/verify signs nobody out', async () => {
    const acc = newAccount('outage');
    await registerViaApi(product.url, acc);
    await withPage(product, async ({ page }) => {
      await signInWithTokens(page, product.url, acc);
      const tokens = await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);
      let verifyCalls = 0;
      await page.route('**/api/auth/verify', (route) => {
        verifyCalls++;
        return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Сервис временно недоступен', code: 'SERVICE_UNAVAILABLE' }) });
      });
      await page.goto('/settings');
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
      expect(verifyCalls).toBe(3);
      await page.getByText('Сервис временно недоступен').first().waitFor();
      expect(await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')])).toEqual(tokens);

      // Auth is back: the same tokens sign the user in without a login.
      await page.unroute('**/api/auth/verify');
      await page.goto('/settings');
      await appReady(page);
      expect(pathOf(page)).toBe('/settings');
    });
  });
});
