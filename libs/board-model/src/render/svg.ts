/**
 * A scene as one standalone SVG document, in board coordinates (viewBox = the area). Used by the export
 * service for SVG, PNG (rasterised) and PDF; every value written comes from the schema-checked scene,
 * and text and attributes are escaped anyway.
 */
import { TEXT_ASCENT_EM, TEXT_DESCENT_EM } from './font-metrics.ts';
import { SCENE_EMOJI_FAMILY, fontRuns, measureText } from './text.ts';
import type {
  ArrowPrimitive,
  ImagePrimitive,
  PatternPrimitive,
  PolylinePrimitive,
  RectPrimitive,
  Scene,
  ScenePrimitive,
  TextPrimitive,
} from './types.ts';

export interface SvgOptions {
  /**
   * The image data to embed for an image `src` (a data: URL), or undefined to draw the grey placeholder
   * only. The export service answers from the board's own image store; nothing is fetched here.
   */
  imageHref?: (src: string) => string | undefined;
  /** Extra <style> content, e.g. @font-face rules for a browser viewing the file. */
  fontCss?: string;
  /**
   * Draws one line of text itself (e.g. as glyph outlines, so a rasteriser does no text layout of its
   * own); undefined falls back to <text>. `x` is the anchor point, `y` the baseline.
   */
  textLine?: (
    line: string,
    fontSize: number,
    x: number,
    y: number,
    anchor: 'start' | 'middle' | 'end',
  ) => string | undefined;
  /** Definitions the textLine hook referenced, written into <defs> at the end. */
  extraDefs?: () => string;
  /**
   * A sticky's drop shadow as ready rasters (data: URLs placed at `x, y` relative to the rect's
   * origin, in board units; one image or pieces of one) instead of an SVG filter: a rasteriser that
   * blurs per element (resvg) spends milliseconds on each, and a board has hundreds of stickies.
   * Undefined keeps the filter.
   */
  shadowImage?: (shadow: NonNullable<RectPrimitive['shadow']>, rect: RectPrimitive) => ShadowImage[] | undefined;
}

