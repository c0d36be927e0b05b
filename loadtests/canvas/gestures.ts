/**
 * Camera gestures of the canvas benchmark: frames per second of a pan and of a zoom, and the
 * mid-gesture blank/stale fraction.
 *
 * Blank/stale fraction: a gesture runs for 1.5 s (one camera step per animation frame, as a drag or
 * a wheel does), then the page stops drawing (`holdFrames`) right after the frame of the last step
 * and the stage is photographed as it shows. Then the same camera is left at rest until its frame
 * is complete (every visible tile rendered) and photographed again. The fraction is the share of
 * the view that differs: the two pictures are compared in 4×4 pixel blocks (block mean of each
 * channel, a block differs when a channel differs by more than 16 of 255), so resampling of edges
 * does not count but a blank or shrunken region does (white against a sticky's #FFF2B3 is 76).
 */
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';

export type GestureKind = 'pan' | 'zoom';

const BLOCK = 4;
const TOLERANCE = 16;

/**
 * Runs a gesture for `duration` ms, one camera step per animation frame: pan 8×5 px per frame;
 * zoom ×1.02 per frame around (640, 400), in for 750 ms then out for 750 ms. With `hold` the page
 * stops drawing right after the frame of the last step. Answers fps and the worst frame.
 */
function gesture(page: Page, kind: GestureKind, duration: number, hold: boolean): Promise<GestureFigures> {
  return page.evaluate(
    ([mode, ms, holdAtEnd]) =>
      new Promise<GestureFigures>((resolve) => {
        const e = window.__wbCanvas!;
        const busy0 = e.stats.busyMs;
        const frames0 = e.stats.frames;
        const start = performance.now();
        let last = start;
        let frames = 0;
        let worst = 0;
        const step = (t: number) => {
          frames++;
          worst = Math.max(worst, t - last);
          last = t;
          // The renderer's frame callback runs before this one: what shows now is the last step's camera.
          if (t - start >= ms) {
            if (holdAtEnd) e.holdFrames(true);
            resolve({ fps: (frames * 1000) / (t - start), worstMs: worst, renderMs: (e.stats.busyMs - busy0) / Math.max(1, e.stats.frames - frames0) });
            return;
          }
          const cam = e.camera;
          if (mode === 'pan') {
            e.setCamera({ ...cam, x: cam.x - 8, y: cam.y - 5 }, true);
          } else {
            const f = Math.floor((t - start) / 750) % 2 === 0 ? 1.02 : 1 / 1.02;
            const scale = cam.scale * f;
            e.setCamera({ scale, x: 640 - ((640 - cam.x) / cam.scale) * scale, y: 400 - ((400 - cam.y) / cam.scale) * scale }, true);
          }
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    [kind, duration, hold] as const,
  );
}

export interface GestureFigures {
  fps: number;
  worstMs: number;
  /** Mean milliseconds the renderer spent per frame it drew (JS only: tiles, compose, layers). */
  renderMs: number;
}

/** Frames per second and the worst frame of a 3 s gesture. */
export function frameLoop(page: Page, kind: GestureKind): Promise<GestureFigures> {
  return gesture(page, kind, 3000, false);
}

async function stageShot(page: Page): Promise<PNG> {
  const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
  const buf = await page.screenshot({ clip: { x: box.x, y: box.y, width: Math.floor(box.width), height: Math.floor(box.height) } });
  return PNG.sync.read(buf);
}

/** Share of BLOCK×BLOCK blocks whose mean colour differs by more than TOLERANCE in a channel. */
export function differingFraction(a: PNG, b: PNG): number {
  const w = Math.min(a.width, b.width);
  const h = Math.min(a.height, b.height);
  let blocks = 0;
  let differ = 0;
  for (let by = 0; by + BLOCK <= h; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= w; bx += BLOCK) {
      const sa = [0, 0, 0];
      const sb = [0, 0, 0];
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx; x < bx + BLOCK; x++) {
          const ia = (y * a.width + x) * 4;
          const ib = (y * b.width + x) * 4;
          for (let c = 0; c < 3; c++) {
            sa[c] += a.data[ia + c];
            sb[c] += b.data[ib + c];
          }
        }
      }
      blocks++;
      const n = BLOCK * BLOCK;
      if (sa.some((v, c) => Math.abs(v - sb[c]) / n > TOLERANCE)) differ++;
    }
  }
  return blocks === 0 ? 0 : differ / blocks;
}

/**
 * The blank/stale fraction of one gesture of `ms` (default 1.5 s). Set WB_BENCH_SHOTS=<dir> to
 * keep both pictures.
 */
export async function blankFraction(page: Page, kind: GestureKind, ms = 1500): Promise<number> {
  await gesture(page, kind, ms, true);
  const moving = await stageShot(page);
  await page.evaluate(() => {
    const e = window.__wbCanvas!;
    e.holdFrames(false);
    e.setCamera({ ...e.camera });
  });
  // At rest: every visible tile rendered for this camera, then one more frame on screen.
  await page.waitForFunction(() => window.__wbCanvas!.stats.complete, undefined, { timeout: 60_000, polling: 'raf' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const rest = await stageShot(page);
  const dir = process.env.WB_BENCH_SHOTS;
  if (dir) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const tag = `${kind}-${Date.now()}`;
    writeFileSync(`${dir}/${tag}-moving.png`, PNG.sync.write(moving));
    writeFileSync(`${dir}/${tag}-rest.png`, PNG.sync.write(rest));
  }
  return differingFraction(moving, rest);
}
