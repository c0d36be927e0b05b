/**
 * Text as glyph outlines for the PNG: each line is laid out with fontkit (kerning and emoji sequences
 * from the fonts' own tables) and drawn as one outline per glyph (canvas.ts keeps them as Skia paths).
 * The rasteriser then does no text layout or font fallback of its own, and the glyphs sit where the
 * PDF's embedded-font text puts them (both use the fonts' own advances and the shared line layout).
 *
 * (While resvg drew the PNG, the outlines went into the SVG as <use> placed inside a group scaled by
 * fontSize / 2048 written with 3 decimals: 0.009 for 0.00879 at 18 px, so that text came out 2.4 %
 * wider than the PDF's and the canvas's. The canvas path scales exactly.)
 */
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { fontRuns } from '@wb/board-model';
import type { FontFiles } from './fonts.ts';

type Font = fontkit.Font;

const loaded = new Map<string, Font>();
function load(file: string): Font {
  let font = loaded.get(file);
  if (!font) {
    font = fontkit.create(readFileSync(file)) as Font;
    loaded.set(file, font);
  }
  return font;
}

interface RunLayout {
  /** Glyph ids with their offsets and advances, in the text font's units. */
  glyphs: Array<{ id: string; dx: number; dy: number; advance: number }>;
}

/**
 * Layouts and outlines kept for the worker's life: fontkit's shaping was most of an export's SVG
 * build, and boards repeat words, lines and whole texts from one export to the next.
 */
const layouts = new Map<string, RunLayout>();
const outlines = new Map<string, string>();
const LAYOUT_CACHE_MAX = 20_000;

function layoutRun(fonts: Record<'text' | 'emoji', Font>, kind: 'text' | 'emoji', text: string): RunLayout {
  const key = `${kind[0]}${text}`;
  const hit = layouts.get(key);
  if (hit) return hit;
  const font = fonts[kind];
  const k = fonts.text.unitsPerEm / font.unitsPerEm;
  const layout = font.layout(text);
  const run: RunLayout = {
    glyphs: layout.glyphs.map((glyph, i) => {
      const pos = layout.positions[i]!;
      const id = `g${kind[0]}${glyph.id}`;
      if (!outlines.has(id)) outlines.set(id, glyph.path.toSVG());
      return { id, dx: pos.xOffset * k, dy: pos.yOffset * k, advance: pos.xAdvance * k };
    }),
  };
  if (layouts.size >= LAYOUT_CACHE_MAX) layouts.clear();
  layouts.set(key, run);
  return run;
}

/** A line laid out in the text font's units: each glyph's outline id and pen position, and the width. */
export interface LineGlyphs {
  glyphs: Array<{ id: string; x: number; y: number }>;
  width: number;
  /** Text font units per em (both fonts have 2048): fontSize / unitsPerEm scales to board units. */
  unitsPerEm: number;
}

export interface GlyphFonts {
  layoutLine(line: string): LineGlyphs;
  /** SVG path data of a glyph outline (y up, font units); '' for a blank glyph. */
  outline(id: string): string;
}

/** The bundled fonts' layout for the PNG, the SVG outlines and the PDF alike. */
export function glyphFonts(files: FontFiles): GlyphFonts {
  const fonts = { text: load(files.text), emoji: load(files.emoji) };
  return {
    layoutLine(line) {
      const glyphs: LineGlyphs['glyphs'] = [];
      let pen = 0;
      for (const run of fontRuns(line)) {
        for (const g of layoutRun(fonts, run.emoji ? 'emoji' : 'text', run.text).glyphs) {
          if (outlines.get(g.id)) glyphs.push({ id: g.id, x: pen + g.dx, y: g.dy });
          pen += g.advance;
        }
      }
      return { glyphs, width: pen, unitsPerEm: fonts.text.unitsPerEm };
    },
    outline: (id) => outlines.get(id) ?? '',
  };
}

/** Where a line of `width` font units starts for its anchor, and its scale, in board units. */
export function linePlacement(layout: LineGlyphs, fontSize: number, x: number, anchor: 'start' | 'middle' | 'end') {
  const scale = fontSize / layout.unitsPerEm;
  const width = layout.width * scale;
  return { left: anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width, scale };
}
