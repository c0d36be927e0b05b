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

/** One per export: the glyph outlines used by this SVG, written once each. */
export function glyphText(files: FontFiles): GlyphText {
  const fonts = { text: load(files.text), emoji: load(files.emoji) };
  const used = new Map<string, string>();

  function glyphRef(kind: 'text' | 'emoji', glyph: fontkit.Glyph): string | null {
    const id = `g${kind[0]}${glyph.id}`;
    if (!used.has(id)) {
      const d = glyph.path.toSVG();
      used.set(id, d ? `<path id="${id}" d="${d}"/>` : '');
    }
    return used.get(id) ? id : null;
  }

  return {
    textLine(line, fontSize, x, y, anchor) {
      const parts: string[] = [];
      let pen = 0; // in font units (both fonts have 2048 units per em)
      const upm = fonts.text.unitsPerEm;
      for (const run of fontRuns(line)) {
        const kind = run.emoji ? 'emoji' : 'text';
        const font = fonts[kind];
        const k = upm / font.unitsPerEm;
        const layout = font.layout(run.text);
        layout.glyphs.forEach((glyph, i) => {
          const pos = layout.positions[i]!;
          const id = glyphRef(kind, glyph);
          if (id)
            parts.push(`<use href="#${id}" x="${num(pen + pos.xOffset * k)}" y="${num(pos.yOffset * k)}"/>`);
          pen += pos.xAdvance * k;
        });
      }
      const scale = fontSize / upm;
      const width = pen * scale;
      const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
      return `<g transform="translate(${num(left)} ${num(y)}) scale(${num(scale)} ${num(-scale)})">${parts.join('')}</g>`;
    },
    defs: () => [...used.values()].join(''),
  };
}
