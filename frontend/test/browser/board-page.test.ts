/**
 * The board page around the canvas (issue 11): four contexts on one board (owner, editor by link,
 * viewer by link, guest by link), loading and access errors, owner tools and their toasts, camera,
 * offline edits, screenshots at three widths.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_DIR,
  appReady,
  newAccount,
  openPage,
  pathOf,
  registerViaApi,
  signInWithTokens,
  useProduct,
  type PageSession,
  type TestAccount,
} from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });
const SHOTS = path.join(REPO_DIR, '.data', 'screenshots', 'board-page');

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function login(acc: TestAccount): Promise<string> {
  const res = await fetch(`${product.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: acc.email, password: acc.password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

interface SharedBoard {
  id: string;
  tokens: { editor: string; viewer: string; guest: string };
}

async function createSharedBoard(token: string, title: string): Promise<SharedBoard> {
  const { board } = await api<{ board: { id: string } }>(token, 'POST', '/api/boards', { title, folder_id: null });
  await api(token, 'PUT', `/api/boards/${board.id}/sharing`, { enabled: true });
  const res = await api<{ board: { editor_token_hash: string; viewer_token_hash: string; guest_token_hash: string } }>(
    token,
    'POST',
    `/api/boards/${board.id}/multiple-links`,
    { enabledRoles: ['viewer', 'guest', 'editor'] },
  );
  return {
    id: board.id,
    tokens: { editor: res.board.editor_token_hash, viewer: res.board.viewer_token_hash, guest: res.board.guest_token_hash },
  };
}

async function boardReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="board-page"]');
  await page.waitForSelector('[data-testid="board-setting-up"]', { state: 'detached' });
}

async function moveMouse(page: Page, x: number, y: number): Promise<void> {
  const box = (await page.locator('[data-testid="board-canvas"]').boundingBox())!;
  await page.mouse.move(box.x + x, box.y + y, { steps: 4 });
}

async function participantNames(page: Page): Promise<string[]> {
  await page.click('[data-testid="participants-trigger"]');
  const names = await page.locator('[data-testid="participant-name"]').allInnerTexts();
  await page.keyboard.press('Escape');
  return names;
}

async function waitForToast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
}

let owner: TestAccount;
let ownerToken: string;

beforeAll(async () => {
  owner = newAccount('board-owner');
  owner.name = 'Ольга Владелец';
  await registerViaApi(product.url, owner);
  ownerToken = await login(owner);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

describe('four people on one board', () => {
  let board: SharedBoard;
  const s: Record<'owner' | 'editor' | 'viewer' | 'guest', PageSession> = {} as never;

  beforeAll(async () => {
    board = await createSharedBoard(ownerToken, 'Совместная доска');
    s.owner = await openPage(product);
    await signInWithTokens(s.owner.page, product.url, owner);
    await s.owner.page.goto(`/board/${board.id}`);
    await boardReady(s.owner.page);
    for (const role of ['editor', 'viewer', 'guest'] as const) {
      s[role] = await openPage(product);
      await s[role].page.goto(`/board/${board.id}?token=${board.tokens[role]}`);
      await boardReady(s[role].page);
    }
  }, 120_000);

  it('shows the role labels, the link status and the owner-only tools', async () => {
    await expect(s.guest.page.locator('[data-testid="role-label"]').innerText()).resolves.toBe('Гостевой просмотр (без реакций)');
    await expect(s.viewer.page.locator('[data-testid="role-label"]').innerText()).resolves.toBe('Просмотр с реакциями');
    await expect(s.editor.page.locator('[data-testid="sync-status"]').innerText()).resolves.toContain('Общий доступ');
    await expect(s.owner.page.locator('[data-testid="sync-status"]').innerText()).resolves.toContain('Синхронизировано');
    expect(await s.owner.page.locator('[data-testid="owner-tools"]').count()).toBe(1);
    for (const role of ['editor', 'viewer', 'guest'] as const) {
      expect(await s[role].page.locator('[data-testid="owner-tools"]').count()).toBe(0);
    }
    await expect(s.owner.page.locator('[data-testid="board-user-name"]').innerText()).resolves.toBe(owner.name);
  });

  it('everyone sees all four participants and the others\' cursors', async () => {
    for (const role of ['owner', 'editor', 'viewer', 'guest'] as const) {
      await expect.poll(() => s[role].page.locator('[data-testid="participants-count"]').innerText()).toBe('4 участника');
    }
    expect(await participantNames(s.editor.page)).toContain(owner.name);
    const moves: [keyof typeof s, number, number][] = [
      ['owner', 200, 150],
      ['editor', 300, 220],
      ['viewer', 400, 260],
      ['guest', 500, 300],
    ];
    for (const [role, x, y] of moves) await moveMouse(s[role].page, x, y);
    for (const role of ['owner', 'editor', 'viewer', 'guest'] as const) {
      await expect.poll(() => s[role].page.locator('[data-testid="remote-cursor"]').count()).toBe(3);
    }
    const names = await s.guest.page.locator('[data-testid="remote-cursor"]').evaluateAll((els) =>
      els.map((e) => (e as HTMLElement).dataset.name),
    );
    expect(names).toContain(owner.name);
    // The footer shows the pointer in board units.
    await expect(s.owner.page.locator('[data-testid="footer-cursor"]').innerText()).resolves.toMatch(/X: -?\d+, Y: -?\d+/);
  });

  it('what the owner draws the editor sees and moves, and the owner sees the move', async () => {
    await moveMouse(s.owner.page, 300, 200);
    await s.owner.page.mouse.dblclick((await box(s.owner.page)).x + 300, (await box(s.owner.page)).y + 200);
    const onEditor = s.editor.page.locator('[data-testid="canvas-object"][data-type="sticky"]');
    await onEditor.waitFor();
    const before = Number(await s.owner.page.locator('[data-testid="canvas-object"]').getAttribute('data-x'));
    const b = (await onEditor.boundingBox())!;
    await s.editor.page.mouse.move(b.x + 20, b.y + 20);
    await s.editor.page.mouse.down();
    await s.editor.page.mouse.move(b.x + 120, b.y + 80, { steps: 5 });
    await s.editor.page.mouse.up();
    await expect
      .poll(async () => Number(await s.owner.page.locator('[data-testid="canvas-object"]').getAttribute('data-x')))
      .toBeGreaterThan(before + 50);
    // The editor's selection is outlined on the owner's screen in the editor's colour.
    await expect.poll(() => s.owner.page.locator('[data-testid="remote-selection"]').count()).toBeGreaterThan(0);
  });

  it('the viewer reacts but can neither move nor delete; the guest can neither select nor react', async () => {
    const sticky = s.viewer.page.locator('[data-testid="canvas-object"][data-type="sticky"]');
    const x0 = await sticky.getAttribute('data-x');
    const b = (await sticky.boundingBox())!;
    await s.viewer.page.mouse.move(b.x + 20, b.y + 20);
    await s.viewer.page.mouse.down();
    await s.viewer.page.mouse.move(b.x + 150, b.y + 150, { steps: 5 });
    await s.viewer.page.mouse.up();
    await s.viewer.page.keyboard.press('Delete');
    await s.viewer.page.waitForTimeout(500);
    expect(await sticky.getAttribute('data-x')).toBe(x0);
    expect(await s.owner.page.locator('[data-testid="canvas-object"]').count()).toBe(1);

    await sticky.click();
    await s.viewer.page.locator('[data-testid="quick-reaction"]').first().click();
    await expect
      .poll(() => s.owner.page.locator('[data-testid="canvas-object"]').first().innerText())
      .toContain('👍');

    const onGuest = s.guest.page.locator('[data-testid="canvas-object"][data-type="sticky"]');
    await onGuest.click();
    await s.guest.page.waitForTimeout(300);
    expect(await s.guest.page.locator('[data-testid="reaction-bar"]').count()).toBe(0);
    expect(await s.guest.page.locator('[data-testid="open-emoji-picker"]').count()).toBe(0);
  });

  it('a context goes offline, edits, comes back, and the others get its edit', async () => {
    await s.editor.context.setOffline(true);
    await expect.poll(() => s.editor.page.locator('[data-testid="sync-status"]').getAttribute('data-phase')).toBe('offline');
    const b = await box(s.editor.page);
    await s.editor.page.mouse.dblclick(b.x + 500, b.y + 400);
    await expect.poll(() => s.editor.page.locator('[data-testid="canvas-object"]').count()).toBe(2);
    await s.editor.page.waitForTimeout(500);
    expect(await s.owner.page.locator('[data-testid="canvas-object"]').count()).toBe(1);
    await s.editor.context.setOffline(false);
    await expect.poll(() => s.owner.page.locator('[data-testid="canvas-object"]').count(), { timeout: 15_000 }).toBe(2);
  });

  it('a participant who leaves disappears from the list', async () => {
    await s.guest.close();
    await expect.poll(() => s.owner.page.locator('[data-testid="participants-count"]').innerText()).toBe('3 участника');
    for (const role of ['owner', 'editor', 'viewer'] as const) expect(s[role].errors).toEqual([]);
  });
});

async function box(page: Page) {
  return (await page.locator('[data-testid="board-canvas"]').boundingBox())!;
}

describe('loading and access errors', () => {
  it('a revoked link shows «Доступ запрещен» and then goes to /dashboard', async () => {
    const board = await createSharedBoard(ownerToken, 'Отозванная');
    await api(ownerToken, 'POST', `/api/boards/${board.id}/multiple-links`, { enabledRoles: ['editor', 'guest'] });
    const s = await openPage(product);
    try {
      await s.page.goto(`/board/${board.id}?token=${board.tokens.viewer}`);
      await s.page.waitForSelector('[data-testid="board-denied"]');
      await expect(s.page.locator('[data-testid="board-denied"] h1').innerText()).resolves.toBe('Доступ запрещен');
      await expect(s.page.locator('[data-testid="board-denied-message"]').innerText()).resolves.not.toBe('');
      await s.page.waitForURL((u) => u.pathname !== `/board/${board.id}`, { timeout: 5000 });
      // /dashboard then sends a visitor without a login on to /login.
      expect(['/dashboard', '/login']).toContain(pathOf(s.page));
    } finally {
      await s.close();
    }
  });

  it('a made-up token is denied too', async () => {
    const board = await createSharedBoard(ownerToken, 'Выдуманная');
    const s = await openPage(product);
    try {
      await s.page.goto(`/board/${board.id}?token=not-a-real-token`);
      await s.page.waitForSelector('[data-testid="board-denied"]');
    } finally {
      await s.close();
    }
  });

  it('shows the loading stages in turn', async () => {
    const board = await createSharedBoard(ownerToken, 'Этапы');
    const s = await openPage(product);
    try {
      await signInWithTokens(s.page, product.url, owner);
      const seen = new Set<string>();
      await s.page.exposeFunction('__stage', (t: string) => seen.add(t));
      await s.page.addInitScript(() => {
        new MutationObserver(() => {
          const el = document.querySelector('[data-testid="board-loading"], [data-testid="board-setting-up"]');
          if (el) (window as unknown as { __stage(t: string): void }).__stage(el.textContent ?? '');
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await s.page.goto(`/board/${board.id}`);
      await boardReady(s.page);
      expect([...seen].join('|')).toContain('Загрузка доски...');
      expect([...seen].join('|')).toContain('Настройка вида...');
    } finally {
      await s.close();
    }
  });
});

describe('owner tools and camera', () => {
  let s: PageSession;
  let board: SharedBoard;
  beforeAll(async () => {
    board = await createSharedBoard(ownerToken, 'Инструменты владельца');
    s = await openPage(product);
    await signInWithTokens(s.page, product.url, owner);
    await s.page.goto(`/board/${board.id}`);
    await boardReady(s.page);
    await appReady(s.page);
  }, 60_000);

  it('save says how many objects, then that nothing changed', async () => {
    const b = await box(s.page);
    await s.page.mouse.dblclick(b.x + 200, b.y + 200);
    await s.page.locator('[data-testid="canvas-object"]').waitFor();
    await s.page.waitForTimeout(300);
    await s.page.click('[data-testid="save-board"]');
    await waitForToast(s.page, 'Сохранено 1 объектов!');
    await s.page.click('[data-testid="save-board"]');
    await waitForToast(s.page, 'Изменения уже сохранены!');
  });

  it('background picker changes the background with its toast', async () => {
    await s.page.click('[data-testid="background-trigger"]');
    await s.page.click('[data-testid="background-grid"]');
    await waitForToast(s.page, 'Фон доски изменен');
    await expect(s.page.locator('[data-testid="board-canvas"]').getAttribute('data-background')).resolves.toBe('grid');
  });

  it('snapshot viewer lists versions and deletes empty ones', async () => {
    await s.page.click('[data-testid="open-snapshots"]');
    await s.page.waitForSelector('[data-testid="snapshot-stats"]');
    expect(await s.page.locator('[data-testid="snapshot-row"]').count()).toBeGreaterThan(0);
    await s.page.keyboard.press('Escape');
  });

  it('access settings from the header use the board page toasts', async () => {
    await s.page.click('[data-testid="open-access"]');
    await s.page.click('[data-testid="role-switch-editor"]');
    await waitForToast(s.page, 'Ссылка Редактирование удалена');
    await s.page.keyboard.press('Escape');
  });

  it('the camera is where it was left after a reload', async () => {
    const b = await box(s.page);
    await s.page.mouse.move(b.x + 600, b.y + 500);
    await s.page.mouse.down();
    await s.page.mouse.move(b.x + 450, b.y + 380, { steps: 5 });
    await s.page.mouse.up();
    await s.page.mouse.wheel(0, -100);
    const camera = await s.page.locator('[data-testid="board-canvas"]').getAttribute('data-camera');
    await s.page.waitForTimeout(900);
    await s.page.reload();
    await boardReady(s.page);
    await expect.poll(() => s.page.locator('[data-testid="board-canvas"]').getAttribute('data-camera')).toBe(camera);
  });

  it('screenshots at 375, 800 and 1280 px', async () => {
    for (const width of [375, 800, 1280]) {
      await s.page.setViewportSize({ width, height: 760 });
      await s.page.waitForTimeout(300);
      await s.page.screenshot({ path: path.join(SHOTS, `board-${width}.png`) });
      const header = (await s.page.locator('[data-testid="board-header"]').boundingBox())!;
      expect(header.width).toBeLessThanOrEqual(width);
      const overflow = await s.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
});
