/**
 * What each drawing tool makes (§4 "Object creation", §9 sizes): pure builders from the points the
 * pointer went through to a document object. The canvas shows the same object as a temporary
 * while the pointer is held and adds it to the document on release.
 */
import {
  CONNECTED_STICKY_GAP,
  DEFAULT_FONT_FAMILY,
  DEFAULT_TEXT,
  HIGHLIGHTER_OPACITY,
  OBJECT_MIN_SIZE,
  STICKY_DEFAULTS,
  highlighterWidth,
} from '../constants.ts';
import { fitImageSize, normalizeRect } from '../geometry.ts';
import type {
  CanvasObject,
  EllipseObject,
  HighlighterObject,
  ImageObject,
  LineObject,
  PathObject,
  RectangleObject,
  StickyObject,
  TextObject,
} from '../objects.ts';
import type { Point } from '../templates.ts';

export type ShapeTool = 'rectangle' | 'ellipse' | 'line';
export type StrokeTool = 'pen' | 'highlighter';

export interface ToolStyle {
  /** Stroke colour of shapes and strokes, fill colour of text. */
  color: string;
  /** Fill of rectangles and ellipses; 'transparent' draws outlines only. */
  fill: string;
  /** One of BRUSH_SIZES. */
  brush: number;
  /** One of FONT_SIZES. */
  fontSize: number;
  stickyColor: string;
}

interface Base {
  id: string;
  zIndex: number;
}

/** Below this the press was a click, not a drag: nothing is drawn (the pointer only selected or wobbled). */
export const MIN_DRAG = OBJECT_MIN_SIZE;

/** Rectangle, ellipse or line from the press point to the current point; null while still a click. */
export function shapeFromDrag(
  tool: ShapeTool,
  start: Point,
  end: Point,
  style: ToolStyle,
  base: Base,
): RectangleObject | EllipseObject | LineObject | null {
  const box = normalizeRect({ x: start.x, y: start.y, width: end.x - start.x, height: end.y - start.y });
  if (tool === 'line') {
    if (Math.hypot(end.x - start.x, end.y - start.y) < MIN_DRAG) return null;
    return {
      ...base,
      type: 'line',
      points: [start.x, start.y, end.x, end.y],
      stroke: style.color,
      strokeWidth: style.brush,
    };
  }
  if (box.width < MIN_DRAG && box.height < MIN_DRAG) return null;
  const width = Math.max(box.width, OBJECT_MIN_SIZE);
  const height = Math.max(box.height, OBJECT_MIN_SIZE);
  if (tool === 'rectangle') {
    return {
      ...base,
      type: 'rectangle',
      x: box.x,
      y: box.y,
      width,
      height,
      fill: style.fill,
      stroke: style.color,
      strokeWidth: style.brush,
      rotation: 0,
    };
  }
  return {
    ...base,
    type: 'ellipse',
    x: box.x + width / 2,
    y: box.y + height / 2,
    radiusX: width / 2,
    radiusY: height / 2,
    fill: style.fill,
    stroke: style.color,
    strokeWidth: style.brush,
  };
}

/** Width and opacity a stroke tool draws with (§9: highlighter max(8, brush×4) at 40 %). */
export function strokeLook(tool: StrokeTool, brush: number): { strokeWidth: number; opacity: number } {
  return tool === 'highlighter'
    ? { strokeWidth: highlighterWidth(brush), opacity: HIGHLIGHTER_OPACITY }
    : { strokeWidth: brush, opacity: 1 };
}

/**
 * Points closer than this to the previous one (in board units at the current zoom) add nothing
 * visible and only grow the document.
 */
export function appendStrokePoint(points: number[], p: Point, minStep: number): boolean {
  const n = points.length;
  if (n >= 2 && Math.hypot(p.x - points[n - 2], p.y - points[n - 1]) < minStep) return false;
  points.push(p.x, p.y);
  return true;
}

/** A pen or highlighter stroke; a single click becomes a dot (the point twice). */
export function strokeObject(
  tool: StrokeTool,
  points: readonly number[],
  style: ToolStyle,
  base: Base,
): PathObject | HighlighterObject | null {
  if (points.length < 2) return null;
  const pts = points.length >= 4 ? [...points] : [points[0], points[1], points[0], points[1]];
  return {
    ...base,
    type: tool === 'pen' ? 'path' : 'highlighter',
    points: pts,
    stroke: style.color,
    strokeWidth: strokeLook(tool, style.brush).strokeWidth,
    tension: 0.5,
  };
}

/** A new sticky at the click point (its top-left), §9 defaults, in the chosen colour. */
export function newSticky(at: Point, style: Pick<ToolStyle, 'stickyColor'>, base: Base): StickyObject {
  return {
    ...base,
    type: 'sticky',
    x: at.x,
    y: at.y,
    ...STICKY_DEFAULTS,
    backgroundColor: style.stickyColor,
    reactions: [],
  };
}

export function newText(at: Point, style: Pick<ToolStyle, 'color' | 'fontSize'>, base: Base): TextObject {
  return {
    ...base,
    type: 'text',
    x: at.x,
    y: at.y,
    text: DEFAULT_TEXT,
    fontSize: style.fontSize,
    fill: style.color,
    fontFamily: DEFAULT_FONT_FAMILY,
  };
}

/** An image fitted into 400×300 (§9), centred on `centre`. */
export function newImage(
  centre: Point,
  src: string,
  natural: { width: number; height: number },
  base: Base,
): ImageObject {
  const { width, height } = fitImageSize(natural.width, natural.height);
  return { ...base, type: 'image', x: centre.x - width / 2, y: centre.y - height / 2, width, height, src, reactions: [] };
}

export type Side = 'top' | 'bottom' | 'left' | 'right';
export const SIDES: readonly Side[] = ['top', 'bottom', 'left', 'right'];

/** §4 "Connected sticker": the same size and colours, 40 px away on the chosen side. */
export function connectedSticky(from: StickyObject, side: Side, base: Base): StickyObject {
  const dx = side === 'left' ? -(from.width + CONNECTED_STICKY_GAP) : side === 'right' ? from.width + CONNECTED_STICKY_GAP : 0;
  const dy = side === 'top' ? -(from.height + CONNECTED_STICKY_GAP) : side === 'bottom' ? from.height + CONNECTED_STICKY_GAP : 0;
  return {
    ...base,
    type: 'sticky',
    x: from.x + dx,
    y: from.y + dy,
    width: from.width,
    height: from.height,
    text: STICKY_DEFAULTS.text,
    backgroundColor: from.backgroundColor,
    textColor: from.textColor,
    fontSize: from.fontSize,
    textAlign: from.textAlign,
    reactions: [],
  };
}

/** Objects whose text the sticky/text editor edits. */
export const isEditable = (obj: CanvasObject): obj is StickyObject | TextObject =>
  obj.type === 'sticky' || obj.type === 'text';
