/**
 * Finding one's way on the board (issue 35 items 5, 6, 8) in Chromium on the real product: the
 * bounded canvas's edge drawn and a refused press outside it explained; templates at the view's
 * centre with the view moved to them; the camera remembered per device in board coordinates; the
 * first open fitting the content; Shift+1 / Shift+2 (the phone layout: canvas-navigation-mobile.test.ts).
 * The camera is read through the page's `window.__wbCanvas` hook, as in the other canvas tests.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addObjects, sticky } from './canvasHelpers.ts';
import { toastTexts, useProduct } from './harness.ts';
import {
  DESKTOP,
  PHONE,
  inside,
  newBoard,
  objectsBox,
  savedCamera,
  view,
  visible,
  withCanvas,
} from './navigationHelpers.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

const OUTSIDE_TEXT = 'Здесь доска заканчивается: рисовать и добавлять объекты можно только внутри её границ';

/**
 * A board of 1000 × 600 (x −500…500, y −300…300) seen at scale 0.5 with its centre in the middle.
 * The bounds come from the plan (canvasLimits); set here as canvas.test.ts does.
 */
async function boundedAtHalfScale(page: Page): Promise<void> {
  await page.evaluate(() => window.__wbCanvas!.setLimits({ max_width: 1000, max_height: 600, unlimited: false }));
  await page.evaluate(() => {
    const e = window.__wbCanvas!;
    e.setCamera({ x: e.viewport.width / 2, y: e.viewport.height / 2, scale: 0.5 });
  });
}

describe('bounds', () => {
  it('the edge of a bounded board is drawn; a press outside is refused with a reason, inside works', async () => {
    const board = await newBoard(product, 'Границы');
    await withCanvas(product, board, DESKTOP, async ({ page }, origin) => {
      await boundedAtHalfScale(page);
      const edge = page.locator('[data-testid="canvas-bounds-edge"]');
      await expect.poll(async () => (await edge.boundingBox())?.width ?? 0).toBeGreaterThan(0);
      const onScreen = await page.evaluate(() => {
        const e = window.__wbCanvas!;
        return { tl: e.toScreen({ x: -500, y: -300 }), br: e.toScreen({ x: 500, y: 300 }) };
      });
      const box = (await edge.boundingBox())!;
      // The stroke is 2 px wide: its box is the board's box grown by 1 px on each side.
      expect(Math.abs(box.x - (origin.x + onScreen.tl.x))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(box.y - (origin.y + onScreen.tl.y))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(box.width - (onScreen.br.x - onScreen.tl.x))).toBeLessThanOrEqual(3);
      expect(Math.abs(box.height - (onScreen.br.y - onScreen.tl.y))).toBeLessThanOrEqual(3);
      expect(await page.locator('[data-testid="canvas-bounds"]').isVisible()).toBe(true);
      // Outside is shaded: the shade's hole is the board, so a point outside is covered and one inside is not.
      const covered = await page.evaluate(
        ([ox, oy, ix, iy]) => {
          const path = document.querySelector('[data-testid="canvas-bounds"] path') as SVGPathElement;
          const fill = getComputedStyle(path).fill;
          const svg = path.ownerSVGElement!.getBoundingClientRect();
          const pt = (x: number, y: number) => new DOMPoint(x - svg.x, y - svg.y);
          return { fill, outside: path.isPointInFill(pt(ox, oy)), inside: path.isPointInFill(pt(ix, iy)) };
        },
        [
          origin.x + onScreen.tl.x - 20,
          origin.y + onScreen.tl.y + 50,
          origin.x + onScreen.tl.x + 20,
          origin.y + onScreen.tl.y + 50,
        ],
      );
      expect(covered.fill).toMatch(/rgba\(.*, 0\.\d+\)/);
      expect(covered.outside).toBe(true);
      expect(covered.inside).toBe(false);

      // A rectangle started outside the board: nothing created, the reason shown.
      await page.click('[data-testid="tool-rectangle"]');
      const outX = origin.x + onScreen.tl.x - 60;
      const outY = origin.y + onScreen.tl.y + 80;
      await page.mouse.move(outX, outY);
      await page.mouse.down();
      await page.mouse.move(outX + 120, outY + 80, { steps: 4 });
      await page.mouse.up();
      await expect.poll(() => toastTexts(page)).toContain(OUTSIDE_TEXT);
      expect(await page.evaluate(() => window.__wbCanvas!.store.allObjects().length)).toBe(0);
      // The same drag inside the board makes the rectangle.
      const inX = origin.x + onScreen.tl.x + 40;
      await page.click('[data-testid="tool-rectangle"]');
      await page.mouse.move(inX, outY);
      await page.mouse.down();
      await page.mouse.move(inX + 120, outY + 80, { steps: 4 });
      await page.mouse.up();
      await expect.poll(() => page.evaluate(() => window.__wbCanvas!.store.allObjects().length)).toBe(1);
    });
  });

  it('a connected sticky with no room beside a sticky at the edge is refused with the reason', async () => {
    const board = await newBoard(product, 'Край доски');
    await withCanvas(product, board, DESKTOP, async ({ page }, origin) => {
      await boundedAtHalfScale(page);
      // The board spans x −500…500: a sticky at its left edge has no room on its left.
      await addObjects(page, [sticky('edge', -500, -60)]);
      const c = await page.evaluate(() => window.__wbCanvas!.toScreen({ x: -440, y: 0 }));
      await page.mouse.click(origin.x + c.x, origin.y + c.y);
      await page.click('[data-testid="connect-left"]');
      await expect.poll(() => toastTexts(page)).toContain(OUTSIDE_TEXT);
      expect(await page.locator('[data-testid="text-editor"]').count()).toBe(0);
      // On its right there is room: the editor opens for the new sticky.
      await page.click('[data-testid="connect-right"]');
      await page.waitForSelector('[data-testid="text-editor"]');
    });
  });

  it('an unbounded board draws no edge', async () => {
    const board = await newBoard(product, 'Без границ');
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      // A plan without canvas limits (the test product's free plan has some).
      await page.evaluate(() =>
        window.__wbCanvas!.setLimits({ max_width: 0, max_height: 0, unlimited: true }),
      );
      // The frame after mount has run (the overlay decides every frame): still hidden.
      await page.waitForFunction(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))),
      );
      expect(await page.locator('[data-testid="canvas-bounds"]').isVisible()).toBe(false);
    });
  });
});

