/** Which object is under the pointer: exact shapes, not only bounds, so a click between two strokes hits neither. */
import { boundsOf } from '../geometry.ts';
import type { CanvasObject } from '../objects.ts';
import type { Point } from '../templates.ts';

export function distanceToSegment(p: Point, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len2));
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

export function distanceToPolyline(p: Point, points: readonly number[]): number {
  let best = Infinity;
  for (let i = 0; i + 3 < points.length; i += 2) {
    best = Math.min(best, distanceToSegment(p, points[i], points[i + 1], points[i + 2], points[i + 3]));
  }
  return best;
}

/** `tolerance` is in board units (a few screen pixels divided by the zoom). */
export function hitsObject(obj: CanvasObject, p: Point, tolerance: number): boolean {
  switch (obj.type) {
    case 'line':
    case 'path':
    case 'highlighter':
      return distanceToPolyline(p, obj.points) <= obj.strokeWidth / 2 + tolerance;
    case 'ellipse': {
      const rx = obj.radiusX + obj.strokeWidth / 2 + tolerance;
      const ry = obj.radiusY + obj.strokeWidth / 2 + tolerance;
      if (rx <= 0 || ry <= 0) return false;
      return ((p.x - obj.x) / rx) ** 2 + ((p.y - obj.y) / ry) ** 2 <= 1;
    }
    case 'rectangle': {
      // Into the rectangle's own frame: rotate the point back around (x, y).
      const rad = (-obj.rotation * Math.PI) / 180;
      const dx = p.x - obj.x;
      const dy = p.y - obj.y;
      const lx = dx * Math.cos(rad) - dy * Math.sin(rad);
      const ly = dx * Math.sin(rad) + dy * Math.cos(rad);
      const pad = obj.strokeWidth / 2 + tolerance;
      return lx >= -pad && ly >= -pad && lx <= obj.width + pad && ly <= obj.height + pad;
    }
    default: {
      const b = boundsOf(obj);
      return (
        p.x >= b.x - tolerance &&
        p.y >= b.y - tolerance &&
        p.x <= b.x + b.width + tolerance &&
        p.y <= b.y + b.height + tolerance
      );
    }
  }
}

/** The topmost hit among candidates (highest zIndex, later id on ties, as drawn). */
export function topmostHit<T extends CanvasObject>(candidates: Iterable<T>, p: Point, tolerance: number): T | null {
  let best: T | null = null;
  for (const obj of candidates) {
    if (!hitsObject(obj, p, tolerance)) continue;
    if (!best || obj.zIndex > best.zIndex || (obj.zIndex === best.zIndex && obj.id > best.id)) best = obj;
  }
  return best;
}
