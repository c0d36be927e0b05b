/**
 * One drawing, two places (DESIGN.md): the canvas (konva) and the export service (SVG → PNG/PDF)
 * both draw a board from the same scene, so they cannot drift. A scene is plain data: a list of
 * primitives in board coordinates, in paint order. The SPA turns each primitive into a konva node;
 * the export service turns the same list into SVG. Neither adds drawing rules of its own.
 *
 * Property names follow konva's where konva has one, so the SPA can spread them onto nodes.
 */

/** Paint attributes shared by the filled/stroked primitives. Absent = not painted. */
export interface Paint {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  /** konva's `dash`: [on, off, ...] in board units. */
  dash?: number[];
  /** 0..1; highlighter strokes are 0.4. */
  opacity?: number;
}

export interface RectPrimitive extends Paint {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees, clockwise, around (x, y) as konva does. */
  rotation?: number;
  cornerRadius?: number;
  /** Drop shadow of stickies: offset and blur in board units, colour with alpha. */
  shadow?: { color: string; blur: number; offsetX: number; offsetY: number };
}

export interface EllipsePrimitive extends Paint {
  kind: 'ellipse';
  /** Centre, as in konva. */
  x: number;
  y: number;
  radiusX: number;
  radiusY: number;
  rotation?: number;
}

/** Straight segments or a smoothed stroke (tension > 0 uses konva's cardinal spline). */
export interface PolylinePrimitive extends Paint {
  kind: 'polyline';
  /** Flat [x1, y1, x2, y2, ...]. */
  points: number[];
  tension?: number;
  lineCap?: 'butt' | 'round' | 'square';
  lineJoin?: 'miter' | 'round' | 'bevel';
  closed?: boolean;
}

/** An arrow: a shaft along `points` with a filled head at the last point. */
export interface ArrowPrimitive extends Paint {
  kind: 'arrow';
  points: number[];
  pointerLength: number;
  pointerWidth: number;
}

/**
 * Text already broken into lines by the shared wrapping rule (render/text.ts), so the canvas and
 * the export put the same words on the same lines. (x, y) is the top-left of the text box.
 */
export interface TextPrimitive {
  kind: 'text';
  x: number;
  y: number;
  /** Box width used for alignment; undefined = no wrapping (free text). */
  width?: number;
  lines: string[];
  fontSize: number;
  fontFamily: string;
  /** Line advance in board units (fontSize × line height factor). */
  lineHeight: number;
  fill: string;
  align: 'left' | 'center' | 'right';
  rotation?: number;
  opacity?: number;
}

export interface ImagePrimitive {
  kind: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  /** The image store URL (never a data URL in new documents). */
  src: string;
  rotation?: number;
  /** Drawn while loading or when the image fails (spec: grey placeholder). */
  placeholderFill: string;
}

/**
 * A background pattern repeated over an area, aligned to the board origin (so panning never makes it
 * swim). One primitive instead of thousands of dots or lines; the SVG uses a <pattern>, the canvas
 * draws the marks of the visible part only.
 */
export interface PatternPrimitive {
  kind: 'pattern';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Period on both axes, in board units. */
  spacing: number;
  /** grid: vertical and horizontal lines; dots: a dot at each crossing; hlines: horizontal lines only. */
  mark: 'grid' | 'dots' | 'hlines';
  color: string;
  /** Line width, or the dot's radius. */
  size: number;
}

export type ScenePrimitive =
  | PatternPrimitive
  | RectPrimitive
  | EllipsePrimitive
  | PolylinePrimitive
  | ArrowPrimitive
  | TextPrimitive
  | ImagePrimitive;

/** The primitives of one board object (or arrow), with its bounds for culling and hit-testing. */
export interface SceneItem {
  /** The object's or arrow's id. */
  id: string;
  kind: 'object' | 'arrow';
  /** Axis-aligned bounds in board coordinates, including stroke and rotation. */
  bounds: { x: number; y: number; width: number; height: number };
  primitives: ScenePrimitive[];
}

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Scene {
  area: Area;
  /** Background primitives for the area (pattern lines/dots), drawn first. */
  background: ScenePrimitive[];
  /** Objects then arrows, in paint order (zIndex, then id for ties). */
  items: SceneItem[];
}
