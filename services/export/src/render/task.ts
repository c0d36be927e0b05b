/**
 * One export, run inside a worker thread: board state → scene → SVG (→ PNG by resvg), or scene → PDF
 * (pdfkit, pdf.ts). Everything CPU-heavy is here so the service's event loop only does I/O.
 */
import {
  SCENE_EMOJI_FAMILY,
  SCENE_FONT_FAMILY,
  boardToScene,
  sceneToSvg,
  type Area,
  type BoardSnapshot,
} from '@wb/board-model';
import type { FontFiles } from './fonts.ts';
import { glyphText } from './glyphs.ts';
import { sceneToPdf } from './pdf.ts';
import { shadowRaster, svgToPng } from './raster.ts';

export type ExportFormat = 'png' | 'svg' | 'pdf';

export interface RenderTask {
  format: ExportFormat;
  board: BoardSnapshot;
  background?: string;
  area: Area;
  /** Image bytes by `src`, read from the board's own store by the caller; others draw as placeholders. */
  images: Record<string, string>;
  fonts: FontFiles;
  /** Refuses a scene drawing more items than this (checked after culling to the area). */
  maxObjects: number;
}

export type RenderResult =
  { ok: true; bytes: Uint8Array; items: number } | { ok: false; reason: 'too-many-objects'; items: number };

/** The SVG file's own @font-face, so a browser opening it alone uses the same families where installed. */
const SVG_FONT_CSS = `text{font-family:'${SCENE_FONT_FAMILY}','${SCENE_EMOJI_FAMILY}',sans-serif}`;

export default async function render(task: RenderTask): Promise<RenderResult> {
  const scene = boardToScene(task.board, { area: task.area, background: task.background });
  if (scene.items.length > task.maxObjects)
    return { ok: false, reason: 'too-many-objects', items: scene.items.length };
  const items = scene.items.length;
  const imageHref = (src: string) => task.images[src];
  if (task.format === 'svg') {
    // The SVG file keeps real text (selectable, searchable), in the families it names.
    const svg = sceneToSvg(scene, { imageHref, fontCss: SVG_FONT_CSS });
    return { ok: true, bytes: new TextEncoder().encode(svg), items };
  }
  if (task.format === 'pdf')
    return { ok: true, bytes: await sceneToPdf(scene, { fonts: task.fonts, imageHref, shadowImage: shadowRaster }), items };
  // The PNG draws text as the bundled fonts' outlines (glyphs.ts).
  const glyphs = glyphText(task.fonts);
  const svg = sceneToSvg(scene, {
    imageHref,
    textLine: glyphs.textLine,
    extraDefs: glyphs.defs,
    shadowImage: shadowRaster,
  });
  return { ok: true, bytes: svgToPng(svg, task.fonts), items };
}
