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

// ---------------------------------------------------------------- remembered views and fitting (issue 35 items 5, 6)

/**
 * A view in board coordinates: the board point at the centre of the viewport and the zoom. It is
 * what we remember (unlike a Camera, it means the same on a phone and a wide screen).
 */
export interface CameraView {
  x: number;
  y: number;
  zoom: number;
}

/** The device classes a camera is remembered for: a phone and a desktop each keep their own view. */
export const CAMERA_DEVICES = ['phone', 'tablet', 'desktop'] as const;
export type CameraDevice = (typeof CAMERA_DEVICES)[number];

export function cameraToView(cam: Camera, width: number, height: number): CameraView {
  const c = screenToBoard(cam, { x: width / 2, y: height / 2 });
  return { x: c.x, y: c.y, zoom: cam.scale };
}

/** The camera showing `view` in a width × height viewport (the zoom kept within the limits). */
export function viewToCamera(view: CameraView, width: number, height: number): Camera {
  const scale = clampZoom(view.zoom);
  return { scale, x: width / 2 - view.x * scale, y: height / 2 - view.y * scale };
}

/**
 * A stored camera (position_x/y, scale_x) as a view. With a `device` it was saved as a view (centre
 * in board coordinates); without one it is the old format, the stage offset in screen pixels of
 * whatever window saved it, read as if that window had today's size.
 */
export function storedView(
  stored: { position_x: number; position_y: number; scale_x: number; device?: string },
  width: number,
  height: number,
): CameraView {
  if (stored.device) return { x: stored.position_x, y: stored.position_y, zoom: clampZoom(stored.scale_x) };
  return cameraToView({ x: stored.position_x, y: stored.position_y, scale: clampZoom(stored.scale_x) }, width, height);
}

/** The screen margin left around fitted content, in pixels (ours; a small viewport gets a smaller one). */
export const FIT_PADDING = 48;

/**
 * The camera showing `bounds` whole and centred, as large as it fits but not above `maxZoom`
 * (fitting one small sticky should not blow it up to 5×) and within the zoom limits. No bounds (an
 * empty board): the origin centred at scale 1, the spec's default view.
 */
export function fitCamera(
  bounds: Bounds | null,
  width: number,
  height: number,
  opts: { padding?: number; maxZoom?: number } = {},
): Camera {
  if (!bounds) return centredCamera(width, height);
  const padding = Math.min(opts.padding ?? FIT_PADDING, width / 8, height / 8);
  const fitW = (width - 2 * padding) / Math.max(bounds.width, 1);
  const fitH = (height - 2 * padding) / Math.max(bounds.height, 1);
  const zoom = clampZoom(Math.min(fitW, fitH, opts.maxZoom ?? 1));
  return viewToCamera({ x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2, zoom }, width, height);
}

/** Whether `bounds` lies wholly inside what the camera shows. */
export function isInView(cam: Camera, width: number, height: number, bounds: Bounds): boolean {
  const a = visibleArea(cam, width, height);
  return bounds.x >= a.x && bounds.y >= a.y && bounds.x + bounds.width <= a.x + a.width && bounds.y + bounds.height <= a.y + a.height;
}

/**
 * After placing something (a template): the camera unchanged when it already shows it, otherwise
 * centred on it and zoomed out just enough to show it (never zoomed in).
 */
export function revealCamera(cam: Camera, width: number, height: number, bounds: Bounds): Camera {
  if (isInView(cam, width, height, bounds)) return cam;
  return fitCamera(bounds, width, height, { maxZoom: cam.scale });
}
