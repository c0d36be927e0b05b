/**
 * Level of detail of the canvas (never of the export, which draws every primitive as it is): the
 * smaller an object is on screen, the less of it is drawn, so a board zoomed out to show tens of
 * thousands of objects renders in a few frames instead of showing a shrinking picture.
 *
 * Thresholds are in screen pixels of the object's larger side, so the rule depends only on the
 * object and the scale: neighbouring tiles draw the same object the same way.
 */
import type { SceneItem, ScenePrimitive } from './scene.ts';
import { paintPrimitive } from './paint.ts';

/** Below this a sticky is a plain rectangle of its colour: no text, no shadow, no rounded corners. */
export const STICKY_LOD_PX = 40;
/** Below this a smoothed pen stroke is drawn as straight segments through a few of its points. */
export const STROKE_LOD_PX = 64;
/** Below this an image is its placeholder box (decoding and resampling cost more than they show). */
export const IMAGE_LOD_PX = 32;
/** Below this any object is a box of its main colour. */
export const DOT_PX = 2.5;
/** Points kept of a simplified stroke. */
const STROKE_LOD_POINTS = 8;

const simplified = new WeakMap<number[], number[]>();

/** Every k-th point of a flat [x, y, ...] list, first and last kept. */
export function decimate(points: number[], keep: number): number[] {
  const n = points.length / 2;
  if (n <= keep) return points;
  const out: number[] = [];
  const step = (n - 1) / (keep - 1);
  for (let i = 0; i < keep; i++) {
    const k = Math.round(i * step);
    out.push(points[2 * k], points[2 * k + 1]);
  }
  return out;
}

function mainColour(list: readonly ScenePrimitive[]): string | null {
  for (const p of list) {
    if (p.kind === 'image') return p.placeholderFill;
    if (p.kind === 'text' || p.kind === 'pattern') continue;
    const c = p.fill && p.fill !== 'transparent' ? p.fill : p.stroke;
    if (c && c !== 'transparent') return c;
  }
  return null;
}

/** How an item is drawn at a scale: 'full', or the simplified form. */
export function lodOf(item: SceneItem, scale: number): 'full' | 'dot' | 'simple' {
  const px = Math.max(item.bounds.width, item.bounds.height) * scale;
  if (px < DOT_PX) return 'dot';
  if (px >= Math.max(STICKY_LOD_PX, STROKE_LOD_PX)) return 'full';
  const first = item.primitives[0];
  if (!first) return 'full';
  if (first.kind === 'rect' && first.shadow && px < STICKY_LOD_PX) return 'simple';
  if (first.kind === 'polyline' && (first.tension ?? 0) > 0 && px < STROKE_LOD_PX) return 'simple';
  if (first.kind === 'image' && px < IMAGE_LOD_PX) return 'simple';
  return 'full';
}

/** Paints one scene item at `scale` with the canvas's level of detail. */
export function paintItem(ctx: CanvasRenderingContext2D, item: SceneItem, scale: number): void {
  const lod = lodOf(item, scale);
  if (lod === 'full') {
    const opts = { scale, shadows: true };
    for (const p of item.primitives) paintPrimitive(ctx, p, opts);
    return;
  }
  if (lod === 'dot') {
    const colour = mainColour(item.primitives);
    if (!colour) return;
    const b = item.bounds;
    ctx.fillStyle = colour;
    ctx.fillRect(b.x, b.y, b.width, b.height);
    return;
  }
  const first = item.primitives[0];
  if (first.kind === 'rect') {
    // A sticky: its paper only (rotation kept, so it covers the same place).
    const { shadow: _shadow, cornerRadius: _corner, stroke: _stroke, ...paper } = first;
    paintPrimitive(ctx, paper, { scale, shadows: false });
  } else if (first.kind === 'polyline') {
    let pts = simplified.get(first.points);
    if (!pts) simplified.set(first.points, (pts = decimate(first.points, STROKE_LOD_POINTS)));
    paintPrimitive(ctx, { ...first, points: pts, tension: 0 }, { scale, shadows: false });
  } else if (first.kind === 'image') {
    ctx.fillStyle = first.placeholderFill;
    ctx.fillRect(first.x, first.y, first.width, first.height);
  }
}
