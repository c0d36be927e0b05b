/**
 * Sticky shadows as ready rasters for the PDF (pdfkit has no blur), rendered by resvg from the same
 * filter the SVG file uses. (They were the PNG's too while resvg drew it: it blurs each filtered
 * element on its own at several milliseconds apiece. The PNG now draws them with the Skia canvas's
 * shadow, canvas.ts.)
 */
import { Resvg } from '@resvg/resvg-js';
import { shadowFilterSvg, type RectPrimitive, type ShadowImage } from '@wb/board-model';

type Shadow = NonNullable<RectPrimitive['shadow']>;

/** Rasters of one shadow per rect size, kept for the worker's life (a board has few sticky sizes). */
const shadowCache = new Map<string, ShadowImage[]>();
const SHADOW_CACHE_MAX = 500;

/** An opaque fill hides the shadow under the rect, so only a frame of it needs drawing. */
const OPAQUE = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * A rect's drop shadow alone (the rect itself is drawn over it as vector), rendered by resvg from the
 * same filter the SVG file uses, with room for the blur (3σ) and the offset on every side. Under an
 * opaque rect it comes as four strips (the frame around the rect, reaching under the rounded corners):
 * the rasteriser then composites a quarter of the pixels. Each strip is a window of the same render.
 */
export function shadowRaster(shadow: Shadow, rect: RectPrimitive): ShadowImage[] {
  const radius = rect.cornerRadius ?? 0;
  const opaque = !!rect.fill && OPAQUE.test(rect.fill);
  const key = [rect.width, rect.height, radius, opaque, shadow.color, shadow.blur, shadow.offsetX, shadow.offsetY].join('|');
  const hit = shadowCache.get(key);
  if (hit) return hit;
  const pad = Math.ceil(shadow.blur * 1.5 + Math.max(Math.abs(shadow.offsetX), Math.abs(shadow.offsetY))) + 1;
  const right = Math.ceil(rect.width) + pad;
  const bottom = Math.ceil(rect.height) + pad;
  const window = (x: number, y: number, width: number, height: number): ShadowImage => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${x} ${y} ${width} ${height}">` +
      `<defs>${shadowFilterSvg('s', shadow, false)}</defs>` +
      `<rect width="${rect.width}" height="${rect.height}" rx="${radius}" fill="#000" filter="url(#s)"/></svg>`;
    const png = new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng();
    return { href: `data:image/png;base64,${Buffer.from(png).toString('base64')}`, x, y, width, height };
  };
  // Strips reach this far inside the rect: past the rounded corner and its antialiased edge.
  const inset = Math.ceil(radius) + 1;
  const innerRight = Math.floor(rect.width) - inset;
  const innerBottom = Math.floor(rect.height) - inset;
  const pieces =
    opaque && innerRight > inset && innerBottom > inset
      ? [
          window(-pad, -pad, right + pad, pad + inset),
          window(-pad, innerBottom, right + pad, bottom - innerBottom),
          window(-pad, inset, pad + inset, innerBottom - inset),
          window(innerRight, inset, right - innerRight, innerBottom - inset),
        ]
      : [window(-pad, -pad, right + pad, bottom + pad)];
  if (shadowCache.size >= SHADOW_CACHE_MAX) shadowCache.clear();
  shadowCache.set(key, pieces);
  return pieces;
}
