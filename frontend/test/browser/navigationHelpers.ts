/**
 * What the navigation browser tests (canvas-navigation.test.ts, canvas-navigation-mobile.test.ts)
 * share: views and visible areas read through `window.__wbCanvas`, a board opened in a context of a
 * given size, and the camera the server holds for a device class.
 */
import type { Page } from 'playwright-core';
import { newBoardOf, openCanvas, type Board } from './canvasHelpers.ts';
import { openPage, type PageSession, type Product } from './harness.ts';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 667 };

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface View {
  x: number;
  y: number;
  zoom: number;
}

export const newBoard = (product: Product, title: string): Promise<Board> =>
  newBoardOf(product.url, 'nav', title);

/** The board point at the stage's centre and the zoom: what a "view" is. */
export function view(page: Page): Promise<View> {
  return page.evaluate(() => {
    const e = window.__wbCanvas!;
    const c = e.toBoard({ x: e.viewport.width / 2, y: e.viewport.height / 2 });
    return { x: c.x, y: c.y, zoom: e.camera.scale };
  });
}

/** The board area the stage shows. */
export function visible(page: Page): Promise<Box> {
  return page.evaluate(() => {
    const e = window.__wbCanvas!;
    const tl = e.toBoard({ x: 0, y: 0 });
    return {
      x: tl.x,
      y: tl.y,
      width: e.viewport.width / e.camera.scale,
      height: e.viewport.height / e.camera.scale,
    };
  });
}

/** The union of the objects' boxes (stickies, rectangles and templates' rects are x/y/width/height). */
export function objectsBox(page: Page, ids?: string[]): Promise<Box | null> {
  return page.evaluate((only) => {
    const list = window
      .__wbCanvas!.store.allObjects()
      .filter((o) => !only || only.includes(o.id)) as unknown as Box[];
    if (list.length === 0) return null;
    const x0 = Math.min(...list.map((o) => o.x));
    const y0 = Math.min(...list.map((o) => o.y));
    const x1 = Math.max(...list.map((o) => o.x + (o.width ?? 0)));
    const y1 = Math.max(...list.map((o) => o.y + (o.height ?? 0)));
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  }, ids ?? null);
}

export const inside = (outer: Box, inner: Box, slack = 0.5) =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.width <= outer.x + outer.width + slack &&
  inner.y + inner.height <= outer.y + outer.height + slack;

export async function withCanvas<T>(
  product: Product,
  board: Board,
  viewport: { width: number; height: number },
  fn: (s: PageSession, origin: { x: number; y: number }) => Promise<T>,
): Promise<T> {
  const s = await openPage(product, viewport);
  try {
    const origin = await openCanvas(s.page, board);
    return await fn(s, origin);
  } finally {
    await s.close();
  }
}

/** The camera the server holds for this device class (what the page saved). */
export async function savedCamera(
  product: Product,
  board: Board,
  device: string,
): Promise<Record<string, number | string> | null> {
  const res = await fetch(`${product.url}/api/boards/${board.id}/camera?device=${device}`, {
    headers: { Authorization: `Bearer ${board.tokens.accessToken}` },
  });
  return ((await res.json()) as { data: Record<string, number | string> | null }).data;
}
