/**
 * Arrows between objects (§4 "Arrow creation", §9): where an arrow is drawn between its two ends,
 * and when a requested arrow is refused.
 */
import { ARROW_HEAD_SIZE, DASH_PATTERNS } from '../constants.ts';
import { boundsOf, type Bounds } from '../geometry.ts';
import { ARROW_END_TYPES, type Arrow, type CanvasObject } from '../objects.ts';

export type ArrowRefusal = 'missing' | 'same' | 'not-connectable';

/** Why an arrow from `from` to `to` cannot exist, or null when it can (§9 cancel rules). */
export function arrowRefusal(from: CanvasObject | undefined | null, to: CanvasObject | undefined | null): ArrowRefusal | null {
  if (!from || !to) return 'missing';
  if (from.id === to.id) return 'same';
  if (!ARROW_END_TYPES.includes(from.type) || !ARROW_END_TYPES.includes(to.type)) return 'not-connectable';
  return null;
}

export const canStartArrow = (obj: CanvasObject): boolean => ARROW_END_TYPES.includes(obj.type);

const centre = (b: Bounds) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** Where the ray from the box centre towards (dx, dy) leaves the box. */
function exitPoint(b: Bounds, dx: number, dy: number): { x: number; y: number } {
  const c = centre(b);
  if (dx === 0 && dy === 0) return c;
  const tx = dx === 0 ? Infinity : b.width / 2 / Math.abs(dx);
  const ty = dy === 0 ? Infinity : b.height / 2 / Math.abs(dy);
  const t = Math.min(tx, ty);
  return { x: c.x + dx * t, y: c.y + dy * t };
}

/**
 * The arrow's points: from the edge of one end's box to the edge of the other's, on the line
 * joining their centres, so the head touches the target wherever the ends move.
 */
export function arrowPoints(from: Bounds, to: Bounds): [number, number, number, number] {
  const a = centre(from);
  const b = centre(to);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const start = exitPoint(from, dx, dy);
  const end = exitPoint(to, -dx, -dy);
  // Overlapping ends: the edge points would cross over, so the arrow joins the centres.
  if ((end.x - start.x) * dx + (end.y - start.y) * dy <= 0) return [a.x, a.y, b.x, b.y];
  return [start.x, start.y, end.x, end.y];
}

export const arrowPointsBetween = (from: CanvasObject, to: CanvasObject) => arrowPoints(boundsOf(from), boundsOf(to));

/** Everything konva needs for the arrow shaft and head (head 15, dash by style). */
export function arrowLook(arrow: Arrow): { dash: number[]; pointerLength: number; pointerWidth: number } {
  return { dash: [...DASH_PATTERNS[arrow.style]], pointerLength: ARROW_HEAD_SIZE, pointerWidth: ARROW_HEAD_SIZE };
}
