/**
 * Paints scene primitives straight onto a 2D context. The static scene is one konva shape whose
 * draw function calls this for every visible item: thousands of konva nodes would each cost
 * attribute look-ups and a transform per frame, which software rendering cannot afford at 10,000
 * objects. The mapping follows konva's own drawing of each shape, so selected objects (konva
 * shapes on the live layer, drawn with this same painter) look identical.
 */
import Konva from 'konva';
import type { ScenePrimitive } from './scene.ts';
import { imageFor } from './images.ts';

export interface PaintOptions {
  /** Screen pixels per board unit: text smaller than a few pixels is skipped. */
  scale: number;
  shadows: boolean;
}

/** Below this many screen pixels a glyph is unreadable, and text is the costliest thing to draw. */
const MIN_TEXT_PX = 3;

/** konva's own spline control points, so a stroke looks the same drawn here or by a konva Line. */
const expandPoints = (points: number[], tension: number): number[] =>
  new Konva.Line({ points, tension }).getTensionPoints() as number[];
const tensionCache = new WeakMap<number[], number[]>();

function tracePolyline(ctx: CanvasRenderingContext2D, points: number[], tension: number, closed: boolean): void {
  ctx.beginPath();
  ctx.moveTo(points[0], points[1]);
  if (tension > 0 && points.length > 4) {
    let tp = tensionCache.get(points);
    if (!tp) tensionCache.set(points, (tp = expandPoints(points, tension)));
    const len = tp.length;
    ctx.quadraticCurveTo(tp[0], tp[1], tp[2], tp[3]);
    let n = 4;
    while (n < len - 2) {
      ctx.bezierCurveTo(tp[n], tp[n + 1], tp[n + 2], tp[n + 3], tp[n + 4], tp[n + 5]);
      n += 6;
    }
    ctx.quadraticCurveTo(tp[len - 2], tp[len - 1], points[points.length - 2], points[points.length - 1]);
  } else {
    for (let i = 2; i + 1 < points.length; i += 2) ctx.lineTo(points[i], points[i + 1]);
  }
  if (closed) ctx.closePath();
}

function strokeAndFill(ctx: CanvasRenderingContext2D, p: { fill?: string; stroke?: string; strokeWidth?: number; dash?: number[] }): void {
  if (p.fill && p.fill !== 'transparent') {
    ctx.fillStyle = p.fill;
    ctx.fill();
  }
  if (p.stroke && p.stroke !== 'transparent' && (p.strokeWidth ?? 1) > 0) {
    ctx.strokeStyle = p.stroke;
    ctx.lineWidth = p.strokeWidth ?? 1;
    ctx.setLineDash(p.dash ?? []);
    ctx.stroke();
  }
}

export function paintPrimitive(ctx: CanvasRenderingContext2D, p: ScenePrimitive, opts: PaintOptions): void {
  const opacity = 'opacity' in p && p.opacity !== undefined ? p.opacity : 1;
  ctx.globalAlpha = opacity;
  switch (p.kind) {
    case 'rect': {
      const rotated = !!p.rotation;
      if (rotated) {
        ctx.save();
        ctx.translate(p.x, p.y);
        ctx.rotate((p.rotation! * Math.PI) / 180);
      }
      const x = rotated ? 0 : p.x;
      const y = rotated ? 0 : p.y;
      ctx.beginPath();
      if (p.cornerRadius) ctx.roundRect(x, y, p.width, p.height, p.cornerRadius);
      else ctx.rect(x, y, p.width, p.height);
      if (p.shadow && opts.shadows && p.fill) {
        ctx.save();
        ctx.shadowColor = p.shadow.color;
        ctx.shadowBlur = p.shadow.blur * opts.scale;
        ctx.shadowOffsetX = p.shadow.offsetX * opts.scale;
        ctx.shadowOffsetY = p.shadow.offsetY * opts.scale;
        ctx.fillStyle = p.fill;
        ctx.fill();
        ctx.restore();
        strokeAndFill(ctx, { ...p, fill: undefined });
      } else {
        strokeAndFill(ctx, p);
      }
      if (rotated) ctx.restore();
      break;
    }
    case 'ellipse':
      ctx.beginPath();
      ctx.ellipse(p.x, p.y, Math.max(0, p.radiusX), Math.max(0, p.radiusY), ((p.rotation ?? 0) * Math.PI) / 180, 0, Math.PI * 2);
      strokeAndFill(ctx, p);
      break;
    case 'polyline':
      if (p.points.length < 4) break;
      ctx.lineCap = p.lineCap ?? 'round';
      ctx.lineJoin = p.lineJoin ?? 'round';
      tracePolyline(ctx, p.points, p.tension ?? 0, p.closed ?? false);
      strokeAndFill(ctx, { ...p, fill: p.closed ? p.fill : undefined });
      break;
    case 'arrow': {
      const pts = p.points;
      if (pts.length < 4) break;
      ctx.lineCap = 'butt';
      ctx.lineJoin = 'miter';
      tracePolyline(ctx, pts, 0, false);
      strokeAndFill(ctx, { ...p, fill: undefined });
      const n = pts.length;
      const angle = Math.atan2(pts[n - 1] - pts[n - 3], pts[n - 2] - pts[n - 4]);
      ctx.save();
      ctx.translate(pts[n - 2], pts[n - 1]);
      ctx.rotate(angle);
      ctx.beginPath();
      ctx.moveTo(0, 0);
      ctx.lineTo(-p.pointerLength, p.pointerWidth / 2);
      ctx.lineTo(-p.pointerLength, -p.pointerWidth / 2);
      ctx.closePath();
      ctx.setLineDash([]);
      ctx.fillStyle = p.fill ?? p.stroke ?? '#000';
      ctx.fill();
      if (p.stroke) {
        ctx.strokeStyle = p.stroke;
        ctx.lineWidth = p.strokeWidth ?? 1;
        ctx.stroke();
      }
      ctx.restore();
      break;
    }
    case 'text': {
      if (p.fontSize * opts.scale < MIN_TEXT_PX || p.lines.length === 0) break;
      ctx.save();
      if (p.rotation) {
        ctx.translate(p.x, p.y);
        ctx.rotate((p.rotation * Math.PI) / 180);
        ctx.translate(-p.x, -p.y);
      }
      ctx.font = `${p.fontSize}px ${p.fontFamily}, Arial, sans-serif`;
      ctx.fillStyle = p.fill;
      ctx.textBaseline = 'middle';
      ctx.textAlign = p.align;
      const x = p.width === undefined || p.align === 'left' ? p.x : p.align === 'center' ? p.x + p.width / 2 : p.x + p.width;
      for (let i = 0; i < p.lines.length; i++) ctx.fillText(p.lines[i], x, p.y + p.lineHeight * (i + 0.5));
      ctx.restore();
      break;
    }
    case 'image': {
      const img = imageFor(p.src);
      if (img instanceof HTMLImageElement) {
        ctx.drawImage(img, p.x, p.y, p.width, p.height);
      } else {
        ctx.fillStyle = p.placeholderFill;
        ctx.fillRect(p.x, p.y, p.width, p.height);
      }
      break;
    }
    case 'pattern':
      break;
  }
  ctx.globalAlpha = 1;
}

export function paintPrimitives(ctx: CanvasRenderingContext2D, list: readonly ScenePrimitive[], opts: PaintOptions): void {
  for (const p of list) paintPrimitive(ctx, p, opts);
}
