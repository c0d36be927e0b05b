/**
 * Moving and resizing objects (§5 Geometry). The canvas draws every object inside a node placed at
 * the object's anchor; after a drag or a transformer gesture the node's position, scale and
 * rotation are turned back into document fields here.
 */
import { OBJECT_MIN_SIZE, OBJECT_MIN_SIZE_IN_GROUP, TEXT_FONT_MIN } from '../constants.ts';
import type { CanvasObject } from '../objects.ts';
import type { ObjectPatch } from '../ydoc.ts';
import type { Point } from '../templates.ts';

/** Where an object's node sits: the top-left for boxes and text, the centre for ellipses, the origin for point lists. */
export function anchorOf(obj: CanvasObject): Point {
  switch (obj.type) {
    case 'line':
    case 'path':
    case 'highlighter':
      return { x: 0, y: 0 };
    default:
      return { x: obj.x, y: obj.y };
  }
}

/** Only rectangles rotate (§4: rotation for rectangles); the node carries the rotation. */
export const nodeRotationOf = (obj: CanvasObject): number => (obj.type === 'rectangle' ? obj.rotation : 0);

export interface NodeTransform {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  rotation: number;
}

const movePoints = (points: readonly number[], t: NodeTransform): number[] =>
  points.map((v, i) => (i % 2 === 0 ? v * t.scaleX + t.x : v * t.scaleY + t.y));

/**
 * The fields that change when an object's node ends at `t` (the node started at the object's
 * anchor with scale 1). Sizes never fall below the minimum (5 px, 10 px in a group); text scales
 * its font and never below 8.
 */
export function transformPatch(obj: CanvasObject, t: NodeTransform, inGroup = false): ObjectPatch {
  const patch = rawTransformPatch(obj, t, inGroup);
  // Scales like 1.4999999 would otherwise leave 99.99999999999996 in the document.
  for (const [key, value] of Object.entries(patch)) {
    if (typeof value === 'number') (patch as Record<string, unknown>)[key] = round2(value);
    else if (Array.isArray(value)) (patch as Record<string, unknown>)[key] = value.map(round2);
  }
  return patch;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

function rawTransformPatch(obj: CanvasObject, t: NodeTransform, inGroup: boolean): ObjectPatch {
  const min = inGroup ? OBJECT_MIN_SIZE_IN_GROUP : OBJECT_MIN_SIZE;
  const sx = Math.abs(t.scaleX);
  const sy = Math.abs(t.scaleY);
  switch (obj.type) {
    case 'rectangle':
      return {
        x: t.x,
        y: t.y,
        width: Math.max(min, obj.width * sx),
        height: Math.max(min, obj.height * sy),
        rotation: normaliseDegrees(t.rotation),
      };
    case 'sticky':
    case 'image':
      return { x: t.x, y: t.y, width: Math.max(min, obj.width * sx), height: Math.max(min, obj.height * sy) };
    case 'ellipse':
      return {
        x: t.x,
        y: t.y,
        radiusX: Math.max(min / 2, obj.radiusX * sx),
        radiusY: Math.max(min / 2, obj.radiusY * sy),
      };
    case 'text': {
      // Text has no box of its own: the vertical stretch decides the font, as in most editors.
      const scale = sx === 1 ? sy : sy === 1 ? sx : Math.max(sx, sy);
      return { x: t.x, y: t.y, fontSize: Math.max(TEXT_FONT_MIN, Math.round(obj.fontSize * scale * 10) / 10) };
    }
    case 'line':
    case 'path':
    case 'highlighter':
      return { points: movePoints(obj.points, t) };
  }
}

export function translatePatch(obj: CanvasObject, dx: number, dy: number): ObjectPatch {
  const a = anchorOf(obj);
  return transformPatch(obj, { x: a.x + dx, y: a.y + dy, scaleX: 1, scaleY: 1, rotation: nodeRotationOf(obj) });
}

/** The object with a patch applied, for drawing the result before the document has it. */
export const applyPatch = <T extends CanvasObject>(obj: T, patch: ObjectPatch): T => ({ ...obj, ...patch }) as T;

export function normaliseDegrees(deg: number): number {
  const d = deg % 360;
  return Math.round((d < 0 ? d + 360 : d) * 100) / 100;
}

/** Konva's transformer asks before each step; a box below the minimum keeps the previous one. */
export function acceptsBox(box: { width: number; height: number }, inGroup: boolean): boolean {
  const min = inGroup ? OBJECT_MIN_SIZE_IN_GROUP : OBJECT_MIN_SIZE;
  return Math.abs(box.width) >= min && Math.abs(box.height) >= min;
}
