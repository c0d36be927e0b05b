/**
 * The dashboard end to end (spec §2, §8): folders, boards, drag and drop with a real mouse, tags,
 * search, rename/delete, access settings and opening a board by a viewer link without signing in.
 *
 * Runs against the whole product from the harness. WB_TEST_BASE_URL=http://… runs it against an
 * already started product instead (handy while the embedded runner is being extended).
 */
import { BOARD_TEXTS } from '@wb/contracts/constants';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { animationsEnded } from './axe.ts';
import { rendered } from './boardPageHelpers.ts';
import {
  appReady,
  newAccount,
  pathOf,
  registerViaApi,
  signInWithTokens,
  toastTexts,
  usePage,
  useProduct,
  withPage,
} from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_TEST_BASE_URL });
const acc = newAccount('dash');
let page: Page;
const s = usePage(product, async (session) => {
  page = session.page;
  await registerViaApi(product.url, acc);
  await signInWithTokens(page, product.url, acc);
  await page.goto('/dashboard');
  await appReady(page);
});

// ---------- helpers ----------

const card = (title: string) =>
  page.locator('[data-testid="board-card"]', {
    has: page.locator(`[data-testid="board-title"]:text-is("${title}")`),
  });
const folderRow = (name: string) => page.locator(`[data-testid="folder-row"][data-folder-name="${name}"]`);
const dropZoneOf = (name: string) => folderRow(name).getAttribute('data-drop-zone');
const cardTitles = () => page.locator('[data-testid="board-title"]').allInnerTexts();
const folderNames = () =>
  page
    .locator('[data-testid="folder-row"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-folder-name')));

async function expectToast(text: string) {
  await expect.poll(() => toastTexts(page), { timeout: 10_000 }).toContain(text);
}

/** Closes the visible toasts (through their close buttons, so react-toastify stays in charge). */
async function dismissToasts() {
  await expect
    .poll(
      async () => {
        const buttons = page.locator('.Toastify__toast .Toastify__close-button');
        for (let i = (await buttons.count()) - 1; i >= 0; i--)
          await buttons
            .nth(i)
            .click({ force: true, timeout: 1_000 })
            .catch(() => {});
        return toastTexts(page);
      },
      { timeout: 8_000, interval: 250, message: 'toasts stay' },
    )
    .toEqual([]);
}

/** A real mouse drag: press, a few small moves so dnd-kit activates, then move in steps and release. */
async function drag(
  from: Locator,
  to: Locator,
  opts: { yFrac?: number; grabX?: number; hold?: (p: Page) => Promise<void> } = {},
) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  const sx = a.x + (opts.grabX ?? a.width / 2);
  const sy = a.y + a.height / 2;
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  await page.mouse.move(sx + 4, sy + 4, { steps: 3 });
  await page.mouse.move(sx + 12, sy + 8, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height * (opts.yFrac ?? 0.5), { steps: 15 });
  // dnd-kit finds the target on the next frames: let them run before the release.
  await rendered(page);
  if (opts.hold) await opts.hold(page);
  await page.mouse.up();
}

async function openCardMenu(title: string, item: string) {
  await card(title).hover();
  await card(title).locator('[data-testid="board-menu"]').click();
  await page.click(`[data-testid="menu-${item}"]`);
}

async function createFolder(name: string) {
  await page.click('[data-testid="create-folder"]');
  await page.fill('[data-testid="folder-name-input"]', name);
  await page.click('[data-testid="folder-submit"]');
  await expectToast('Папка создана');
  await folderRow(name).waitFor();
}

async function createBoard(title: string) {
  await page.click('[data-testid="create-board"]');
  await page.fill('[data-testid="board-title-input"]', title);
  await page.click('[data-testid="create-board-submit"]');
  await expectToast('Доска создана');
  await card(title).waitFor();
}

// ---------- tests ----------

