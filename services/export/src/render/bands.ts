/**
 * A large PNG is drawn in horizontal bands, one per render thread, at the same time: each thread
 * builds the whole scene (the object limit and the arrows need all of it), draws only the items
 * meeting its band, and deflates its rows (png.ts); the main thread joins the bands.
 *
 * Where the bands split is computed from the scene alone, so every thread finds the same rows: the
 * rows are shared so that each band has about the same drawing work (background pixels plus items),
 * not the same height, since a board's objects are rarely spread evenly.
 */
import type { Area, Scene, SceneItem } from '@wb/board-model';
import { assemblePng, type PngBand } from './png.ts';
import type { BandResult, BandTask, Phases, RenderResult, RenderTask } from './task.ts';

/**
 * Items this close to a band (board units) are drawn in it too: a sticky's shadow reaches past its
 * bounds (blur 3σ + offset ≈ 11), and antialiasing a pixel.
 */
export const BAND_MARGIN = 16;
/** Smaller exports are drawn whole: two threads' fixed costs (scene, parse) would outweigh the split. */
export const BAND_MIN_PIXELS = 1_000_000;
const BAND_MIN_ROWS = 64;

/**
 * Drawing cost of one item against one pixel of background, from the bench board's profile: its
 * 4,000×4,000 background took 0.21 s of resvg's 1.1 s, its 2,000 items the rest (≈0.45 ms each).
 */
const ITEM_COST_IN_PIXELS = 35_000;

/** How many bands to draw `area` in, given `threads` render threads. */
export function bandCount(area: Area, threads: number): number {
  if (threads < 2 || area.width * area.height < BAND_MIN_PIXELS) return 1;
  return Math.max(1, Math.min(threads, Math.floor(area.height / BAND_MIN_ROWS)));
}

/** Row ranges [start, end) of the scene's area for `count` bands, top first. */
export function bandRows(scene: Scene, count: number): Array<[number, number]> {
  const { y, width, height } = scene.area;
  if (count <= 1) return [[0, height]];
  // Cost per row: its background pixels, plus each item's cost spread over the rows it covers.
  const density = new Float64Array(height + 1);
  for (const item of scene.items) {
    const top = Math.max(0, Math.floor(item.bounds.y - y));
    const bottom = Math.min(height, Math.ceil(item.bounds.y + item.bounds.height - y));
    if (bottom <= top) continue;
    const share = ITEM_COST_IN_PIXELS / (bottom - top);
    density[top]! += share;
    density[bottom]! -= share;
  }
  let running = 0;
  let total = 0;
  const cost = new Float64Array(height);
  for (let r = 0; r < height; r++) {
    running += density[r]!;
    cost[r] = width + running;
    total += cost[r]!;
  }
  // Each split where the running cost reaches its share, kept min rows away from its neighbours.
  const min = Math.max(1, Math.min(BAND_MIN_ROWS, Math.floor(height / count)));
  const splits = [0];
  let sum = 0;
  let r = 0;
  for (let k = 1; k < count; k++) {
    while (r < height && sum + cost[r]! < (total * k) / count) sum += cost[r++]!;
    const split = Math.min(Math.max(r, splits[k - 1]! + min), height - (count - k) * min);
    splits.push(split);
  }
  splits.push(height);
  return splits.slice(1).map((end, k) => [splits[k]!, end] as [number, number]);
}

/** The part of the scene drawn in band `rows`: its area, and the items meeting it (with the margin). */
export function bandScene(scene: Scene, [start, end]: [number, number]): Scene {
  const area = { ...scene.area, y: scene.area.y + start, height: end - start };
  const top = area.y - BAND_MARGIN;
  const bottom = area.y + area.height + BAND_MARGIN;
  const meets = (item: SceneItem) => item.bounds.y <= bottom && item.bounds.y + item.bounds.height >= top;
  return { ...scene, area, items: scene.items.filter(meets) };
}

/**
 * A PNG task run as `count` band tasks at once through `runBand` (the pool), joined into one file:
 * the result is the whole export's, as `runWhole` would answer it for one band.
 */
export async function renderBanded(
  runWhole: (task: RenderTask) => Promise<RenderResult>,
  runBand: (task: BandTask) => Promise<BandResult>,
  task: RenderTask & { format: 'png' },
  count: number,
): Promise<RenderResult> {
  if (count <= 1) return runWhole(task);
  const results = await Promise.all(Array.from({ length: count }, (_, index) => runBand({ ...task, band: { index, count } })));
  const bands: PngBand[] = [];
  const phases: Phases = {};
  for (const r of results) {
    if (!r.ok) return r;
    bands.push(r.band);
    // The slowest band's time for each step: the bands run side by side.
    for (const [k, ms] of Object.entries(r.phases)) phases[k] = Math.max(phases[k] ?? 0, ms);
  }
  return { ok: true, bytes: assemblePng(task.area.width, task.area.height, bands), items: results[0]!.items, phases };
}
