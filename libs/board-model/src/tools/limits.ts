/** The bounded canvas (§5 Geometry): nothing is created or drawn outside ± half of the limits. */
import type { Bounds } from '../geometry.ts';
import type { CanvasLimits } from '../objects.ts';
import type { Point } from '../templates.ts';

export type Limits = Pick<CanvasLimits, 'max_width' | 'max_height' | 'unlimited'>;

export function canvasArea(limits: Limits): Bounds | null {
  if (limits.unlimited) return null;
  return { x: -limits.max_width / 2, y: -limits.max_height / 2, width: limits.max_width, height: limits.max_height };
}

export function isPointInsideCanvas(p: Point, limits: Limits): boolean {
  const area = canvasArea(limits);
  if (!area) return true;
  return p.x >= area.x && p.x <= area.x + area.width && p.y >= area.y && p.y <= area.y + area.height;
}

/** A stroke that leaves the canvas stops at its edge instead of going on outside. */
export function clampPointToCanvas(p: Point, limits: Limits): Point {
  const area = canvasArea(limits);
  if (!area) return p;
  return {
    x: Math.min(area.x + area.width, Math.max(area.x, p.x)),
    y: Math.min(area.y + area.height, Math.max(area.y, p.y)),
  };
}

/**
 * How far a selection with these bounds may move by (dx, dy) and stay inside the canvas. A
 * selection already sticking out (older boards, smaller limits now) moves freely rather than snapping.
 */
export function clampMove(bounds: Bounds, dx: number, dy: number, limits: Limits): Point {
  const area = canvasArea(limits);
  if (!area) return { x: dx, y: dy };
  const clampAxis = (start: number, size: number, min: number, max: number, d: number): number => {
    if (start < min || start + size > max) return d;
    return Math.min(max - (start + size), Math.max(min - start, d));
  };
  return {
    x: clampAxis(bounds.x, bounds.width, area.x, area.x + area.width, dx),
    y: clampAxis(bounds.y, bounds.height, area.y, area.y + area.height, dy),
  };
}