describe('templates', () => {
  it('a template lands at the centre of the view, and the view moves out until it is all on screen', async () => {
    const board = await newBoard(product, 'Шаблон в центре');
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      await page.evaluate(() =>
        window.__wbCanvas!.setLimits({ max_width: 0, max_height: 0, unlimited: true }),
      );
      // Far from the origin, zoomed in: the calendar (7 × 200 wide) cannot fit at this zoom.
      await page.evaluate(() => {
        const e = window.__wbCanvas!;
        const zoom = 1.5;
        e.setCamera({
          x: e.viewport.width / 2 - 3000 * zoom,
          y: e.viewport.height / 2 - 2000 * zoom,
          scale: zoom,
        });
      });
      const before = await view(page);
      expect(before.x).toBeCloseTo(3000);
      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="template-tab-calendar"]');
      await page.click('[data-testid="calendar-create"]');
      await expect.poll(async () => (await objectsBox(page)) !== null).toBe(true);
      const placed = (await objectsBox(page))!;
      // The template's own box (boundsOf, text widths estimated) is what is centred: within a few px here.
      expect(Math.abs(placed.x + placed.width / 2 - 3000)).toBeLessThan(40);
      expect(Math.abs(placed.y + placed.height / 2 - 2000)).toBeLessThan(40);
      await expect.poll(async () => inside(await visible(page), placed)).toBe(true);
      const after = await view(page);
      expect(after.zoom).toBeLessThan(1.5);
      expect(Math.abs(after.x - 3000)).toBeLessThan(40);
    });
  });

  it('on a bounded board the template is clamped into the bounds and still shown', async () => {
    const board = await newBoard(product, 'Шаблон у края');
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      await page.evaluate(() =>
        window.__wbCanvas!.setLimits({ max_width: 3000, max_height: 2000, unlimited: false }),
      );
      // The view's centre is near the right edge: a kanban centred there would stick out.
      await page.evaluate(() => {
        const e = window.__wbCanvas!;
        e.setCamera({ x: e.viewport.width / 2 - 1400, y: e.viewport.height / 2, scale: 1 });
      });
      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="kanban-create"]');
      await expect.poll(async () => (await objectsBox(page)) !== null).toBe(true);
      const placed = (await objectsBox(page))!;
      expect(inside({ x: -1500, y: -1000, width: 3000, height: 2000 }, placed)).toBe(true);
      expect(Math.abs(placed.x + placed.width - 1500)).toBeLessThanOrEqual(1.5);
      await expect.poll(async () => inside(await visible(page), placed)).toBe(true);
    });
  });
});

