/**
 * The PNG drawn straight from the scene on a Skia canvas (@napi-rs/canvas), Chromium's own 2D
 * rasteriser: the same drawing as the SVG file (svg.ts), primitive by primitive, with the geometry
 * helpers the SVG and the PDF share, so the three cannot drift. Drawing the bench board this way took
 * a third of resvg's time (no SVG string to build and parse back, and Skia fills faster than
 * tiny-skia); see docs/decisions.md.
 *
 * What follows the SVG's rules rather than the canvas API's defaults: strokes mitre up to 4 (SVG)
 * and not 10; a pattern is one tile clipped to its cell and repeated from the board origin; text is
 * the bundled fonts' glyph outlines (glyphs.ts), laid out exactly as in the SVG and the PDF. A sticky's
 * shadow is the 2D context's own (Gaussian, σ = blur / 2, as the SVG filter and as the board page
 * draws it).
 */
import { createCanvas, Image, Path2D, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  arrowGeometry,
  polylinePathData,
  textLineLayout,
  type Paint,
  type PatternPrimitive,
  type Scene,
  type ScenePrimitive,
  type TextPrimitive,
} from '@wb/board-model';
import { linePlacement, type GlyphFonts, type LineGlyphs } from './glyphs.ts';

type Ctx = SKRSContext2D;

export interface CanvasDrawDeps {
  glyphs: GlyphFonts;
  /** The image's data: URL, or undefined to leave the grey placeholder. */
  imageHref(src: string): string | undefined;
}

const EMPTY = Buffer.alloc(0);

/** SVG's stroke-miterlimit default (the canvas's is 10). */
const SVG_MITER_LIMIT = 4;

/**
 * Each line of text as one Skia path of its glyph outlines (font units, y up, pen from 0), so a line
 * is one fill instead of one per glyph (the text of the bench board was 28,000 glyph fills). Kept for
 * the thread's life like the layouts (boards repeat their lines from one export to the next).
 */
const glyphPaths = new Map<string, Path2D | null>();
const linePaths = new Map<string, { path: Path2D; layout: LineGlyphs }>();
const LINE_CACHE_MAX = 10_000;

function glyphPath(glyphs: GlyphFonts, id: string): Path2D | null {
  let path = glyphPaths.get(id);
  if (path === undefined) {
    const d = glyphs.outline(id);
    path = d ? new Path2D(d) : null;
    glyphPaths.set(id, path);
  }
  return path;
}

function linePath(glyphs: GlyphFonts, line: string): { path: Path2D; layout: LineGlyphs } {
  let hit = linePaths.get(line);
  if (hit) return hit;
  const layout = glyphs.layoutLine(line);
  const path = new Path2D();
  for (const g of layout.glyphs) {
    const outline = glyphPath(glyphs, g.id);
    if (outline) path.addPath(outline, { a: 1, b: 0, c: 0, d: 1, e: g.x, f: g.y });
  }
  hit = { path, layout };
  if (linePaths.size >= LINE_CACHE_MAX) linePaths.clear();
  linePaths.set(line, hit);
  return hit;
}

/** Pattern tiles by their look, kept for the thread's life (three backgrounds, a few marks each). */
const tiles = new Map<string, Canvas>();
function tile(p: PatternPrimitive): Canvas {
  const key = [p.mark, p.spacing, p.color, p.size].join('|');
  let canvas = tiles.get(key);
  if (canvas) return canvas;
  const s = p.spacing;
  canvas = createCanvas(Math.ceil(s), Math.ceil(s));
  const ctx = canvas.getContext('2d');
  // The same marks as svg.ts's <pattern>, cut to the cell [0, s]² by the tile's edges.
  if (p.mark === 'dots') {
    ctx.fillStyle = p.color;
    ctx.beginPath();
    for (const [cx, cy] of [
      [0, 0],
      [s, 0],
      [0, s],
      [s, s],
    ] as const) {
      ctx.moveTo(cx + p.size, cy);
      ctx.arc(cx, cy, p.size, 0, Math.PI * 2);
    }
    ctx.fill();
  } else {
    ctx.strokeStyle = p.color;
    ctx.lineWidth = p.size;
    ctx.beginPath();
    ctx.moveTo(0, 0);
    ctx.lineTo(s, 0);
    if (p.mark === 'grid') {
      ctx.moveTo(0, 0);
      ctx.lineTo(0, s);
    }
    ctx.stroke();
  }
  tiles.set(key, canvas);
  return canvas;
}

