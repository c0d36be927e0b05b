/** Pure geometry over plain objects: bounds, area selection, canvas limits, zoom. */
import { IMAGE_MAX_FIT_HEIGHT, IMAGE_MAX_FIT_WIDTH, MAX_ZOOM, MIN_ZOOM } from './constants.ts';
import type { CanvasLimits, CanvasObject } from './objects.ts';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Text has no measured width in the document, so server-side code (export, templates)
 * estimates it from the font size: an average glyph is about 0.6 em wide.
 */
export const CHAR_WIDTH_RATIO = 0.6;
export const LINE_HEIGHT = 1.2;

export function estimateTextSize(text: string, fontSize: number): { width: number; height: number } {
  const lines = text.split('\n');
  const longest = Math.max(...lines.map((l) => [...l].length));
  return { width: longest * fontSize * CHAR_WIDTH_RATIO, height: lines.length * fontSize * LINE_HEIGHT };
}

function boundsOfPoints(xs: number[], ys: number[], pad: number): Bounds {
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  return { x: minX, y: minY, width: Math.max(...xs) + pad - minX, height: Math.max(...ys) + pad - minY };
}

function boundsOfFlat(points: readonly number[], pad: number): Bounds {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) {
    xs.push(points[i]);
    ys.push(points[i + 1]);
  }
  return boundsOfPoints(xs, ys, pad);
}

/** Axis-aligned box around the drawn object, stroke included (half of it lies outside the outline). */
export function boundsOf(obj: CanvasObject): Bounds {
  switch (obj.type) {
    case 'rectangle': {
      // Konva rotates a rectangle about its top-left corner (x, y), in degrees.
      const s = obj.strokeWidth / 2;
      const rad = (obj.rotation * Math.PI) / 180;
      const cos = Math.cos(rad);
      const sin = Math.sin(rad);
      const corners: Array<[number, number]> = [
        [-s, -s],
        [obj.width + s, -s],
        [obj.width + s, obj.height + s],
        [-s, obj.height + s],
      ];
      return boundsOfPoints(
        corners.map(([cx, cy]) => obj.x + cx * cos - cy * sin),
        corners.map(([cx, cy]) => obj.y + cx * sin + cy * cos),
        0,
      );
    }
    case 'ellipse': {
      const rx = obj.radiusX + obj.strokeWidth / 2;
      const ry = obj.radiusY + obj.strokeWidth / 2;
      return { x: obj.x - rx, y: obj.y - ry, width: rx * 2, height: ry * 2 };
    }
    case 'line':
    case 'path':
    case 'highlighter':
      return boundsOfFlat(obj.points, obj.strokeWidth / 2);
    case 'text':
      return { x: obj.x, y: obj.y, ...estimateTextSize(obj.text, obj.fontSize) };
    case 'sticky':
    case 'image':
      return { x: obj.x, y: obj.y, width: obj.width, height: obj.height };
  }
}

export function unionBounds(list: Iterable<Bounds>): Bounds | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const b of list) {
    minX = Math.min(minX, b.x);
    minY = Math.min(minY, b.y);
    maxX = Math.max(maxX, b.x + b.width);
    maxY = Math.max(maxY, b.y + b.height);
  }
  return minX === Infinity ? null : { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** A rubber band dragged up or left has a negative width or height. */
export function normalizeRect(r: Bounds): Bounds {
  return {
    x: Math.min(r.x, r.x + r.width),
    y: Math.min(r.y, r.y + r.height),
    width: Math.abs(r.width),
    height: Math.abs(r.height),
  };
}

export function containsBounds(outer: Bounds, inner: Bounds): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** Touching edges count, so zero-width boxes (a vertical hairline) can still be hit. */
export function boundsIntersect(a: Bounds, b: Bounds): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

/** Rubber-band selection: objects lying wholly inside the area. */
export function objectsInArea<T extends CanvasObject>(objects: Iterable<T>, area: Bounds): T[] {
  const rect = normalizeRect(area);
  return [...objects].filter((o) => containsBounds(rect, boundsOf(o)));
}

export function objectsIntersecting<T extends CanvasObject>(objects: Iterable<T>, area: Bounds): T[] {
  const rect = normalizeRect(area);
  return [...objects].filter((o) => boundsIntersect(rect, boundsOf(o)));
}

/** The canvas is centred on the origin, so a bounded one spans ± half of each dimension. */
export function isInsideCanvas(
  bounds: Bounds,
  limits: Pick<CanvasLimits, 'max_width' | 'max_height' | 'unlimited'>,
): boolean {
  if (limits.unlimited) return true;
  const halfW = limits.max_width / 2;
  const halfH = limits.max_height / 2;
  return containsBounds(
    { x: -halfW, y: -halfH, width: limits.max_width, height: limits.max_height },
    normalizeRect(bounds),
  );
}

/** A non-finite scale (a bad stored camera) falls back to 1, the spec's default view. */
export function clampZoom(scale: number): number {
  if (!Number.isFinite(scale)) return 1;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
}

/** Inserted images keep their aspect ratio and fit in 400×300; small ones are not enlarged. */
export function fitImageSize(width: number, height: number): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: IMAGE_MAX_FIT_WIDTH, height: IMAGE_MAX_FIT_HEIGHT };
  const k = Math.min(1, IMAGE_MAX_FIT_WIDTH / width, IMAGE_MAX_FIT_HEIGHT / height);
  return { width: width * k, height: height * k };
}
