// fontkit ships no types; only what glyphs.ts uses.
declare module 'fontkit' {
  export interface Glyph {
    id: number;
    path: { toSVG(): string };
  }
  export interface GlyphPosition {
    xAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  export interface Font {
    unitsPerEm: number;
    layout(text: string): { glyphs: Glyph[]; positions: GlyphPosition[] };
  }
  export function create(buffer: Buffer): Font;
}
