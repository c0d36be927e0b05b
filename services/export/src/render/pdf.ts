/**
 * The PDF drawn straight from the scene with pdfkit's vector calls: real text in the embedded
 * bundled fonts (selectable, subset), shapes as paths, backgrounds as tiling patterns, sticky
 * shadows as the same raster the PNG uses. Going through an SVG string and svg-to-pdfkit instead
 * took 13 s of CPU for a 2,000-object board, most of it parsing that SVG back.
 * Geometry comes from the same helpers the SVG uses (svg.ts), so the two cannot drift.
 */
import PDFDocument from 'pdfkit';
import {
  SCENE_EMOJI_FAMILY,
  SCENE_FONT_FAMILY,
  arrowGeometry,
  fontRuns,
  polylinePathData,
  textLineLayout,
  type Area,
  type ArrowPrimitive,
  type ImagePrimitive,
  type Paint,
  type PatternPrimitive,
  type RectPrimitive,
  type Scene,
  type ScenePrimitive,
  type ShadowImage,
  type TextPrimitive,
} from '@wb/board-model';
import type { FontFiles } from './fonts.ts';

type Doc = PDFKit.PDFDocument;
type Rgb = [number, number, number];

/** A CSS colour as pdfkit's RGB and an alpha; null for none. Hex, rgb()/rgba(); names go to pdfkit as they are. */
export function cssColor(css: string | undefined): { color: Rgb | string; alpha: number } | null {
  if (!css || css === 'transparent' || css === 'none') return null;
  const hex = /^#([0-9a-f]{3,8})$/i.exec(css);
  if (hex) {
    let h = hex[1]!;
    if (h.length === 3 || h.length === 4) h = [...h].map((c) => c + c).join('');
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return { color: [n(0), n(2), n(4)], alpha: h.length === 8 ? n(6) / 255 : 1 };
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/i.exec(css);
  if (rgb) {
    const a = rgb[4] === undefined ? 1 : rgb[4].endsWith('%') ? parseFloat(rgb[4]) / 100 : Number(rgb[4]);
    return { color: [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])], alpha: Math.max(0, Math.min(1, a)) };
  }
  return { color: css, alpha: 1 };
}

function withRotation(doc: Doc, rotation: number | undefined, x: number, y: number, draw: () => void): void {
  doc.save();
  if (rotation) doc.rotate(rotation, { origin: [x, y] });
  draw();
  doc.restore();
}

/** Fills and strokes the current path as the SVG's paint() does. */
function paintPath(doc: Doc, p: Paint, closedFill = true): void {
  const fill = closedFill ? cssColor(p.fill) : null;
  const stroke = p.stroke && (p.strokeWidth ?? 1) > 0 ? cssColor(p.stroke) : null;
  const opacity = p.opacity ?? 1;
  if (stroke) {
    doc.lineWidth(p.strokeWidth ?? 1);
    const dash = p.dash?.filter((d) => d > 0);
    // pdfkit takes the whole dash array (its types only know one length).
    if (dash && dash.length > 0) doc.dash(dash as unknown as number, {});
    else doc.undash();
    doc.strokeColor(stroke.color as Rgb, stroke.alpha * opacity);
  }
  if (fill) doc.fillColor(fill.color as Rgb, fill.alpha * opacity);
  if (fill && stroke) doc.fillAndStroke();
  else if (fill) doc.fill();
  else if (stroke) doc.stroke();
}

function rect(doc: Doc, r: RectPrimitive, shadowImage: (r: RectPrimitive) => ShadowImage[] | undefined): void {
  withRotation(doc, r.rotation, r.x, r.y, () => {
    for (const piece of (r.shadow && shadowImage(r)) || [])
      doc.image(piece.href, r.x + piece.x, r.y + piece.y, { width: piece.width, height: piece.height });
    if (r.cornerRadius) doc.roundedRect(r.x, r.y, r.width, r.height, r.cornerRadius);
    else doc.rect(r.x, r.y, r.width, r.height);
    paintPath(doc, r);
  });
}

function arrow(doc: Doc, a: ArrowPrimitive): void {
  const { shaft, head } = arrowGeometry(a);
  doc.save();
  doc.path(polylinePathData(shaft));
  paintPath(doc, { ...a, fill: undefined });
  const color = a.stroke ?? a.fill ?? '#000000';
  doc.polygon([head[0], head[1]], [head[2], head[3]], [head[4], head[5]]);
  doc.lineJoin('round');
  paintPath(doc, { fill: a.fill ?? color, stroke: color, strokeWidth: a.strokeWidth ?? 1, opacity: a.opacity });
  doc.restore();
}

