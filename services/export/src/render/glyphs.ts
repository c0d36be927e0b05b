/**
 * Text as glyph outlines for the PNG and PDF: each line is laid out with fontkit (kerning and emoji
 * sequences from the fonts' own tables) and drawn as <use> of one outline per glyph kept in <defs>.
 * The rasteriser then does no text layout or font fallback of its own, which on a board of a few
 * hundred stickies was most of the render time, and every renderer draws exactly the same shapes.
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

const num = (n: number): string => String(Math.round(n * 1000) / 1000);

export interface GlyphText {
  textLine(line: string, fontSize: number, x: number, y: number, anchor: 'start' | 'middle' | 'end'): string;
  defs(): string;
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

/** One per export: the glyph outlines used by this SVG, written once each. */
export function glyphText(files: FontFiles): GlyphText {
  const fonts = { text: load(files.text), emoji: load(files.emoji) };
  const used = new Set<string>();

  return {
    textLine(line, fontSize, x, y, anchor) {
      const parts: string[] = [];
      let pen = 0; // in the text font's units (both fonts have 2048 units per em)
      for (const run of fontRuns(line)) {
        for (const g of layoutRun(fonts, run.emoji ? 'emoji' : 'text', run.text).glyphs) {
          if (outlines.get(g.id)) {
            used.add(g.id);
            parts.push(`<use href="#${g.id}" x="${num(pen + g.dx)}" y="${num(g.dy)}"/>`);
          }
          pen += g.advance;
        }
      }
      const scale = fontSize / fonts.text.unitsPerEm;
      const width = pen * scale;
      const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
      return `<g transform="translate(${num(left)} ${num(y)}) scale(${num(scale)} ${num(-scale)})">${parts.join('')}</g>`;
    },
    defs: () => [...used].map((id) => `<path id="${id}" d="${outlines.get(id)}"/>`).join(''),
  };
}
