/**
 * Align and distribute a multi-selection (issue 35 item 5; the spec is silent). Pure: the canvas
 * hands in each object's arrange box and applies the moves as one command.
 *
 * The arrange box is the object's geometry as the user sees its outline (Figma and tldraw align
 * geometry, not ink): a rectangle's own box without its stroke, an ellipse's radii, a sticky or
 * image without the reaction chips under it; text and strokes use the drawn bounds (text has no
 * stored width, a stroke is its ink).
 */
import { boundsOf, unionBounds, type Bounds } from '../geometry.ts';
import type { CanvasObject } from '../objects.ts';
import type { Point } from '../templates.ts';
import { clampMove, type Limits } from './limits.ts';

export const ALIGN_MODES = ['left', 'centre', 'right', 'top', 'middle', 'bottom'] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];
export type Axis = 'horizontal' | 'vertical';

/** Align needs two objects to line up; distribute needs three (two keep their places). */
export const ALIGN_MIN = 2;
export const DISTRIBUTE_MIN = 3;

export interface ArrangeItem {
  id: string;
  box: Bounds;
}

/** `drawn`: the object's scene bounds (measured text); without it the estimate of boundsOf. */
export function arrangeBoxOf(obj: CanvasObject, drawn?: Bounds): Bounds {
  switch (obj.type) {
    case 'rectangle':
      return obj.rotation === 0 ? { x: obj.x, y: obj.y, width: obj.width, height: obj.height } : (drawn ?? boundsOf(obj));
    case 'ellipse':
      return { x: obj.x - obj.radiusX, y: obj.y - obj.radiusY, width: obj.radiusX * 2, height: obj.radiusY * 2 };
    case 'sticky':
    case 'image':
      return { x: obj.x, y: obj.y, width: obj.width, height: obj.height };
    default:
      return drawn ?? boundsOf(obj);
  }
}

/**
 * Locked objects (issue 35 item 5: a `locked` flag) neither move nor count: the rest is arranged
 * among itself. Read loosely so the rule holds whether or not the document has the field yet.
 */
export const arrangeable = (obj: CanvasObject): boolean => (obj as { locked?: unknown }).locked !== true;

/** How far each item moves (only items that move are listed). */
export function alignMoves(items: readonly ArrangeItem[], mode: AlignMode): Map<string, Point> {
  const out = new Map<string, Point>();
  if (items.length < ALIGN_MIN) return out;
  const all = unionBounds(items.map((i) => i.box))!;
  for (const { id, box } of items) {
    let dx = 0;
    let dy = 0;
    if (mode === 'left') dx = all.x - box.x;
    else if (mode === 'right') dx = all.x + all.width - (box.x + box.width);
    else if (mode === 'centre') dx = all.x + all.width / 2 - (box.x + box.width / 2);
    else if (mode === 'top') dy = all.y - box.y;
    else if (mode === 'bottom') dy = all.y + all.height - (box.y + box.height);
    else dy = all.y + all.height / 2 - (box.y + box.height / 2);
    if (dx !== 0 || dy !== 0) out.set(id, { x: dx, y: dy });
  }
  return out;
}

/**
 * Equal gaps between neighbours along the axis: the items ordered by their centres, the first and
 * the last stay, the others are laid out between them (gaps may be negative when the items are
 * wider together than the span: they then overlap by equal amounts, as in Figma).
 */
export function distributeMoves(items: readonly ArrangeItem[], axis: Axis): Map<string, Point> {
  const out = new Map<string, Point>();
  if (items.length < DISTRIBUTE_MIN) return out;
  const h = axis === 'horizontal';
  const lo = (b: Bounds) => (h ? b.x : b.y);
  const size = (b: Bounds) => (h ? b.width : b.height);
  const sorted = [...items].sort((a, b) => lo(a.box) + size(a.box) / 2 - (lo(b.box) + size(b.box) / 2) || (a.id < b.id ? -1 : 1));
  const first = sorted[0].box;
  const last = sorted[sorted.length - 1].box;
  const span = lo(last) + size(last) - lo(first);
  const total = sorted.reduce((s, i) => s + size(i.box), 0);
  const gap = (span - total) / (sorted.length - 1);
  let at = lo(first);
  for (const { id, box } of sorted) {
    const d = at - lo(box);
    // Sums of floats: a sub-micron difference is the same place, not a move.
    if (Math.abs(d) > 1e-9) out.set(id, h ? { x: d, y: 0 } : { x: 0, y: d });
    at += size(box) + gap;
  }
  return out;
}

/** A move kept inside a bounded canvas (an object already outside it moves freely, as a drag does). */
export function clampArrangeMove(obj: CanvasObject, d: Point, limits: Limits): Point {
  return clampMove(boundsOf(obj), d.x, d.y, limits);
}
