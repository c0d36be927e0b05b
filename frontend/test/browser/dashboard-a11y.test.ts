/**
 * Issue 36, item 5: zero serious or critical axe-core violations (WCAG 2 A/AA) on /dashboard and
 * /settings at a phone's width (375 px) and a desktop's (1280 px): with folders (one of them empty
 * of boards), tags in each of the 12 palette colours of spec §3 Tag plus a custom light colour on
 * boards, and for a new account whose folder tree is still empty.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsEnded, seriousViolations } from './axe.ts';
import { apiCall, accessToken } from './boardPageHelpers.ts';
import { appReady, newAccount, registerViaApi, signInWithTokens, useProduct, withPage } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_TEST_BASE_URL });

/** Spec §3 Tag: the palette's 12 colours, and a custom light one a user may pick. */
const PALETTE = [
  '#3B82F6', '#EF4444', '#10B981', '#F59E0B', '#8B5CF6', '#EC4899',
  '#06B6D4', '#84CC16', '#F97316', '#6366F1', '#14B8A6', '#A855F7',
];
const CUSTOM_LIGHT = '#FDE68A';
const WIDTHS = [375, 1280] as const;

/** An account with two folders (a sub-folder, one folder without boards), 13 tags and boards wearing them all. */
async function accountWithContent() {
  const acc = newAccount('axe-dash');
  await registerViaApi(product.url, acc);
  const token = await accessToken(product.url, acc);
  const call = <T,>(method: string, url: string, body?: unknown) => apiCall<T>(product.url, token, method, url, body);
  const { folder: projects } = await call<{ folder: { id: string } }>('POST', '/api/folders', { name: 'Проекты', parent_id: null });
  await call('POST', '/api/folders', { name: 'Архив', parent_id: null, color: '#84CC16' });
  await call('POST', '/api/folders', { name: 'Вложенная', parent_id: projects.id, color: '#F59E0B' });
  const tagIds: string[] = [];
  for (const [i, color] of [...PALETTE, CUSTOM_LIGHT].entries()) {
    const { tag } = await call<{ tag: { id: string } }>('POST', '/api/tags', { name: `Тег ${i + 1}`, color });
    tagIds.push(tag.id);
  }
  // The free plan's three boards; a card shows three tags (the custom light one and the palette's
  // lightest among them), the tags dialog shows all 13.
  const order = [12, 7, 3, 6, 10, 0, 1, 2, 4, 5, 8, 9, 11].map((i) => tagIds[i]!);
  const groups = [order.slice(0, 3), order.slice(3, 6), order.slice(6)];
  for (const [b, ids] of groups.entries()) {
    const { board } = await call<{ board: { id: string } }>('POST', '/api/boards', {
      title: `Доска ${b + 1}`,
      folder_id: b === 0 ? projects.id : null,
    });
    await call('PUT', `/api/tags/board/${board.id}`, { tagIds: ids });
  }
  return acc;
}

/** The page with its data shown, requests done and entry animations ended (colours as they end up). */
async function settled(page: Page, path: string, ready: string) {
  await page.goto(path);
  await appReady(page);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await animationsEnded(page);
}

/**
 * The serious/critical violations of the dashboard, its tags dialog (when asked), at 375 px the folders
 * drawer opened, and /settings.
 */
async function violationsAt(acc: ReturnType<typeof newAccount>, width: number, ready: string, withTagsDialog: boolean) {
  return withPage(
    product,
    async ({ page }) => {
      await signInWithTokens(page, product.url, acc);
      const found: Record<string, string[]> = {};
      await settled(page, '/dashboard', ready);
      found.dashboard = await seriousViolations(page);
      // To look at after a run: the header (avatar-only menu at 375 px) and the tag chips' colours.
      if (withTagsDialog) await page.screenshot({ path: `/tmp/shot-dashboard-a11y-${width}.png` });
      if (withTagsDialog) {
        const card = page.locator('[data-testid="board-card"]').first();
        await card.hover();
        await card.locator('[data-testid="board-menu"]').click();
        await page.click('[data-testid="menu-tags"]');
        await page.locator('[data-testid="tag-row"]').nth(12).waitFor();
        await animationsEnded(page);
        found.tagsDialog = await seriousViolations(page);
        await page.keyboard.press('Escape');
        await page.locator('[data-testid="tags-modal"]').waitFor({ state: 'detached' });
      }
      if (width < 768) {
        await page.click('[data-testid="sidebar-toggle"]');
        await page.locator('[data-testid="folder-tree"]').waitFor();
        await animationsEnded(page);
        found.drawer = await seriousViolations(page);
      }
      await settled(page, '/settings', '[data-testid="profile-submit"]');
      found.settings = await seriousViolations(page);
      return found;
    },
    { width, height: 860 },
  );
}

describe('dashboard and settings accessibility at 375 and 1280 px (axe-core)', () => {
  it.each(WIDTHS)('folders, an empty folder, tags of every palette colour and a custom light one, boards at %i px', async (width) => {
    const acc = await accountWithContent();
    const found = await violationsAt(acc, width, '[data-testid="board-tag"]', true);
    console.log(`axe at ${width} px with content:`, JSON.stringify(found, null, 1));
    const none = { dashboard: [], tagsDialog: [], settings: [] };
    expect(found).toEqual(width < 768 ? { ...none, drawer: [] } : none);
  });

  it.each(WIDTHS)('a new account: no folders, tags or boards yet, at %i px', async (width) => {
    const acc = newAccount('axe-empty');
    await registerViaApi(product.url, acc);
    const found = await violationsAt(acc, width, '[data-testid="dashboard-title"]', false);
    console.log(`axe at ${width} px, empty:`, JSON.stringify(found, null, 1));
    expect(found).toEqual(width < 768 ? { dashboard: [], drawer: [], settings: [] } : { dashboard: [], settings: [] });
  });
});
