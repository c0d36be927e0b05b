/**
 * The canvas renderer (issue 35 items 1 and 2) in Chromium on the real product: the static scene is
 * drawn from cached tiles, so a camera gesture shows newly uncovered objects while it is still
 * moving; zoomed far out stickies are plain rectangles (level of detail); an edit repaints only the
 * tiles it touches, and the moved object shows at its new place, not at its old one.
 * Pixels are read from the stage's canvases composited in the page (every layer, in order).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addObjects, newBoardOf, openCanvas, sticky, type Obj } from './canvasHelpers.ts';
import { useProduct, withPage } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

type Rgb = [number, number, number];

const box = (id: string, x: number, y: number, fill: string, w = 100, h = 100): Obj => ({
  id,
  type: 'rectangle',
  x,
  y,
  width: w,
  height: h,
  fill,
  stroke: fill,
  strokeWidth: 2,
  rotation: 0,
  zIndex: 0,
});

/** Colours of stage points (CSS px), composited from every layer of the stage. */
function pixels(page: Page, points: Array<[number, number]>): Promise<Rgb[]> {
  return page.evaluate((pts) => {
    const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
    const out = document.createElement('canvas');
    out.width = canvases[0].width;
    out.height = canvases[0].height;
    const ctx = out.getContext('2d')!;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, out.width, out.height);
    for (const c of canvases) ctx.drawImage(c, 0, 0);
    const ratio = out.width / canvases[0].clientWidth;
    return pts.map(([x, y]) => [...ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data].slice(0, 3) as Rgb);
  }, points);
}

/** Sets the camera at once and waits until every tile the view needs (ring included) is rendered. */
async function settle(page: Page, camera: { x: number; y: number; scale: number }): Promise<void> {
  // 'complete' describes the last frame drawn: a frame drawn after the camera was set must be.
  const framesBefore = await page.evaluate((c) => {
    const e = window.__wbCanvas!;
    const frames = e.stats.frames;
    e.setCamera(c);
    return frames;
  }, camera);
  await page.waitForFunction(
    ({ c, framesBefore }) => {
      const e = window.__wbCanvas!;
      if (e.stats.frames <= framesBefore) return false;
      const cam = e.camera;
      // The scene store takes in document changes once per frame: until it holds every object,
      // 'complete' may still describe the tiles from before the last addObjects.
      const inScene = [...e.doc.getMap('objects').keys()].every((id) => e.store.entries.has(id));
      return inScene && cam.x === c.x && cam.y === c.y && cam.scale === c.scale && e.stats.complete && !e.stats.pending;
    },
    { c: camera, framesBefore },
    { polling: 'raf' },
  );
}

async function withBoard<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const board = await newBoardOf(product.url, 'render', 'Рендер');
  return withPage(product, async (s) => {
    await openCanvas(s.page, board);
    const result = await fn(s.page);
    expect(s.errors).toEqual([]);
    return result;
  });
}

