/**
 * The view onto the board: konva's stage position (screen pixels) and scale. A board point p
 * appears on screen at p × scale + (x, y).
 */
import { PINCH_ZOOM_STEPS, WHEEL_ZOOM_FACTOR } from '../constants.ts';
import { clampZoom, type Bounds } from '../geometry.ts';
import type { Point } from '../templates.ts';

export interface Camera {
  x: number;
  y: number;
  scale: number;
}


export const screenToBoard = (cam: Camera, p: Point): Point => ({
  x: (p.x - cam.x) / cam.scale,
  y: (p.y - cam.y) / cam.scale,
});

export const boardToScreen = (cam: Camera, p: Point): Point => ({
  x: p.x * cam.scale + cam.x,
  y: p.y * cam.scale + cam.y,
});

/** The board area a viewport of width × height pixels shows. */
export function visibleArea(cam: Camera, width: number, height: number): Bounds {
  const topLeft = screenToBoard(cam, { x: 0, y: 0 });
  return { x: topLeft.x, y: topLeft.y, width: width / cam.scale, height: height / cam.scale };
}

/** Zooms by `factor` keeping the board point under `pointer` (screen) where it is. */
export function zoomAt(cam: Camera, pointer: Point, factor: number): Camera {
  const scale = clampZoom(cam.scale * factor);
  const anchor = screenToBoard(cam, pointer);
  return { scale, x: pointer.x - anchor.x * scale, y: pointer.y - anchor.y * scale };
}

/** A mouse wheel notch: 1.1 in (wheel up) or out. */
export const wheelFactor = (deltaY: number): number => (deltaY < 0 ? WHEEL_ZOOM_FACTOR : 1 / WHEEL_ZOOM_FACTOR);

/**
 * Trackpad pinches arrive as ctrl+wheel with small deltas; the step grows with the gesture's
 * speed (§9: 1.02 / 1.05 / 1.08). The thresholds are ours.
 */
export function pinchFactor(deltaY: number): number {
  const speed = Math.abs(deltaY);
  const step = speed < 4 ? PINCH_ZOOM_STEPS[0] : speed < 12 ? PINCH_ZOOM_STEPS[1] : PINCH_ZOOM_STEPS[2];
  return deltaY < 0 ? step : 1 / step;
}

/** Two-finger touch: the zoom step from the change of the fingers' distance, same steps as a pinch. */
export function touchPinchFactor(previousDistance: number, distance: number): number {
  if (previousDistance <= 0 || distance === previousDistance) return 1;
  const ratio = distance / previousDistance;
  const change = Math.abs(ratio - 1);
  const step = change < 0.02 ? PINCH_ZOOM_STEPS[0] : change < 0.05 ? PINCH_ZOOM_STEPS[1] : PINCH_ZOOM_STEPS[2];
  return ratio > 1 ? step : 1 / step;
}

export const panBy = (cam: Camera, dx: number, dy: number): Camera => ({ ...cam, x: cam.x + dx, y: cam.y + dy });

/** A camera that puts the board origin in the middle of a width × height viewport at scale 1. */
export const centredCamera = (width: number, height: number): Camera => ({ x: width / 2, y: height / 2, scale: 1 });