/** Fill, then stroke, of the current path, as svg.ts's paint(); opacity as a whole-shape alpha. */
function paint(ctx: Ctx, p: Paint, path?: Path2D): void {
  ctx.globalAlpha = p.opacity !== undefined && p.opacity < 1 ? p.opacity : 1;
  if (p.fill) {
    ctx.fillStyle = p.fill;
    if (path) ctx.fill(path);
    else ctx.fill();
  }
  if (p.stroke && (p.strokeWidth ?? 1) > 0) {
    ctx.strokeStyle = p.stroke;
    ctx.lineWidth = p.strokeWidth ?? 1;
    ctx.setLineDash(p.dash && p.dash.length > 0 ? p.dash : []);
    if (path) ctx.stroke(path);
    else ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.globalAlpha = 1;
}

/** Runs `draw` rotated by `deg` around (x, y), as svg.ts's rotate(). */
function rotated(ctx: Ctx, deg: number | undefined, x: number, y: number, draw: () => void): void {
  if (!deg) return draw();
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate((deg * Math.PI) / 180);
  ctx.translate(-x, -y);
  draw();
  ctx.restore();
}

function text(ctx: Ctx, t: TextPrimitive, glyphs: GlyphFonts): void {
  rotated(ctx, t.rotation, t.x, t.y, () => {
    ctx.globalAlpha = t.opacity !== undefined && t.opacity < 1 ? t.opacity : 1;
    ctx.fillStyle = t.fill;
    for (const { line, x, baselineY, anchor } of textLineLayout(t)) {
      const { path, layout } = linePath(glyphs, line);
      if (layout.glyphs.length === 0) continue;
      const { left, scale } = linePlacement(layout, t.fontSize, x, anchor);
      ctx.save();
      ctx.translate(left, baselineY);
      ctx.scale(scale, -scale);
      ctx.fill(path);
      ctx.restore();
    }
    ctx.globalAlpha = 1;
  });
}

function primitive(ctx: Ctx, p: ScenePrimitive, deps: CanvasDrawDeps, images: Map<string, Image | null>): void {
  switch (p.kind) {
    case 'pattern': {
      const pattern = ctx.createPattern(tile(p), 'repeat');
      if (!pattern) return;
      // The pattern's space is the board's (the context is translated to the area): cells from the origin.
      ctx.fillStyle = pattern;
      ctx.fillRect(p.x, p.y, p.width, p.height);
      return;
    }
    case 'rect':
      return rotated(ctx, p.rotation, p.x, p.y, () => {
        ctx.beginPath();
        if (p.cornerRadius) ctx.roundRect(p.x, p.y, p.width, p.height, p.cornerRadius);
        else ctx.rect(p.x, p.y, p.width, p.height);
        if (p.shadow && p.fill) {
          ctx.save();
          ctx.shadowColor = p.shadow.color;
          ctx.shadowBlur = p.shadow.blur;
          ctx.shadowOffsetX = p.shadow.offsetX;
          ctx.shadowOffsetY = p.shadow.offsetY;
          paint(ctx, { fill: p.fill, opacity: p.opacity });
          ctx.restore();
          paint(ctx, { ...p, fill: undefined });
        } else paint(ctx, p);
      });
    case 'ellipse':
      ctx.beginPath();
      ctx.ellipse(p.x, p.y, Math.max(0, p.radiusX), Math.max(0, p.radiusY), ((p.rotation ?? 0) * Math.PI) / 180, 0, Math.PI * 2);
      return paint(ctx, p);
    case 'polyline': {
      const d = polylinePathData(p.points, p.tension, p.closed);
      if (!d) return;
      ctx.lineCap = p.lineCap ?? 'butt';
      ctx.lineJoin = p.lineJoin ?? 'miter';
      paint(ctx, p, new Path2D(d));
      ctx.lineCap = 'butt';
      ctx.lineJoin = 'miter';
      return;
    }
    case 'arrow': {
      const { shaft, head } = arrowGeometry(p);
      paint(ctx, { ...p, fill: undefined }, new Path2D(polylinePathData(shaft)));
      const color = p.stroke ?? p.fill ?? '#000000';
      ctx.beginPath();
      ctx.moveTo(head[0], head[1]);
      ctx.lineTo(head[2], head[3]);
      ctx.lineTo(head[4], head[5]);
      ctx.closePath();
      ctx.lineJoin = 'round';
      paint(ctx, { fill: p.fill ?? color, stroke: color, strokeWidth: p.strokeWidth ?? 1, opacity: p.opacity });
      ctx.lineJoin = 'miter';
      return;
    }
    case 'text':
      return text(ctx, p, deps.glyphs);
    case 'image':
      return rotated(ctx, p.rotation, p.x, p.y, () => {
        ctx.fillStyle = p.placeholderFill;
        ctx.fillRect(p.x, p.y, p.width, p.height);
        const href = deps.imageHref(p.src);
        if (!href) return;
        let img = images.get(href);
        if (img === undefined) {
          img = decode(href);
          images.set(href, img);
        }
        if (img) ctx.drawImage(img, p.x, p.y, p.width, p.height);
      });
  }
}

/** A data: URL's picture (PNG, JPEG, GIF, WebP), or null when it does not decode: the placeholder stays. */
function decode(href: string): Image | null {
  const comma = href.indexOf(',');
  if (!href.startsWith('data:') || comma < 0) return null;
  const meta = href.slice(5, comma);
  const data = meta.endsWith(';base64')
    ? Buffer.from(href.slice(comma + 1), 'base64')
    : Buffer.from(decodeURIComponent(href.slice(comma + 1)), 'latin1');
  try {
    const img = new Image();
    img.src = data;
    return img.width > 0 && img.height > 0 ? img : null;
  } catch {
    return null;
  }
}

/**
 * The scene's area (whole pixels at scale 1) drawn on a fresh canvas: its RGBA pixels (every export's
 * background is opaque, so alpha is 255 throughout).
 */
export function drawScene(scene: Scene, deps: CanvasDrawDeps): { rgba: Uint8Array; width: number; height: number } {
  const { x, y, width, height } = scene.area;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.miterLimit = SVG_MITER_LIMIT;
  ctx.translate(-x, -y);
  // One decode per picture per export, however often the board shows it.
  const images = new Map<string, Image | null>();
  for (const p of scene.background) primitive(ctx, p, deps, images);
  for (const item of scene.items) for (const p of item.primitives) primitive(ctx, p, deps, images);
  // getImageData, not canvas.data(): the first data() of a canvas took 80 ms more for 4,000×2,000.
  const { data } = ctx.getImageData(0, 0, width, height);
  // The pixels are copied out: give the surface back now, not at the thread's next GC (a 4,000 × 2,000
  // band is 32 MB; 20 renders in a row held 840 MB until GC, 480 MB with this, measured).
  canvas.width = 1;
  canvas.height = 1;
  // Likewise the decoded pictures: a render thread kept each one's bitmap long after the render (about
  // 50 MB an export of 20 pictures of 700 × 700, measured), so they are emptied here.
  for (const img of images.values()) {
    try {
      if (img) img.src = EMPTY;
    } catch {
      // Nothing to give back.
    }
  }
  return { rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
}