describe('the canvas draws complete frames from tiles', () => {
  it('a pan that uncovers objects far beyond the drawn area shows them while the camera is still moving', async () => {
    await withBoard(async (page) => {
      // Red boxes only from x = 3000 on; the view starts at the empty origin.
      const objects: Obj[] = [];
      for (let i = 0; i < 60; i++) objects.push(box(`r${i}`, 3000 + (i % 10) * 150, (Math.floor(i / 10) - 2) * 150, '#ff0000'));
      await addObjects(page, objects);
      await settle(page, { x: 0, y: 0, scale: 1 });
      // Before the gesture the spot is empty board.
      expect((await pixels(page, [[350, 200]]))[0]).toEqual([255, 255, 255]);
      // One jump of 3000 px (like a fast fling), then 1 px per frame for 90 frames: the camera never
      // rests. The page reports the first frame of the gesture at which the box under (350, 200)
      // is drawn red (board point (3350, 200), inside a box).
      const drawnAtFrame = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const e = window.__wbCanvas!;
            const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
            const out = document.createElement('canvas');
            out.width = canvases[0].width;
            out.height = canvases[0].height;
            const ctx = out.getContext('2d', { willReadFrequently: true })!;
            const ratio = out.width / canvases[0].clientWidth;
            e.setCamera({ ...e.camera, x: e.camera.x - 3000 }, true);
            let frame = 0;
            const step = () => {
              frame++;
              ctx.clearRect(0, 0, out.width, out.height);
              for (const c of canvases) ctx.drawImage(c, 0, 0);
              const cam = e.camera;
              // The board point that was under (350, 200) right after the jump, where it is now.
              const sx = (3350 + cam.x) * ratio;
              const [r, g, b, a] = ctx.getImageData(Math.round(sx), Math.round(200 * ratio), 1, 1).data;
              if (a > 0 && r > 200 && g < 60 && b < 60) return resolve(frame);
              if (frame >= 90) return resolve(-1);
              e.setCamera({ ...cam, x: cam.x - 1 }, true);
              requestAnimationFrame(step);
            };
            requestAnimationFrame(step);
          }),
      );
      expect(drawnAtFrame, 'the uncovered boxes were not drawn during the gesture').toBeGreaterThan(0);
    });
  });

  it('zoomed far out, a sticky is a plain rectangle of its colour; at 100 % its text is drawn', async () => {
    await withBoard(async (page) => {
      await addObjects(page, [{ ...sticky('s1', 0, 0), text: 'ЖЖ ЖЖ ЖЖ', fontSize: 48, textColor: '#000000' }]);
      // At 100 % the text darkens the sticky's inside.
      await settle(page, { x: 100, y: 100, scale: 1 });
      const inside = (scale: number) => {
        const pts: Array<[number, number]> = [];
        for (let y = 15; y <= 105; y += 6) for (let x = 15; x <= 105; x += 6) pts.push([100 + x * scale, 100 + y * scale]);
        return pts;
      };
      const full = await pixels(page, inside(1));
      expect(full.some(([r, g, b]) => r + g + b < 200), 'text pixels at 100 %').toBe(true);
      // At 25 % the sticky is 30 px wide: its text (12 px glyphs) and shadow are left out.
      await settle(page, { x: 100, y: 100, scale: 0.25 });
      const small = await pixels(page, inside(0.25));
      for (const [r, g, b] of small) expect([r, g, b]).toEqual([0xff, 0xf2, 0xb3]);
      // Just outside its corner, where the shadow would fall, the board stays white.
      expect((await pixels(page, [[100 + 121 * 0.25 + 1, 100 + 121 * 0.25 + 1]]))[0]).toEqual([255, 255, 255]);
    });
  });

  it('an edit repaints only the tiles it touches: the moved box shows at its new place and not at its old one', async () => {
    await withBoard(async (page) => {
      // A in tile (0, 0); B in tile (1, 0); the view shows both.
      await addObjects(page, [box('A', 100, 100, '#ff0000'), box('B', 700, 100, '#0000ff')]);
      await settle(page, { x: 0, y: 0, scale: 1 });
      expect(await pixels(page, [[150, 150], [750, 150], [150, 350]])).toEqual([[255, 0, 0], [0, 0, 255], [255, 255, 255]]);
      const before = await page.evaluate(() => window.__wbCanvas!.stats.tilesRendered);
      // Another person's edit (not through this page's commands): A goes 200 down, same tile.
      await page.evaluate(() => {
        const doc = window.__wbCanvas!.doc;
        const a = doc.getMap('objects').get('A') as { set(k: string, v: unknown): void };
        doc.transact(() => a.set('y', 300), 'remote-test');
      });
      await expect.poll(() => pixels(page, [[150, 150], [150, 350], [750, 150]])).toEqual([[255, 255, 255], [255, 0, 0], [0, 0, 255]]);
      await page.waitForFunction(() => !window.__wbCanvas!.stats.pending, undefined, { polling: 'raf' });
      // Tile (0, 0) again and nothing else: not B's tile, not the rest of the view or its ring.
      expect(await page.evaluate(() => window.__wbCanvas!.stats.tilesRendered)).toBe(before + 1);
    });
  });

  it('a selected object leaves its tile for the live layer and returns when deselected, drawn once', async () => {
    await withBoard(async (page) => {
      await addObjects(page, [box('A', 100, 100, '#ff0000')]);
      await settle(page, { x: 0, y: 0, scale: 1 });
      await page.evaluate(() => window.__wbCanvas!.setSelection(['A']));
      await page.waitForFunction(() => !window.__wbCanvas!.stats.pending, undefined, { polling: 'raf' });
      // Only the live layer draws it now: the static canvas is clear there.
      const staticAlpha = () =>
        page.evaluate(() => {
          const c = document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')[1];
          const ratio = c.width / c.clientWidth;
          return c.getContext('2d')!.getImageData(Math.round(150 * ratio), Math.round(150 * ratio), 1, 1).data[3];
        });
      await expect.poll(staticAlpha).toBe(0);
      expect((await pixels(page, [[150, 150]]))[0]).toEqual([255, 0, 0]);
      await page.evaluate(() => window.__wbCanvas!.setSelection([]));
      await expect.poll(staticAlpha).toBe(255);
      expect((await pixels(page, [[150, 150]]))[0]).toEqual([255, 0, 0]);
    });
  });
});
