/**
 * The drawing rules of board-page.md §3 and §9 as data: board objects, arrows and the background in,
 * scene primitives out (types.ts). Pure: no DOM, no konva, no I/O, so the SPA and the export service
 * run exactly this code. Input is parsed here, so an object a hostile client wrote is skipped, never
 * thrown.
 */
import * as Y from 'yjs';
import { ARROW_HEAD_SIZE, BACKGROUND_SPACING, DASH_PATTERNS, HIGHLIGHTER_OPACITY } from '../constants.ts';
import { boundsIntersect, unionBounds, type Bounds } from '../geometry.ts';
import {
  ARROW_END_TYPES,
  arrowSchema,
  backgroundSchema,
  canvasObjectSchema,
  type Arrow,
  type Background,
  type CanvasObject,
  type Reaction,
} from '../objects.ts';
import { getArrows, getObjects, parseStoredObject } from '../ydoc.ts';
import { SCENE_FONT_FAMILY, SCENE_LINE_HEIGHT, measureText, wrapText } from './text.ts';
import type { Area, Scene, SceneItem, ScenePrimitive, TextPrimitive } from './types.ts';

/** Drawing constants the spec leaves open (decided here, documented in services/export/README.md). */
export const SCENE_STYLE = {
  stickyPadding: 10,
  stickyShadow: { color: 'rgba(0,0,0,0.2)', blur: 6, offsetX: 2, offsetY: 2 },
  stickyCornerRadius: 4,
  imagePlaceholder: '#E0E0E0',
  reactionChip: {
    height: 22,
    gap: 4,
    paddingX: 6,
    fontSize: 12,
    fill: '#FFFFFF',
    stroke: '#D0D0D0',
    text: '#333333',
  },
  background: '#FFFFFF',
  gridColor: '#E5E7EB',
  dotThinColor: '#D1D5DB',
  dotThickColor: '#9CA3AF',
  linesColor: '#DBEAFE',
} as const;

export interface SceneContext {
  /** Reserved for the canvas: objects being edited in place are drawn without their text. */
  hideTextOf?: ReadonlySet<string>;
}

const lineHeightOf = (fontSize: number): number => fontSize * SCENE_LINE_HEIGHT;

function textBlock(
  lines: string[],
  fontSize: number,
  fill: string,
  box: { x: number; y: number; width?: number },
  align: TextPrimitive['align'],
): TextPrimitive {
  return {
    kind: 'text',
    x: box.x,
    y: box.y,
    width: box.width,
    lines,
    fontSize,
    fontFamily: SCENE_FONT_FAMILY,
    lineHeight: lineHeightOf(fontSize),
    fill,
    align,
  };
}

/** Reactions as the canvas shows them: one chip per emoji with its count, in order of first use, under the object. */
function reactionChips(reactions: readonly Reaction[], x: number, bottom: number): ScenePrimitive[] {
  const counts = new Map<string, number>();
  for (const r of reactions) counts.set(r.emoji, (counts.get(r.emoji) ?? 0) + 1);
  const chip = SCENE_STYLE.reactionChip;
  const out: ScenePrimitive[] = [];
  let cx = x;
  const cy = bottom + chip.gap;
  for (const [emoji, count] of counts) {
    const label = `${emoji} ${count}`;
    const width = measureText(label, chip.fontSize) + chip.paddingX * 2;
    out.push({
      kind: 'rect',
      x: cx,
      y: cy,
      width,
      height: chip.height,
      cornerRadius: chip.height / 2,
      fill: chip.fill,
      stroke: chip.stroke,
      strokeWidth: 1,
    });
    const textTop = cy + (chip.height - lineHeightOf(chip.fontSize)) / 2;
    out.push(textBlock([label], chip.fontSize, chip.text, { x: cx + chip.paddingX, y: textTop }, 'left'));
    cx += width + chip.gap;
  }
  return out;
}

function chipsBounds(primitives: ScenePrimitive[]): Bounds | null {
  return unionBounds(primitives.flatMap((p) => (p.kind === 'rect' ? [p] : [])));
}

