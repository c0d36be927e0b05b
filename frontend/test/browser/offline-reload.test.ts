/**
 * Issue 35 item 7: the offline app shell. A board page reloaded without network opens from the
 * service worker's cache and the board's IndexedDB copy (not /login, not the load-error panel), an edit
 * made offline reaches another browser once the network is back, and logout leaves nothing of the
 * user's boards on the device. Runs in both browser projects (embedded and cluster).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useProduct, type PageSession } from './harness.ts';
import { poll } from './boardPageHelpers.ts';
import { addObjects, newBoardOf, openCanvas, sticky, type Board } from './canvasHelpers.ts';

const product = useProduct();

/** A context whose pages may install the service worker (openPage blocks it for the other tests). */
async function shellContext(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await product.browser.newContext({
    baseURL: product.url,
    viewport: { width: 1280, height: 860 },
    locale: 'ru-RU',
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

const ids = (page: Page) => page.evaluate(() => window.__wbCanvas?.store.allObjects().map((o) => String(o.id)).sort() ?? []);

/** The canvas drew the whole view with at least `n` objects in it. */
const drawn = (page: Page, n: number) =>
  page.waitForFunction((count) => {
    const stats = window.__wbCanvas?.stats;
    return stats?.firstDrawAt != null && stats.drawnItems >= count;
  }, n);

const deviceData = (page: Page) =>
  page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('wb-board-')),
    keys: Object.keys(localStorage).filter((k) => k === 'wb-last-user' || k.startsWith('wb-board-answer:')),
  }));

async function openBoardOnline(board: Board): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const a = await shellContext();
  await openCanvas(a.page, board);
  // Signed in on a board: the worker registers once the page is idle, precaches, and takes control.
  await a.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 90_000 });
  return a;
}

describe('offline reload of a board', () => {
  it('opens from the cache and IndexedDB offline; the offline edit arrives in another browser once online', async () => {
    const board = await newBoardOf(product.url, 'offline', 'Офлайн');
    const a = await openBoardOnline(board);
    let b: PageSession | undefined;
    try {
      await addObjects(a.page, [sticky('s1', 0, 0), sticky('s2', 200, 0)]);
      b = await openPage(product);
      await openCanvas(b.page, board);
      await poll(() => ids(b!.page), 30_000).toEqual(['s1', 's2']);

      await a.context.setOffline(true);
      await a.page.reload();
      await a.page.waitForSelector('[data-testid="board-page"]');
      await drawn(a.page, 2);
      expect(new URL(a.page.url()).pathname).toBe(`/board/${board.id}`);
      expect(await ids(a.page)).toEqual(['s1', 's2']);
      // The footer's honest state (no error screen): 'Нет соединения'.
      expect(await a.page.locator('[data-testid="sync-status"]').getAttribute('data-phase')).toBe('offline');

      await addObjects(a.page, [sticky('s3', 400, 0)]);
      await drawn(a.page, 3);
      await a.context.setOffline(false);
      await poll(() => ids(b!.page), 30_000).toEqual(['s1', 's2', 's3']);
      await poll(() => a.page.locator('[data-testid="sync-status"]').getAttribute('data-phase'), 30_000).toBe('connected');
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    } finally {
      await b?.close();
      await a.context.close();
    }
  });

  it('logout removes the boards kept on the device (IndexedDB copies, answers, the remembered user)', async () => {
    const board = await newBoardOf(product.url, 'offline-out', 'Офлайн выход');
    const a = await openBoardOnline(board);
    try {
      await addObjects(a.page, [sticky('k1', 0, 0)]);
      await a.page.goto('/dashboard');
      const kept = await deviceData(a.page);
      expect(kept.databases).toEqual([`wb-board-${board.id}`]);
      expect(kept.keys.sort()).toEqual([`wb-board-answer:${board.id}`, 'wb-last-user']);

      await a.page.click('[data-testid="user-menu-trigger"]');
      await a.page.click('[data-testid="logout-button"]');
      await a.page.waitForURL((u) => u.pathname === '/');
      await poll(() => deviceData(a.page)).toEqual({ databases: [], keys: [] });
      expect(a.errors).toEqual([]);
    } finally {
      await a.context.close();
    }
  });
});