/** Each line as runs of the two bundled fonts, placed by their advances like the PNG's glyph outlines. */
function text(doc: Doc, t: TextPrimitive): void {
  const fill = cssColor(t.fill);
  if (!fill || t.lines.length === 0) return;
  withRotation(doc, t.rotation, t.x, t.y, () => {
    doc.fillColor(fill.color as Rgb, fill.alpha * (t.opacity ?? 1));
    for (const { line, x, baselineY, anchor } of textLineLayout(t)) {
      const runs = fontRuns(line).map((run) => {
        doc.font(run.emoji ? SCENE_EMOJI_FAMILY : SCENE_FONT_FAMILY).fontSize(t.fontSize);
        return { ...run, width: doc.widthOfString(run.text) };
      });
      const width = runs.reduce((w, r) => w + r.width, 0);
      let cx = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
      for (const run of runs) {
        doc.font(run.emoji ? SCENE_EMOJI_FAMILY : SCENE_FONT_FAMILY).fontSize(t.fontSize);
        doc.text(run.text, cx, baselineY, { lineBreak: false, baseline: 'alphabetic' });
        cx += run.width;
      }
    }
  });
}

function image(doc: Doc, img: ImagePrimitive, href: string | undefined): void {
  withRotation(doc, img.rotation, img.x, img.y, () => {
    doc.rect(img.x, img.y, img.width, img.height);
    paintPath(doc, { fill: img.placeholderFill });
    if (!href) return;
    try {
      doc.image(href, img.x, img.y, { width: img.width, height: img.height });
    } catch {
      // pdfkit reads PNG and JPEG only: a GIF or WebP stays the placeholder in the PDF.
    }
  });
}

/** A circle as four Béziers in PDF operators (pattern streams are raw content). */
function circleOps(cx: number, cy: number, r: number): string {
  const k = 0.5522847498 * r;
  const n = (v: number) => String(Math.round(v * 1000) / 1000);
  return (
    `${n(cx + r)} ${n(cy)} m ` +
    `${n(cx + r)} ${n(cy + k)} ${n(cx + k)} ${n(cy + r)} ${n(cx)} ${n(cy + r)} c ` +
    `${n(cx - k)} ${n(cy + r)} ${n(cx - r)} ${n(cy + k)} ${n(cx - r)} ${n(cy)} c ` +
    `${n(cx - r)} ${n(cy - k)} ${n(cx - k)} ${n(cy - r)} ${n(cx)} ${n(cy - r)} c ` +
    `${n(cx + k)} ${n(cy - r)} ${n(cx + r)} ${n(cy - k)} ${n(cx + r)} ${n(cy)} c f`
  );
}

/** The same tile as the SVG's <pattern> (svg.ts), as a PDF tiling pattern aligned to the board origin. */
function pattern(doc: Doc, p: PatternPrimitive): void {
  const s = p.spacing;
  const ops =
    p.mark === 'dots'
      ? [circleOps(0, 0, p.size), circleOps(s, 0, p.size), circleOps(0, s, p.size), circleOps(s, s, p.size)].join(' ')
      : p.mark === 'grid'
        ? `${p.size} w 0 0 m ${s} 0 l 0 0 m 0 ${s} l S`
        : `${p.size} w 0 0 m ${s} 0 l S`;
  const color = cssColor(p.color);
  if (!color) return;
  const tile = doc.pattern([0, 0, s, s], s, s, ops);
  doc.rect(p.x, p.y, p.width, p.height).fill([tile, color.color] as never);
}

function primitive(doc: Doc, p: ScenePrimitive, deps: PdfDrawDeps): void {
  switch (p.kind) {
    case 'pattern':
      return pattern(doc, p);
    case 'rect':
      return rect(doc, p, (r) => (r.shadow ? deps.shadowImage(r.shadow, r) : undefined));
    case 'ellipse':
      return withRotation(doc, p.rotation, p.x, p.y, () => {
        doc.ellipse(p.x, p.y, Math.max(0, p.radiusX), Math.max(0, p.radiusY));
        paintPath(doc, p);
      });
    case 'polyline':
      if (p.points.length < 4) return;
      doc.save();
      if (p.lineCap) doc.lineCap(p.lineCap);
      if (p.lineJoin) doc.lineJoin(p.lineJoin);
      doc.path(polylinePathData(p.points, p.tension, p.closed));
      paintPath(doc, p, p.closed ?? false);
      doc.restore();
      return;
    case 'arrow':
      return arrow(doc, p);
    case 'text':
      return text(doc, p);
    case 'image':
      return image(doc, p, deps.imageHref(p.src));
  }
}

export interface PdfDrawDeps {
  fonts: FontFiles;
  imageHref(src: string): string | undefined;
  shadowImage(shadow: NonNullable<RectPrimitive['shadow']>, rect: RectPrimitive): ShadowImage[] | undefined;
}

/** One page the size of the area in points (1 board unit = 1 pt, as the PNG's 1 unit = 1 px). */
export function sceneToPdf(scene: Scene, deps: PdfDrawDeps): Promise<Uint8Array> {
  const area: Area = scene.area;
  const doc = new PDFDocument({ size: [area.width, area.height], margin: 0, autoFirstPage: true, compress: true });
  doc.registerFont(SCENE_FONT_FAMILY, deps.fonts.text);
  doc.registerFont(SCENE_EMOJI_FAMILY, deps.fonts.emoji);
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  doc.translate(-area.x, -area.y);
  for (const p of scene.background) primitive(doc, p, deps);
  for (const item of scene.items) for (const p of item.primitives) primitive(doc, p, deps);
  doc.end();
  return done;
}