function pointsBounds(points: readonly number[], pad: number): Bounds {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    minX = Math.min(minX, points[i]);
    maxX = Math.max(maxX, points[i]);
    minY = Math.min(minY, points[i + 1]);
    maxY = Math.max(maxY, points[i + 1]);
  }
  return { x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad };
}

function rotatedRectBounds(
  x: number,
  y: number,
  w: number,
  h: number,
  rotation: number,
  pad: number,
): Bounds {
  const rad = (rotation * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const corners: Array<[number, number]> = [
    [-pad, -pad],
    [w + pad, -pad],
    [w + pad, h + pad],
    [-pad, h + pad],
  ];
  const xs = corners.map(([cx, cy]) => x + cx * cos - cy * sin);
  const ys = corners.map(([cx, cy]) => y + cx * sin + cy * cos);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  return { x: minX, y: minY, width: Math.max(...xs) - minX, height: Math.max(...ys) - minY };
}

function withChips(main: Bounds, chips: ScenePrimitive[]): Bounds {
  const c = chipsBounds(chips);
  return c ? (unionBounds([main, c]) ?? main) : main;
}

/** Draws one validated object. */
function drawObject(obj: CanvasObject, ctx: SceneContext): SceneItem {
  const item = (bounds: Bounds, primitives: ScenePrimitive[]): SceneItem => ({
    id: obj.id,
    kind: 'object',
    bounds,
    primitives,
  });
  const hideText = ctx.hideTextOf?.has(obj.id) ?? false;
  switch (obj.type) {
    case 'rectangle':
      return item(rotatedRectBounds(obj.x, obj.y, obj.width, obj.height, obj.rotation, obj.strokeWidth / 2), [
        {
          kind: 'rect',
          x: obj.x,
          y: obj.y,
          width: obj.width,
          height: obj.height,
          rotation: obj.rotation || undefined,
          fill: obj.fill,
          stroke: obj.stroke,
          strokeWidth: obj.strokeWidth,
        },
      ]);
    case 'ellipse': {
      const pad = obj.strokeWidth / 2;
      return item(
        {
          x: obj.x - obj.radiusX - pad,
          y: obj.y - obj.radiusY - pad,
          width: 2 * (obj.radiusX + pad),
          height: 2 * (obj.radiusY + pad),
        },
        [
          {
            kind: 'ellipse',
            x: obj.x,
            y: obj.y,
            radiusX: obj.radiusX,
            radiusY: obj.radiusY,
            fill: obj.fill,
            stroke: obj.stroke,
            strokeWidth: obj.strokeWidth,
          },
        ],
      );
    }
    case 'line':
      return item(pointsBounds(obj.points, obj.strokeWidth / 2), [
        {
          kind: 'polyline',
          points: [...obj.points],
          stroke: obj.stroke,
          strokeWidth: obj.strokeWidth,
          lineCap: 'round',
          lineJoin: 'round',
        },
      ]);
    case 'path':
    case 'highlighter':
      return item(pointsBounds(obj.points, obj.strokeWidth / 2), [
        {
          kind: 'polyline',
          points: [...obj.points],
          tension: obj.tension || undefined,
          stroke: obj.stroke,
          strokeWidth: obj.strokeWidth,
          lineCap: 'round',
          lineJoin: 'round',
          opacity: obj.type === 'highlighter' ? HIGHLIGHTER_OPACITY : undefined,
        },
      ]);
    case 'text': {
      const lines = wrapText(obj.text, obj.fontSize);
      const width = Math.max(0, ...lines.map((l) => measureText(l, obj.fontSize)));
      const height = lines.length * lineHeightOf(obj.fontSize);
      return item(
        { x: obj.x, y: obj.y, width, height },
        hideText ? [] : [textBlock(lines, obj.fontSize, obj.fill, { x: obj.x, y: obj.y }, 'left')],
      );
    }
    case 'sticky': {
      const pad = SCENE_STYLE.stickyPadding;
      const innerW = Math.max(0, obj.width - 2 * pad);
      const maxLines = Math.max(0, Math.floor((obj.height - 2 * pad) / lineHeightOf(obj.fontSize)));
      const lines = hideText ? [] : wrapText(obj.text, obj.fontSize, innerW, maxLines);
      const chips = reactionChips(obj.reactions, obj.x, obj.y + obj.height);
      const primitives: ScenePrimitive[] = [
        {
          kind: 'rect',
          x: obj.x,
          y: obj.y,
          width: obj.width,
          height: obj.height,
          fill: obj.backgroundColor,
          cornerRadius: SCENE_STYLE.stickyCornerRadius,
          shadow: { ...SCENE_STYLE.stickyShadow },
        },
      ];
      if (lines.length > 0)
        primitives.push(
          textBlock(
            lines,
            obj.fontSize,
            obj.textColor,
            { x: obj.x + pad, y: obj.y + pad, width: innerW },
            obj.textAlign,
          ),
        );
      primitives.push(...chips);
      return item(withChips({ x: obj.x, y: obj.y, width: obj.width, height: obj.height }, chips), primitives);
    }
    case 'image': {
      const chips = reactionChips(obj.reactions, obj.x, obj.y + obj.height);
      return item(withChips({ x: obj.x, y: obj.y, width: obj.width, height: obj.height }, chips), [
        {
          kind: 'image',
          x: obj.x,
          y: obj.y,
          width: obj.width,
          height: obj.height,
          src: obj.src,
          placeholderFill: SCENE_STYLE.imagePlaceholder,
        },
        ...chips,
      ]);
    }
  }
}

/** The scene item of one stored object, or null when it fails its schema (it is then not drawn). */
export function objectToSceneItem(obj: unknown, ctx: SceneContext = {}): SceneItem | null {
  const parsed = canvasObjectSchema.safeParse(obj);
  return parsed.success ? drawObject(parsed.data, ctx) : null;
}

/**
 * The scene item of an object that is already the parsed value of canvasObjectSchema (objectToJSON's
 * answer): validating it again cost a warm board open as much as the first validation did.
 */
export function validObjectToSceneItem(obj: CanvasObject, ctx: SceneContext = {}): SceneItem {
  return drawObject(obj, ctx);
}

/** What an arrow attaches to: the object itself, without the reaction chips hanging under it. */
function anchorBounds(obj: CanvasObject, item: SceneItem): Bounds {
  return obj.type === 'sticky' || obj.type === 'image'
    ? { x: obj.x, y: obj.y, width: obj.width, height: obj.height }
    : item.bounds;
}

const centre = (b: Bounds): [number, number] => [b.x + b.width / 2, b.y + b.height / 2];

/** How far along (dx, dy) from the centre of `b` the line leaves the box, as a fraction of (dx, dy). */
function exitFraction(b: Bounds, dx: number, dy: number): number {
  const fx = dx === 0 ? Infinity : b.width / 2 / Math.abs(dx);
  const fy = dy === 0 ? Infinity : b.height / 2 / Math.abs(dy);
  return Math.min(fx, fy);
}

/**
 * An arrow between two objects' bounds: the shaft runs along the centre-to-centre line from where it
 * leaves the first box to where it enters the second, the head (§9: 15) at the target. When the boxes
 * overlap there is no gap to span, so it joins the centres. Null when the arrow fails its schema.
 */
export function arrowToSceneItem(arrow: unknown, from: Bounds, to: Bounds): SceneItem | null {
  const parsed = arrowSchema.safeParse(arrow);
  return parsed.success ? validArrowToSceneItem(parsed.data, from, to) : null;
}

/** arrowToSceneItem for an arrow that is already the parsed value of arrowSchema. */
export function validArrowToSceneItem(a: Arrow, from: Bounds, to: Bounds): SceneItem {
  const [x1, y1] = centre(from);
  const [x2, y2] = centre(to);
  const dx = x2 - x1;
  const dy = y2 - y1;
  let points = [x1, y1, x2, y2];
  const t1 = exitFraction(from, dx, dy);
  const t2 = exitFraction(to, dx, dy);
  if (t1 + t2 < 1) points = [x1 + dx * t1, y1 + dy * t1, x2 - dx * t2, y2 - dy * t2];
  const dash = DASH_PATTERNS[a.style];
  return {
    id: a.id,
    kind: 'arrow',
    bounds: pointsBounds(points, ARROW_HEAD_SIZE / 2 + a.strokeWidth),
    primitives: [
      {
        kind: 'arrow',
        points,
        pointerLength: ARROW_HEAD_SIZE,
        pointerWidth: ARROW_HEAD_SIZE,
        stroke: a.color,
        fill: a.color,
        strokeWidth: a.strokeWidth,
        dash: dash.length > 0 ? [...dash] : undefined,
      },
    ],
  };
}

/** The background of §9 over `area` only: white, grid 20, dots 10 (thin) and 50 (thick), lines 25. */
export function backgroundToScene(background: Background | string | undefined, area: Area): ScenePrimitive[] {
  const bg = backgroundSchema.safeParse(background);
  const kind: Background = bg.success ? bg.data : 'white';
  const base: ScenePrimitive = { kind: 'rect', ...area, fill: SCENE_STYLE.background };
  const pattern = (
    spacing: number,
    mark: 'grid' | 'dots' | 'hlines',
    color: string,
    size: number,
  ): ScenePrimitive => ({
    kind: 'pattern',
    ...area,
    spacing,
    mark,
    color,
    size,
  });
  switch (kind) {
    case 'white':
      return [base];
    case 'grid':
      return [base, pattern(BACKGROUND_SPACING.grid, 'grid', SCENE_STYLE.gridColor, 1)];
    case 'dots':
      return [
        base,
        pattern(BACKGROUND_SPACING.dotsThin, 'dots', SCENE_STYLE.dotThinColor, 0.75),
        pattern(BACKGROUND_SPACING.dotsThick, 'dots', SCENE_STYLE.dotThickColor, 1.75),
      ];
    case 'lines':
      return [base, pattern(BACKGROUND_SPACING.lines, 'hlines', SCENE_STYLE.linesColor, 1)];
  }
}

/** A board's content as plain data: a Y.Doc's top-level maps turned to JSON, or the realtime state answer. */
export interface BoardSnapshot {
  objects: Record<string, unknown> | unknown[];
  arrows: Record<string, unknown> | unknown[];
}

export interface BoardSceneOptions {
  area: Area;
  background?: Background | string;
  ctx?: SceneContext;
}

function valuesOf(container: Record<string, unknown> | unknown[] | undefined): unknown[] {
  if (!container || typeof container !== 'object') return [];
  return Array.isArray(container) ? container : Object.values(container);
}

export function snapshotOfDoc(doc: Y.Doc): BoardSnapshot {
  return { objects: getObjects(doc).toJSON(), arrows: getArrows(doc).toJSON() };
}

/**
 * The whole drawing of `area`: background, then the objects meeting the area by zIndex (ties by id),
 * then the arrows meeting it. Arrows need both ends' bounds, so every object is laid out even when
 * only part of the board is drawn.
 */
export function boardToScene(source: Y.Doc | BoardSnapshot, options: BoardSceneOptions): Scene {
  const { area, ctx = {} } = options;
  const snapshot = source instanceof Y.Doc ? snapshotOfDoc(source) : source;
  const drawn: Array<{ item: SceneItem; z: number }> = [];
  const boundsById = new Map<string, Bounds>();
  for (const raw of valuesOf(snapshot.objects)) {
    const obj = parseStoredObject(raw);
    if (!obj || obj.temporary) continue;
    const item = drawObject(obj, ctx);
    if (ARROW_END_TYPES.includes(obj.type)) boundsById.set(item.id, anchorBounds(obj, item));
    drawn.push({ item, z: obj.zIndex });
  }
  drawn.sort((a, b) => a.z - b.z || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  const items = drawn.map((d) => d.item).filter((item) => boundsIntersect(item.bounds, area));
  const arrows: SceneItem[] = [];
  for (const raw of valuesOf(snapshot.arrows)) {
    const parsed = arrowSchema.safeParse(raw);
    if (!parsed.success) continue;
    const from = boundsById.get(parsed.data.fromId);
    const to = boundsById.get(parsed.data.toId);
    if (!from || !to) continue;
    const item = validArrowToSceneItem(parsed.data, from, to);
    if (boundsIntersect(item.bounds, area)) arrows.push(item);
  }
  arrows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { area, background: backgroundToScene(options.background, area), items: [...items, ...arrows] };
}

/** Number of objects and arrows a scene draws (the export's object limit counts these). */
export const sceneItemCount = (scene: Scene): number => scene.items.length;
