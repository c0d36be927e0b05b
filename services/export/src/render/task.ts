/**
 * One export, run inside a worker thread: board state → scene → SVG, PNG (Skia canvas, canvas.ts) or
 * PDF (pdfkit, pdf.ts). Everything CPU-heavy is here so the service's event loop only does I/O.
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
import { drawScene } from './canvas.ts';
import { glyphFonts } from './glyphs.ts';
import { sceneToPdf } from './pdf.ts';
import { bandRows, bandScene } from './bands.ts';
import { assemblePng, encodeBand, type PngBand } from './png.ts';
import { shadowRaster } from './raster.ts';
import { stopwatch } from '../domain/stopwatch.ts';

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

/** A PNG task for band `index` of `count` (bands.ts): answered with that band's deflated rows, not a file. */
export interface BandTask extends RenderTask {
  format: 'png';
  band: { index: number; count: number };
}

/** Milliseconds each step took in the thread (scene, svg, draw, pack, deflate, pdf), for the profile. */
export type Phases = Record<string, number>;
type Refused = { ok: false; reason: 'too-many-objects'; items: number };
export type RenderResult = { ok: true; bytes: Uint8Array; items: number; phases: Phases } | Refused;
export type BandResult = { ok: true; band: PngBand; items: number; phases: Phases } | Refused;

/** The SVG file's own @font-face, so a browser opening it alone uses the same families where installed. */
const SVG_FONT_CSS = `text{font-family:'${SCENE_FONT_FAMILY}','${SCENE_EMOJI_FAMILY}',sans-serif}`;

export default async function render(task: BandTask): Promise<BandResult>;
export default async function render(task: RenderTask): Promise<RenderResult>;
export default async function render(task: RenderTask | BandTask): Promise<RenderResult | BandResult> {
  const { phases, lap } = stopwatch(Math.round);
  const scene = boardToScene(task.board, { area: task.area, background: task.background });
  lap('scene');
  if (scene.items.length > task.maxObjects)
    return { ok: false, reason: 'too-many-objects', items: scene.items.length };
  const items = scene.items.length;
  const imageHref = (src: string) => task.images[src];
  if (task.format === 'svg') {
    // The SVG file keeps real text (selectable, searchable), in the families it names.
    const bytes = new TextEncoder().encode(sceneToSvg(scene, { imageHref, fontCss: SVG_FONT_CSS }));
    lap('svg');
    return { ok: true, bytes, items, phases };
  }
  if (task.format === 'pdf') {
    const bytes = await sceneToPdf(scene, { fonts: task.fonts, imageHref, shadowImage: shadowRaster });
    lap('pdf');
    return { ok: true, bytes, items, phases };
  }
  // The PNG is drawn on a Skia canvas straight from the scene (canvas.ts), text as the bundled fonts'
  // outlines (glyphs.ts); a large one in bands, one per thread (bands.ts).
  const { index, count } = 'band' in task ? task.band : { index: 0, count: 1 };
  const part = count > 1 ? bandScene(scene, bandRows(scene, count)[index]!) : scene;
  const { rgba, width, height } = drawScene(part, { glyphs: glyphFonts(task.fonts), imageHref });
  lap('draw');
  const band = encodeBand(rgba, width, height, index === 0, index === count - 1, lap);
  if ('band' in task) return { ok: true, band, items, phases };
  return { ok: true, bytes: assemblePng(width, height, [band]), items, phases };
}