describe('dashboard', () => {
  it('starts empty, then creates folders and boards through the modals', async () => {
    expect(await page.locator('[data-testid="dashboard-title"]').innerText()).toBe('Все доски');
    await page.locator('[data-testid="empty-none"]').waitFor();
    expect(await page.locator('[data-testid="empty-none"] h2').innerText()).toBe('Пока нет досок');
    expect(await page.locator('[data-testid="board-search"]').getAttribute('placeholder')).toBe(
      'Поиск досок...',
    );
    expect(await page.locator('[data-testid="filter-all"]').innerText()).toContain('Показать все');
    expect(await page.locator('[data-testid="filter-none"]').innerText()).toContain('Без папки');
    await expect.poll(() => page.locator('[data-testid="board-count"]').innerText()).toMatch(/^0\//);

    // Folder modal: save stays disabled for a blank name; the default colour is #3B82F6.
    await page.click('[data-testid="create-folder"]');
    const submit = page.locator('[data-testid="folder-submit"]');
    expect(await submit.isDisabled()).toBe(true);
    await page.fill('[data-testid="folder-name-input"]', '   ');
    expect(await submit.isDisabled()).toBe(true);
    expect(
      await page.locator('[data-testid="folder-color"] [aria-checked="true"]').getAttribute('aria-label'),
    ).toBe('#3B82F6');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="folder-modal"]').waitFor({ state: 'detached' });

    await createFolder('Проекты');
    await createFolder('Архив');
    expect(await folderNames()).toEqual(['Проекты', 'Архив']);

    // Create board: disabled while the trimmed title is empty.
    await page.click('[data-testid="create-board"]');
    await page.fill('[data-testid="board-title-input"]', '  ');
    expect(await page.locator('[data-testid="create-board-submit"]').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await createBoard('Альфа');
    await createBoard('Бета');
    expect((await cardTitles()).sort()).toEqual(['Альфа', 'Бета']);
    await expect.poll(() => page.locator('[data-testid="board-count"]').innerText()).toMatch(/^2\//);
    // A card: owner name, a ru-RU date, and the new-window button.
    const c = card('Альфа');
    expect(await c.locator('[data-testid="board-owner"]').innerText()).toBe(acc.name);
    expect(await c.innerText()).toMatch(/\d{1,2} [а-я]+\.? \d{4}/);
    expect(await c.locator('[data-testid="board-open-new-window"]').getAttribute('target')).toBe('_blank');
    // Other signed-in pages show the same count in the header (a second tab of the same session).
    const settings = await page.context().newPage();
    await settings.goto(new URL('/settings', page.url()).toString());
    await expect.poll(() => settings.locator('[data-testid="board-count"]').innerText()).toMatch(/^2\//); // the free plan (billing) now gives a number, not ∞
    await settings.close();
    expect(s.errors).toEqual([]);
  });

  it('drags a board onto a folder and back to "Без папки"', async () => {
    await dismissToasts();
    await drag(card('Альфа').locator('[data-testid="board-meta"]'), folderRow('Проекты'), {
      hold: async () => {
        // The whole row is highlighted while the board hovers it.
        expect(await dropZoneOf('Проекты')).toBe('inside');
      },
    });
    await expectToast('Доска обновлена');
    await expect
      .poll(() =>
        card('Альфа')
          .locator('[data-testid="board-folder"]')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Проекты');
    await expect.poll(() => folderRow('Проекты').locator('[data-testid="count-badge"]').innerText()).toBe('1');

    // The folder filter shows its name as the title and only its boards.
    await folderRow('Проекты').locator('[data-testid="folder-select"]').click();
    await expect.poll(() => page.locator('[data-testid="dashboard-title"]').innerText()).toBe('Проекты');
    await expect.poll(cardTitles).toEqual(['Альфа']);
    await page.click('[data-testid="filter-none"]');
    await expect
      .poll(() => page.locator('[data-testid="dashboard-title"]').innerText())
      .toBe('Доски без папки');
    await expect.poll(cardTitles).toEqual(['Бета']);
    await page.click('[data-testid="filter-all"]');
    await expect.poll(async () => (await cardTitles()).length).toBe(2);

    // Onto 'Без папки' (folder_id null) and back again via the card menu's "move to root".
    await dismissToasts();
    await drag(card('Альфа').locator('[data-testid="board-meta"]'), page.locator('[data-testid="filter-none"]'));
    await expectToast('Доска обновлена');
    await expect.poll(() => card('Альфа').locator('[data-testid="board-folder"]').count()).toBe(0);
    await drag(card('Альфа').locator('[data-testid="board-meta"]'), folderRow('Проекты'));
    await expect.poll(() => card('Альфа').locator('[data-testid="board-folder"]').count()).toBe(1);
    await dismissToasts();
    await openCardMenu('Альфа', 'root');
    await expectToast('Доска обновлена');
    await expect.poll(() => card('Альфа').locator('[data-testid="board-folder"]').count()).toBe(0);
    await drag(card('Альфа').locator('[data-testid="board-meta"]'), folderRow('Проекты'));
    await expect.poll(() => card('Альфа').locator('[data-testid="board-folder"]').count()).toBe(1);
    expect(s.errors).toEqual([]);
  });

  it('drags a folder inside another, refuses a cycle, and places before/after by zone', async () => {
    await dismissToasts();
    // Middle of the row → inside.
    await drag(folderRow('Архив'), folderRow('Проекты'), {
      yFrac: 0.5,
      hold: async () => {
        expect(await dropZoneOf('Проекты')).toBe('inside');
      },
    });
    await expectToast('Папка перемещена');
    await expect.poll(() => folderRow('Архив').getAttribute('aria-level')).toBe('2');
    expect(await folderRow('Проекты').getAttribute('aria-expanded')).toBe('true');

    // Onto its own child: no indicator and no call, but the reason is shown and announced (issue 8, item 16).
    await dismissToasts();
    await drag(folderRow('Проекты'), folderRow('Архив'), {
      hold: async (p) => {
        expect(await p.locator('[data-drop-zone]').count()).toBe(0);
      },
    });
    await expectToast('Нельзя переместить папку в её дочернюю папку');
    await expect
      .poll(() => page.locator('[id^="DndLiveRegion"]').innerText())
      .toContain('Нельзя переместить папку в её дочернюю папку');
    expect(await toastTexts(page)).toEqual(['Нельзя переместить папку в её дочернюю папку']);
    expect(await folderRow('Архив').getAttribute('aria-level')).toBe('2');

    // The expanded state survives a reload (localStorage).
    await page.reload();
    await appReady(page);
    await folderRow('Архив').waitFor();
    expect(await folderRow('Архив').getAttribute('aria-level')).toBe('2');

    // Collapse / expand.
    await folderRow('Проекты').locator('[data-testid="folder-toggle"]').click();
    await folderRow('Архив').waitFor({ state: 'detached' });
    await folderRow('Проекты').locator('[data-testid="folder-toggle"]').click();
    await folderRow('Архив').waitFor();

    // Top 25 % → before: Архив goes back to the root, above Проекты.
    await dismissToasts();
    await drag(folderRow('Архив'), folderRow('Проекты'), {
      yFrac: 0.1,
      hold: async () => {
        expect(await dropZoneOf('Проекты')).toBe('before');
      },
    });
    await expectToast('Папка перемещена');
    await expect.poll(() => folderRow('Архив').getAttribute('aria-level')).toBe('1');
    await expect.poll(folderNames).toEqual(['Архив', 'Проекты']);

    // Bottom 25 % → after.
    await dismissToasts();
    await drag(folderRow('Архив'), folderRow('Проекты'), { yFrac: 0.9 });
    await expectToast('Папка перемещена');
    await expect.poll(folderNames).toEqual(['Проекты', 'Архив']);
    expect(s.errors).toEqual([]);
  });

  it('moves a folder with the keyboard (space, arrows, space)', async () => {
    expect(await folderNames()).toEqual(['Проекты', 'Архив']);
    await dismissToasts();
    // dnd-kit listens for the arrows only after the drag started, and each step reads the moved rect: go slowly.
    const key = async (k: string) => {
      await page.keyboard.press(k);
      await rendered(page);
      await animationsEnded(page);
    };
    const pickUp = async (name: string) => {
      await folderRow(name).locator('[data-testid="folder-select"]').focus();
      await page.keyboard.press('Space');
      await page.locator('[data-testid="dashboard-page"][data-dragging="true"]').waitFor();
      await rendered(page);
      await animationsEnded(page);
    };
    // Arrow up: Архив's own "before" (refused), Проекты "after", Проекты "inside".
    await pickUp('Архив');
    await key('ArrowUp');
    expect(await page.locator('[data-drop-zone]').count()).toBe(0);
    await key('ArrowUp');
    await expect.poll(() => dropZoneOf('Проекты')).toBe('after');
    await key('ArrowUp');
    await expect.poll(() => dropZoneOf('Проекты')).toBe('inside');
    await key('Space');
    await expectToast('Папка перемещена');
    await expect.poll(() => folderRow('Архив').getAttribute('aria-level')).toBe('2');

    // And out again: "after" Проекты puts it back at the root.
    await dismissToasts();
    await pickUp('Архив');
    await key('ArrowUp');
    await key('ArrowUp');
    await expect.poll(() => dropZoneOf('Проекты')).toBe('after');
    await key('Enter');
    await expectToast('Папка перемещена');
    await expect.poll(() => folderRow('Архив').getAttribute('aria-level')).toBe('1');
    await expect.poll(folderNames).toEqual(['Проекты', 'Архив']);
    await page.click('[data-testid="filter-all"]');
    expect(s.errors).toEqual([]);
  });

  it('tags a board and filters by tag and by search', async () => {
    await dismissToasts();
    await openCardMenu('Альфа', 'tags');
    await page.locator('[data-testid="tags-modal"]').waitFor();
    const add = page.locator('[data-testid="new-tag-submit"]');
    expect(await add.isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="new-tag-name"]').getAttribute('maxlength')).toBe('50');
    await page.fill('[data-testid="new-tag-name"]', 'срочно');
    await add.click();
    await expectToast('Тег создан');
    // A new tag is checked for the board at once.
    await expect
      .poll(() =>
        page
          .locator('[data-testid="tag-row"][data-tag-name="срочно"] [data-testid="tag-checkbox"]')
          .isChecked(),
      )
      .toBe(true);
    await page.fill('[data-testid="new-tag-name"]', 'позже');
    await add.click();
    await page.locator('[data-testid="tag-row"][data-tag-name="позже"]').waitFor();
    await page.click('[data-testid="tag-row"][data-tag-name="позже"] [data-testid="tag-checkbox"]');
    await page.click('[data-testid="tags-save"]');
    await expectToast('Теги доски обновлены');
    await expect
      .poll(() => card('Альфа').locator('[data-testid="board-tag"]').allInnerTexts())
      .toEqual(['срочно']);

    // Tag filter: only boards with every selected tag; reset brings all back.
    await page.click('[data-testid="tag-filter-chip"][data-tag-name="срочно"]');
    await expect.poll(cardTitles).toEqual(['Альфа']);
    await page.click('[data-testid="tag-filter-chip"][data-tag-name="позже"]');
    await expect
      .poll(() =>
        page
          .locator('[data-testid="empty-filtered"] h2')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Досок не найдено');
    await page.click('[data-testid="tag-filter-reset"]');
    await expect.poll(async () => (await cardTitles()).length).toBe(2);

    // Search is server-side and debounced.
    await page.fill('[data-testid="board-search"]', 'бет');
    await expect.poll(cardTitles).toEqual(['Бета']);
    await page.fill('[data-testid="board-search"]', 'нет-такой-доски');
    await expect
      .poll(() =>
        page
          .locator('[data-testid="empty-filtered"] h2')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Досок не найдено');
    await page.fill('[data-testid="board-search"]', '');
    await expect.poll(async () => (await cardTitles()).length).toBe(2);

    // Rename and recolour a tag.
    await dismissToasts();
    await openCardMenu('Альфа', 'tags');
    await page.click('[data-testid="tag-row"][data-tag-name="срочно"] [data-testid="tag-edit"]');
    await page.fill('[data-testid="tag-edit-name"]', 'очень срочно');
    await page.click('[data-testid="tag-edit-row"] [aria-label="#EF4444"]');
    await page.click('[data-testid="tag-edit-save"]');
    await expectToast('Тег обновлен');
    await page.locator('[data-testid="tag-row"][data-tag-name="очень срочно"]').waitFor();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => card('Альфа').locator('[data-testid="board-tag"]').allInnerTexts())
      .toEqual(['очень срочно']);

    // Deleting a tag asks first with the spec text, then removes it from the filter.
    await dismissToasts();
    await openCardMenu('Альфа', 'tags');
    await page.click('[data-testid="tag-row"][data-tag-name="позже"] [data-testid="tag-delete"]');
    expect(await page.locator('[data-testid="confirm-text"]').innerText()).toBe(
      'Он будет удален со всех досок',
    );
    await page.click('[data-testid="confirm-ok"]');
    await expectToast('Тег удален');
    await page.locator('[data-testid="tag-row"][data-tag-name="позже"]').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="tags-modal"]').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid="tag-filter-chip"]').count()).toBe(1);
    expect(s.errors).toEqual([]);
  });

  it('renames and deletes a board', async () => {
    await dismissToasts();
    await openCardMenu('Бета', 'rename');
    const input = page.locator('[data-testid="rename-board-modal"] [data-testid="board-title-input"]');
    expect(await input.inputValue()).toBe('Бета');
    await input.fill('  ');
    expect(await page.locator('[data-testid="rename-board-submit"]').isDisabled()).toBe(true);
    await input.fill('Бета 2');
    await page.click('[data-testid="rename-board-submit"]');
    await expectToast('Доска обновлена');
    await card('Бета 2').waitFor();

    await dismissToasts();
    await openCardMenu('Бета 2', 'delete');
    expect(await page.locator('[data-testid="confirm-text"]').innerText()).toBe(
      'Удалить доску «Бета 2»? Это действие нельзя отменить.',
    );
    await page.click('[data-testid="confirm-ok"]');
    await expectToast('Доска удалена');
    await card('Бета 2').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid="board-count"]').innerText()).toMatch(/^1\//);
    expect(s.errors).toEqual([]);
  });

  it('deletes a folder after the spec confirmation; its boards go to the root', async () => {
    await createFolder('Временная');
    await drag(card('Альфа').locator('[data-testid="board-meta"]'), folderRow('Временная'));
    await expect
      .poll(() =>
        card('Альфа')
          .locator('[data-testid="board-folder"]')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Временная');
    await dismissToasts();
    await folderRow('Временная').hover();
    await folderRow('Временная').locator('[data-testid="folder-menu"]').click();
    await page.click('[data-testid="menu-delete"]');
    expect(await page.locator('[data-testid="confirm-text"]').innerText()).toBe(
      'Доски из папки будут перемещены в корень',
    );
    await page.click('[data-testid="confirm-ok"]');
    await expectToast('Папка удалена');
    await folderRow('Временная').waitFor({ state: 'detached' });
    await expect.poll(() => card('Альфа').locator('[data-testid="board-folder"]').count()).toBe(0);
  });

  it('shares a board and opens it by the viewer link in a fresh context without login', async () => {
    await dismissToasts();
    await openCardMenu('Альфа', 'access');
    const modal = page.locator('[data-testid="access-modal"]');
    await modal.waitFor();
    for (const label of ['Просмотр с реакциями', 'Гостевой просмотр (без авторизации)', 'Редактирование']) {
      expect(await modal.innerText()).toContain(label);
    }
    await page.click('[data-testid="sharing-switch"]');
    await expect
      .poll(() => page.locator('[data-testid="sharing-switch"]').getAttribute('aria-checked'))
      .toBe('true');
    const viewerLink = page.locator('[data-testid="role-link-viewer"]');
    await viewerLink.waitFor();
    const link = await viewerLink.inputValue();
    expect(link).toMatch(
      new RegExp(`^${product.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/board/[0-9a-f-]{36}\\?token=.+`),
    );

    // Editor link on, then rotate: the viewer link changes.
    await page.click('[data-testid="role-switch-editor"]');
    await page.locator('[data-testid="role-link-editor"]').waitFor();
    // 'Обновить ссылки' kills every link, so it asks first (issue 8, item 15).
    await page.click('[data-testid="rotate-links"]');
    await page.click('[data-testid="rotate-confirm-ok"]');
    await expect.poll(() => viewerLink.inputValue()).not.toBe(link);
    const fresh = await viewerLink.inputValue();

    // Copy → 'Ссылка скопирована!' (or the spec failure text where the clipboard is refused).
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
    // No dismissing of toasts here: the access dialog is open, and the check below finds its toast
    // among any others.
    await page.click('[data-testid="copy-link-viewer"]');
    await expect
      .poll(async () =>
        (await toastTexts(page)).find(
          (t) => t === 'Ссылка скопирована!' || t === 'Не удалось скопировать ссылку',
        ),
      )
      .toBe('Ссылка скопирована!');

    await page.keyboard.press('Escape');
    await expect
      .poll(() =>
        card('Альфа')
          .locator('[data-testid="board-shared"]')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Общий доступ включён');

    // A fresh context: no tokens, straight onto the board.
    await withPage(product, async (guest) => {
      await guest.page.goto(fresh);
      await guest.page.locator('[data-testid="board-page"]').waitFor();
      const boardId = new URL(fresh).pathname.split('/').pop();
      expect(pathOf(guest.page)).toBe(`/board/${boardId}`);
      expect(await guest.page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
      expect(guest.errors).toEqual([]);
    });
    await page.screenshot({ path: '/tmp/shot-dashboard-test.png' });
    expect(s.errors).toEqual([]);
  });
  it('form dialogs check the contract rules as the user types and say why submit is off', async () => {
    await page.keyboard.press('Escape'); // nothing may be left open by the test before
    // The field's message, or '' when there is none (no waiting for one to appear).
    const errorOf = async (id: string) => {
      const message = page.locator(`#${id}-error`);
      return (await message.count()) ? message.innerText() : '';
    };

    // Create board: only spaces is an empty title (spec §5): the message shows, submit stays off.
    await page.click('[data-testid="create-board"]');
    const title = page.locator('[data-testid="board-title-input"]');
    await title.fill('   ');
    await expect.poll(() => errorOf('board-title')).toBe(BOARD_TEXTS.titleRequired);
    expect(await page.locator('[data-testid="create-board-submit"]').isDisabled()).toBe(true);
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    await title.fill('Формы');
    await expect.poll(() => errorOf('board-title')).toBe('');
    expect(await page.locator('[data-testid="create-board-submit"]').isDisabled()).toBe(false);
    await page.click('[data-testid="create-board-submit"]');
    await expectToast('Доска создана');
    await card('Формы').waitFor();
    await dismissToasts();

    // Folder: clearing the name brings the folder's message back.
    await page.click('[data-testid="create-folder"]');
    const name = page.locator('[data-testid="folder-name-input"]');
    await name.fill('x');
    await name.fill('');
    await expect.poll(() => errorOf('folder-name')).toBe(BOARD_TEXTS.folderNameRequired);
    expect(await page.locator('[data-testid="folder-submit"]').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="folder-modal"]').waitFor({ state: 'detached' });

    // Rename: the same title rule as create.
    await openCardMenu('Формы', 'rename');
    const rename = page.locator('[data-testid="rename-board-modal"] [data-testid="board-title-input"]');
    await rename.fill(' ');
    await expect.poll(() => errorOf('board-title')).toBe(BOARD_TEXTS.titleRequired);
    expect(await page.locator('[data-testid="rename-board-submit"]').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="rename-board-modal"]').waitFor({ state: 'detached' });

    // Tags: a name of spaces cannot be added, and says so.
    await openCardMenu('Формы', 'tags');
    const tag = page.locator('[data-testid="new-tag-name"]');
    await tag.fill('  ');
    await expect.poll(() => errorOf('new-tag-name')).toBe(BOARD_TEXTS.tagNameRequired);
    expect(await page.locator('[data-testid="new-tag-submit"]').isDisabled()).toBe(true);
    await tag.fill('Срочно');
    await expect.poll(() => errorOf('new-tag-name')).toBe('');
    await page.click('[data-testid="new-tag-submit"]');
    await expectToast('Тег создан');
    // Added, the field starts over without an "empty" message.
    expect(await tag.inputValue()).toBe('');
    expect(await errorOf('new-tag-name')).toBe('');
    await page.keyboard.press('Escape');
    expect(s.errors).toEqual([]);
  });
});