export interface ShadowImage {
  href: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The filter drawing a rect's shadow as konva does (Gaussian, σ = blur / 2), used by the SVG file and shadow rasters. */
export function shadowFilterSvg(id: string, shadow: NonNullable<RectPrimitive['shadow']>, withSource = true): string {
  const blur = `<feGaussianBlur in="SourceAlpha" stdDeviation="${num(shadow.blur / 2)}"/><feOffset dx="${num(shadow.offsetX)}" dy="${num(shadow.offsetY)}" result="o"/><feFlood flood-color="${esc(shadow.color)}"/><feComposite in2="o" operator="in"/>`;
  const merge = withSource ? '<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>' : '';
  return `<filter id="${id}" x="-20%" y="-20%" width="140%" height="140%">${blur}${merge}</filter>`;
}

/** Shared <defs>: identical definitions (one shadow for every sticky) are written once. */
export type SvgDefs = Map<string, string>;
type Defs = SvgDefs;
function define(defs: Defs, prefix: string, body: (id: string) => string): string {
  const key = body('');
  let id = defs.get(key);
  if (!id) {
    id = `${prefix}${defs.size}`;
    defs.set(key, id);
  }
  return id;
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Short, stable numbers: enough precision for print, no exponent notation. */
const num = (n: number): string => {
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

function paint(p: {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  dash?: number[];
  opacity?: number;
}): string {
  const attrs = [`fill="${p.fill ? esc(p.fill) : 'none'}"`];
  if (p.stroke && (p.strokeWidth ?? 1) > 0) {
    attrs.push(`stroke="${esc(p.stroke)}"`, `stroke-width="${num(p.strokeWidth ?? 1)}"`);
    if (p.dash && p.dash.length > 0) attrs.push(`stroke-dasharray="${p.dash.map(num).join(' ')}"`);
  }
  if (p.opacity !== undefined && p.opacity < 1) attrs.push(`opacity="${num(p.opacity)}"`);
  return attrs.join(' ');
}

const rotate = (deg: number | undefined, x: number, y: number): string =>
  deg ? ` transform="rotate(${num(deg)} ${num(x)} ${num(y)})"` : '';

/** konva's Line with tension: cardinal spline control points (Konva.Util._getControlPoints). */
function controlPoints(p: number[], i: number, t: number): [number, number, number, number] | null {
  const [x0, y0, x1, y1, x2, y2] = p.slice(i - 2, i + 4);
  const d01 = Math.hypot(x1 - x0, y1 - y0);
  const d12 = Math.hypot(x2 - x1, y2 - y1);
  const fa = (t * d01) / (d01 + d12);
  const fb = (t * d12) / (d01 + d12);
  if (Number.isNaN(fa) || Number.isNaN(fb)) return null;
  return [x1 - fa * (x2 - x0), y1 - fa * (y2 - y0), x1 + fb * (x2 - x0), y1 + fb * (y2 - y0)];
}

/** SVG path data of a polyline drawn exactly as konva's Line draws it (straight or with tension). */
export function polylinePathData(points: readonly number[], tension = 0, closed = false): string {
  const p = [...points];
  const n = p.length;
  if (n < 2) return '';
  let d = `M${num(p[0])} ${num(p[1])}`;
  if (tension !== 0 && n > 4) {
    const tp: number[] = [];
    for (let i = 2; i < n - 2; i += 2) {
      const cp = controlPoints(p, i, tension);
      if (cp) tp.push(cp[0], cp[1], p[i], p[i + 1], cp[2], cp[3]);
    }
    if (tp.length >= 4) {
      d += ` Q${num(tp[0])} ${num(tp[1])} ${num(tp[2])} ${num(tp[3])}`;
      for (let i = 4; i + 5 < tp.length; i += 6)
        d += ` C${tp
          .slice(i, i + 6)
          .map(num)
          .join(' ')}`;
      d += ` Q${num(tp[tp.length - 2])} ${num(tp[tp.length - 1])} ${num(p[n - 2])} ${num(p[n - 1])}`;
      return closed ? `${d} Z` : d;
    }
  }
  for (let i = 2; i + 1 < n; i += 2) d += ` L${num(p[i])} ${num(p[i + 1])}`;
  return closed ? `${d} Z` : d;
}

function rectSvg(r: RectPrimitive, defs: Defs, options: SvgOptions): string {
  let filter = '';
  let under = '';
  const shadow = r.shadow;
  const raster = shadow && options.shadowImage?.(shadow, r);
  if (raster) {
    // One <image> per distinct raster in <defs>, placed by <use>: decoded from base64 once.
    under = raster
      .map((piece) => {
        const id = define(
          defs,
          'si',
          (iid) =>
            `<image id="${iid}" width="${num(piece.width)}" height="${num(piece.height)}" href="${esc(piece.href)}"/>`,
        );
        return `<use href="#${id}" x="${num(r.x + piece.x)}" y="${num(r.y + piece.y)}"${rotate(r.rotation, r.x, r.y)}/>`;
      })
      .join('');
  } else if (shadow) {
    const id = define(defs, 'sh', (fid) => shadowFilterSvg(fid, shadow));
    filter = ` filter="url(#${id})"`;
  }
  const radius = r.cornerRadius ? ` rx="${num(r.cornerRadius)}"` : '';
  return `${under}<rect x="${num(r.x)}" y="${num(r.y)}" width="${num(r.width)}" height="${num(r.height)}"${radius} ${paint(r)}${rotate(r.rotation, r.x, r.y)}${filter}/>`;
}

function polylineSvg(p: PolylinePrimitive): string {
  const cap = p.lineCap ? ` stroke-linecap="${p.lineCap}"` : '';
  const join = p.lineJoin ? ` stroke-linejoin="${p.lineJoin}"` : '';
  return `<path d="${polylinePathData(p.points, p.tension, p.closed)}" ${paint(p)}${cap}${join}/>`;
}

/**
 * konva's Arrow: the shaft stops at the base of the head so the tip stays sharp; the head is never
 * dashed. Shared by the SVG and the PDF drawing.
 */
export function arrowGeometry(a: ArrowPrimitive): { shaft: number[]; head: [number, number, number, number, number, number] } {
  const n = a.points.length;
  const [x1, y1, x2, y2] = [a.points[n - 4], a.points[n - 3], a.points[n - 2], a.points[n - 1]];
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const head = Math.min(a.pointerLength, len);
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const hw = a.pointerWidth / 2;
  return {
    shaft: [...a.points.slice(0, n - 2), bx, by],
    head: [x2, y2, bx - uy * hw, by + ux * hw, bx + uy * hw, by - ux * hw],
  };
}

function arrowSvg(a: ArrowPrimitive): string {
  const { shaft, head } = arrowGeometry(a);
  const [x2, y2, lx, ly, rx, ry] = head;
  const color = a.stroke ?? a.fill ?? '#000000';
  return (
    `<g class="arrow">` +
    `<path d="${polylinePathData(shaft)}" ${paint({ ...a, fill: undefined })}/>` +
    `<path d="M${num(x2)} ${num(y2)} L${num(lx)} ${num(ly)} L${num(rx)} ${num(ry)} Z" fill="${esc(a.fill ?? color)}" stroke="${esc(color)}" stroke-width="${num(a.strokeWidth ?? 1)}" stroke-linejoin="round"/>` +
    `</g>`
  );
}

/**
 * One <text> per line; konva centres each line vertically in its line box (textBaseline 'middle').
 * A line mixing text and emoji is written as one <text> per font run, placed with the shared metrics:
 * a rasteriser left to pick fonts itself draws the spaces and digits after an emoji from the emoji
 * font (it has them, for keycaps), which shifts everything after it.
 */
export interface TextLineLayout {
  line: string;
  /** The anchor point: left edge, centre or right edge by `anchor`. */
  x: number;
  baselineY: number;
  anchor: 'start' | 'middle' | 'end';
}

/** Where each line of a text primitive goes (konva centres a line in its line box). Shared by SVG and PDF. */
export function textLineLayout(t: TextPrimitive): TextLineLayout[] {
  const anchor = t.align === 'center' ? 'middle' : t.align === 'right' ? 'end' : 'start';
  const x =
    t.width === undefined || t.align === 'left'
      ? t.x
      : t.align === 'center'
        ? t.x + t.width / 2
        : t.x + t.width;
  const baseline = t.lineHeight / 2 + ((TEXT_ASCENT_EM - TEXT_DESCENT_EM) / 2) * t.fontSize;
  return t.lines.map((line, i) => ({ line, x, baselineY: t.y + i * t.lineHeight + baseline, anchor }));
}

function textSvg(t: TextPrimitive, options: SvgOptions): string {
  const opacity = t.opacity !== undefined && t.opacity < 1 ? ` opacity="${num(t.opacity)}"` : '';
  const lines = textLineLayout(t).map(({ line, x, baselineY, anchor }) => {
    const drawn = options.textLine?.(line, t.fontSize, x, baselineY, anchor);
    if (drawn !== undefined) return drawn;
    const y = num(baselineY);
    const runs = fontRuns(line);
    if (!runs.some((r) => r.emoji))
      return `<text x="${num(x)}" y="${y}" text-anchor="${anchor}" xml:space="preserve">${esc(line)}</text>`;
    const width = measureText(line, t.fontSize);
    let cx = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
    return runs
      .map((run) => {
        const family = run.emoji ? ` font-family="${SCENE_EMOJI_FAMILY}"` : '';
        const out = `<text x="${num(cx)}" y="${y}"${family} xml:space="preserve">${esc(run.text)}</text>`;
        cx += measureText(run.text, t.fontSize);
        return out;
      })
      .join('');
  });
  return `<g font-family="${esc(t.fontFamily)}" font-size="${num(t.fontSize)}" fill="${esc(t.fill)}"${opacity}${rotate(t.rotation, t.x, t.y)}>${lines.join('')}</g>`;
}

function imageSvg(img: ImagePrimitive, options: SvgOptions): string {
  const box = `x="${num(img.x)}" y="${num(img.y)}" width="${num(img.width)}" height="${num(img.height)}"`;
  const placeholder = `<rect ${box} fill="${esc(img.placeholderFill)}"/>`;
  const href = options.imageHref?.(img.src);
  const image = href ? `<image ${box} href="${esc(href)}" preserveAspectRatio="none"/>` : '';
  return `<g${rotate(img.rotation, img.x, img.y)}>${placeholder}${image}</g>`;
}

function patternSvg(p: PatternPrimitive, defs: Defs): string {
  const s = num(p.spacing);
  const color = esc(p.color);
  const mark =
    p.mark === 'dots'
      ? `<circle cx="0" cy="0" r="${num(p.size)}" fill="${color}"/><circle cx="${s}" cy="0" r="${num(p.size)}" fill="${color}"/><circle cx="0" cy="${s}" r="${num(p.size)}" fill="${color}"/><circle cx="${s}" cy="${s}" r="${num(p.size)}" fill="${color}"/>`
      : p.mark === 'grid'
        ? `<path d="M0 0 H${s} M0 0 V${s}" stroke="${color}" stroke-width="${num(p.size)}" fill="none"/>`
        : `<path d="M0 0 H${s}" stroke="${color}" stroke-width="${num(p.size)}" fill="none"/>`;
  const id = define(
    defs,
    'bg',
    (pid) =>
      `<pattern id="${pid}" patternUnits="userSpaceOnUse" x="0" y="0" width="${s}" height="${s}">${mark}</pattern>`,
  );
  return `<rect x="${num(p.x)}" y="${num(p.y)}" width="${num(p.width)}" height="${num(p.height)}" fill="url(#${id})"/>`;
}

export function primitiveToSvg(p: ScenePrimitive, defs: Defs, options: SvgOptions = {}): string {
  switch (p.kind) {
    case 'pattern':
      return patternSvg(p, defs);
    case 'rect':
      return rectSvg(p, defs, options);
    case 'ellipse':
      return `<ellipse cx="${num(p.x)}" cy="${num(p.y)}" rx="${num(p.radiusX)}" ry="${num(p.radiusY)}" ${paint(p)}${rotate(p.rotation, p.x, p.y)}/>`;
    case 'polyline':
      return polylineSvg(p);
    case 'arrow':
      return arrowSvg(p);
    case 'text':
      return textSvg(p, options);
    case 'image':
      return imageSvg(p, options);
  }
}

/** The scene as an SVG document whose user units are board units (1 unit = 1 pixel of a PNG at scale 1). */
export function sceneToSvg(scene: Scene, options: SvgOptions = {}): string {
  const { x, y, width, height } = scene.area;
  const defs: Defs = new Map();
  const body: string[] = [];
  for (const p of scene.background) body.push(primitiveToSvg(p, defs, options));
  for (const item of scene.items) {
    const inner = item.primitives.map((p) => primitiveToSvg(p, defs, options)).join('');
    body.push(`<g data-id="${esc(item.id)}" data-kind="${item.kind}">${inner}</g>`);
  }
  const style = (options.fontCss ? `<style>${options.fontCss}</style>` : '') + (options.extraDefs?.() ?? '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(width)}" height="${num(height)}" viewBox="${num(x)} ${num(y)} ${num(width)} ${num(height)}">` +
    `<defs>${style}${[...defs].map(([body, id]) => body.replace('id=""', `id="${id}"`)).join('')}</defs>` +
    // No clip-path: the viewBox already cuts the drawing to the area, and a clip makes a rasteriser
    // paint everything into an extra layer the size of the image.
    `${body.join('')}</svg>`
  );
}
