/**
 * What canvas-structure.test.ts drives the canvas with: one browser context on a board (camera at
 * zoom 1), clicks and drags in board coordinates, the paint order, selection and undo steps read
 * through the page's `window.__wbCanvas` hook.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newBoardOf, openCanvas, type Board, type Obj } from './canvasHelpers.ts';
import type { Product } from './harness.ts';

export type Point = { x: number; y: number };

export const rect = (id: string, x: number, y: number, zIndex = 0, width = 100, height = 100): Obj => ({
  id,
  type: 'rectangle',
  x,
  y,
  width,
  height,
  fill: '#90CAF9',
  stroke: '#000000',
  strokeWidth: 2,
  rotation: 0,
  zIndex,
});

export class Board2 {
  private origin = { x: 0, y: 0 };
  readonly errors: string[] = [];
  constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.errors.push(String(e)));
  }

  async open(board: Board): Promise<this> {
    this.origin = await openCanvas(this.page, board);
    await this.page.evaluate(() => window.__wbCanvas!.setCamera({ x: 400, y: 300, scale: 1 }));
    return this;
  }

  async screen(board: Point): Promise<Point> {
    const p = await this.page.evaluate((b) => window.__wbCanvas!.toScreen(b), board);
    return { x: this.origin.x + p.x, y: this.origin.y + p.y };
  }

  async click(board: Point, modifiers: Array<'Shift'> = []): Promise<void> {
    const p = await this.screen(board);
    for (const k of modifiers) await this.page.keyboard.down(k);
    await this.page.mouse.click(p.x, p.y);
    for (const k of modifiers) await this.page.keyboard.up(k);
  }

  async menu(board: Point, item: string): Promise<void> {
    const p = await this.screen(board);
    await this.page.mouse.click(p.x, p.y, { button: 'right' });
    await this.page.locator('[data-testid="canvas-context-menu"]').getByRole('menuitem', { name: item }).click();
  }

  /** Presses at `from` and moves to `to`, still pressed. */
  async press(from: Point, to: Point): Promise<void> {
    const a = await this.screen(from);
    const b = await this.screen(to);
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    await this.page.mouse.move(b.x, b.y, { steps: 8 });
  }

  async drag(from: Point, to: Point): Promise<void> {
    await this.press(from, to);
    await this.page.mouse.up();
  }

  /** Object ids in paint order. */
  order(): Promise<string[]> {
    return this.page.evaluate(() =>
      window
        .__wbCanvas!.store.allObjects()
        .sort((a, b) => a.zIndex - b.zIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((o) => o.id),
    );
  }

  objects(): Promise<Record<string, Obj & { x: number; y: number; groupId?: string; locked?: boolean }>> {
    return this.page.evaluate(() => Object.fromEntries(window.__wbCanvas!.store.allObjects().map((o) => [o.id, o])) as never);
  }

  selection(): Promise<string[]> {
    return this.page.evaluate(() => [...window.__wbCanvas!.selection].sort());
  }

  undoSteps(): Promise<number> {
    return this.page.evaluate(() => window.__wbCanvas!.history.undoStack.length);
  }

  /** How many objects the eraser has marked (its red veils on the live layer). */
  marked(): Promise<number> {
    return this.page.evaluate(() => (window.__wbCanvas!.live as unknown as { preview: unknown[] }).preview.length);
  }
}

export async function withBoard<T>(
  product: Product,
  fn: (b: Board2, ctx: BrowserContext) => Promise<T>,
  opts: { hasTouch?: boolean; board?: Board } = {},
): Promise<T> {
  const board = opts.board ?? (await newBoardOf(product.url, 'structure', 'Структура'));
  const context = await product.browser.newContext({
    baseURL: product.url,
    viewport: { width: 1280, height: 860 },
    locale: 'ru-RU',
    hasTouch: opts.hasTouch ?? false,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const b = await new Board2(page).open(board);
    const result = await fn(b, context);
    expect(b.errors).toEqual([]);
    return result;
  } finally {
    await context.close();
  }
}