describe('camera', () => {
  it('remembered per device in board coordinates: another window size shows the same centre; a phone keeps its own', async () => {
    const board = await newBoard(product, 'Камера устройства');
    // A desktop moves the view (hand drag and wheel zoom) and it is saved.
    const left = await withCanvas(product, board, DESKTOP, async ({ page }, origin) => {
      await page.click('[data-testid="tool-hand"]');
      await page.mouse.move(origin.x + 600, origin.y + 400);
      await page.mouse.down();
      await page.mouse.move(origin.x + 400, origin.y + 250, { steps: 5 });
      await page.mouse.up();
      await page.mouse.wheel(0, -100);
      await expect.poll(async () => (await view(page)).zoom).not.toBe(1);
      const v = await view(page);
      await expect
        .poll(async () => {
          const saved = await savedCamera(product, board, 'desktop');
          return saved && Math.abs(Number(saved.position_x) - v.x) < 0.01 && Number(saved.scale_x) === v.zoom;
        })
        .toBe(true);
      return v;
    });
    // A bigger desktop window: the same board point in the middle, the same zoom.
    await withCanvas(product, board, { width: 1600, height: 1000 }, async ({ page }) => {
      const v = await view(page);
      expect(v.x).toBeCloseTo(left.x, 3);
      expect(v.y).toBeCloseTo(left.y, 3);
      expect(v.zoom).toBe(left.zoom);
    });
    // A phone has no view of its own yet: not the desktop's (an empty board: the default view).
    await withCanvas(product, board, PHONE, async ({ page }, origin) => {
      expect(await view(page)).toEqual({ x: 0, y: 0, zoom: 1 });
      await page.click('[data-testid="tool-hand"]');
      await page.mouse.move(origin.x + 200, origin.y + 300);
      await page.mouse.down();
      await page.mouse.move(origin.x + 100, origin.y + 200, { steps: 4 });
      await page.mouse.up();
      const v = await view(page);
      await expect
        .poll(async () => Number((await savedCamera(product, board, 'phone'))?.position_x))
        .toBeCloseTo(v.x, 3);
      await page.reload();
      await page.waitForSelector('[data-testid="board-setting-up"]', { state: 'detached', timeout: 45_000 });
      await expect.poll(async () => (await view(page)).x).toBeCloseTo(v.x, 3);
    });
    // The desktop's view is untouched by the phone's.
    await withCanvas(product, board, { width: 1000, height: 700 }, async ({ page }) => {
      const v = await view(page);
      expect(v.x).toBeCloseTo(left.x, 3);
      expect(v.y).toBeCloseTo(left.y, 3);
    });
  });

  it('an old-format camera (stage offset, no device) is read and converted', async () => {
    const board = await newBoard(product, 'Старая камера');
    const res = await fetch(`${product.url}/api/boards/${board.id}/camera`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${board.tokens.accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ position_x: 100, position_y: 50, scale_x: 2, scale_y: 2 }),
    });
    expect(res.status).toBe(200);
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      // Read with today's window: the stage offset it names, exactly.
      expect(await page.evaluate(() => ({ ...window.__wbCanvas!.camera }))).toEqual({
        x: 100,
        y: 50,
        scale: 2,
      });
    });
  });

  it('the first open fits the content; an empty board opens at the origin at scale 1', async () => {
    const board = await newBoard(product, 'Первое открытие');
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      // Empty: the spec's default view (origin centred, scale 1).
      expect(await view(page)).toEqual({ x: 0, y: 0, zoom: 1 });
      await addObjects(page, [sticky('a', 3000, 2500), sticky('b', 3700, 3100), sticky('c', 2600, 2900)]);
    });
    await withCanvas(product, board, { width: 1100, height: 760 }, async ({ page }) => {
      await expect.poll(async () => (await objectsBox(page))?.width ?? 0).toBe(1220);
      const content = (await objectsBox(page))!;
      const seen = await visible(page);
      expect(inside(seen, content)).toBe(true);
      // Fitted, not just somewhere: the content fills most of one dimension.
      expect(content.width / seen.width).toBeGreaterThan(0.75);
    });
  });
});

describe('zoom to fit and to selection', () => {
  it('Shift+1 shows everything, Shift+2 the selection; both from the "Ещё" menu too', async () => {
    const board = await newBoard(product, 'Масштаб');
    await withCanvas(product, board, DESKTOP, async ({ page }) => {
      await addObjects(page, [sticky('a', -2000, -1500), sticky('b', 2500, 1800), sticky('c', 0, 0)]);
      // A view that shows none of them.
      await page.evaluate(() => window.__wbCanvas!.setCamera({ x: -90_000, y: 0, scale: 1 }));
      await page.locator('[data-testid="canvas-stage"]').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('Shift+Digit1');
      await expect.poll(async () => inside(await visible(page), (await objectsBox(page))!)).toBe(true);
      expect((await view(page)).zoom).toBeGreaterThanOrEqual(0.1);

      await page.evaluate(() => window.__wbCanvas!.setSelection(['b']));
      await page.keyboard.press('Shift+Digit2');
      await expect.poll(async () => (await view(page)).zoom).toBeGreaterThan(3);
      const v = await view(page);
      expect(v.x).toBeCloseTo(2560, 0);
      expect(v.y).toBeCloseTo(1860, 0);
      expect(v.zoom).toBeLessThanOrEqual(5);

      await page.click('[data-testid="toolbar-more"]');
      await page.click('[data-testid="zoom-to-fit"]');
      await expect.poll(async () => inside(await visible(page), (await objectsBox(page))!)).toBe(true);
      await page.evaluate(() => window.__wbCanvas!.setSelection(['c']));
      await page.click('[data-testid="toolbar-more"]');
      await page.click('[data-testid="zoom-to-selection"]');
      await expect.poll(async () => (await view(page)).x).toBeCloseTo(60, 0);
    });
  });
});
