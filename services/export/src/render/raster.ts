/**
 * SVG → PNG with resvg, tuned for large boards: sticky shadows arrive as ready rasters, because resvg
 * blurs each filtered element on its own at several milliseconds apiece (4 of the 6 seconds of a
 * 2,000-object board went to 450 sticky shadows).
 */
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { SCENE_FONT_FAMILY, shadowFilterSvg, type RectPrimitive, type ShadowImage } from '@wb/board-model';
import type { FontFiles } from './fonts.ts';

type Shadow = NonNullable<RectPrimitive['shadow']>;

function resvgOptions(fonts: FontFiles): ResvgRenderOptions {
  return {
    font: { fontFiles: [fonts.text, fonts.emoji], loadSystemFonts: false, defaultFontFamily: SCENE_FONT_FAMILY },
    fitTo: { mode: 'original' },
    // Board content draws with crisp 1-px grid lines like the canvas; shapes keep antialiasing.
    shapeRendering: 2,
    textRendering: 1,
    imageRendering: 0,
  };
}

/** Rasters of one shadow per rect size, kept for the worker's life (a board has few sticky sizes). */
const shadowCache = new Map<string, ShadowImage>();
const SHADOW_CACHE_MAX = 500;

/**
 * A rect's drop shadow alone (the rect itself is drawn over it as vector), rendered by resvg from the
 * same filter the SVG file uses, with room for the blur (3σ) and the offset on every side.
 */
export function shadowRaster(shadow: Shadow, rect: RectPrimitive): ShadowImage {
  const key = [rect.width, rect.height, rect.cornerRadius ?? 0, shadow.color, shadow.blur, shadow.offsetX, shadow.offsetY].join('|');
  const hit = shadowCache.get(key);
  if (hit) return hit;
  const pad = Math.ceil(shadow.blur * 1.5 + Math.max(Math.abs(shadow.offsetX), Math.abs(shadow.offsetY))) + 1;
  const width = Math.ceil(rect.width) + 2 * pad;
  const height = Math.ceil(rect.height) + 2 * pad;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${-pad} ${-pad} ${width} ${height}">` +
    `<defs>${shadowFilterSvg('s', shadow, false)}</defs>` +
    `<rect width="${rect.width}" height="${rect.height}" rx="${rect.cornerRadius ?? 0}" fill="#000" filter="url(#s)"/></svg>`;
  const png = new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng();
  const image: ShadowImage = {
    href: `data:image/png;base64,${Buffer.from(png).toString('base64')}`,
    x: -pad,
    y: -pad,
    width,
    height,
  };
  if (shadowCache.size >= SHADOW_CACHE_MAX) shadowCache.clear();
  shadowCache.set(key, image);
  return image;
}

export function svgToPng(svg: string, fonts: FontFiles): Uint8Array {
  return new Resvg(svg, resvgOptions(fonts)).render().asPng();
}
