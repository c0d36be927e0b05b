/**
 * Text measuring and wrapping shared by the canvas and the export. Both draw every board text in the
 * bundled DejaVu Sans (emoji in Noto Emoji) and break lines with these advances, never with their own
 * text engine, so a sticky puts the same words on the same lines on screen, in SVG, PNG and PDF.
 */
import { EMOJI_ADVANCE_EM, TEXT_ADVANCES, TEXT_UNITS_PER_EM } from './font-metrics.ts';

/** The family every scene text is drawn in; the stored fontFamily is not honoured (see README). */
export const SCENE_FONT_FAMILY = 'DejaVu Sans';
export const SCENE_EMOJI_FAMILY = 'Noto Emoji';
/** Line advance as a multiple of the font size (konva's lineHeight). */
export const SCENE_LINE_HEIGHT = 1.2;

const advances = new Map<number, number>();
for (const [first, list] of TEXT_ADVANCES) {
  list.forEach((w, i) => {
    if (w >= 0) advances.set(first + i, w / TEXT_UNITS_PER_EM);
  });
}
/** A glyph the table does not know: an average DejaVu Sans letter. */
const FALLBACK_ADVANCE_EM = 0.62;

const EMOJI_RE = /\p{Extended_Pictographic}/u;
/** Joiners and selectors take no room of their own inside an emoji sequence. */
const ZERO_WIDTH_RE = /[\u200b-\u200d\ufe0e\ufe0f\u20e3]|\p{Emoji_Modifier}/u;

export function isEmoji(char: string): boolean {
  return EMOJI_RE.test(char);
}

/** Width of one line in board units at the given font size. */
export function measureText(text: string, fontSize: number): number {
  let em = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    if (ZERO_WIDTH_RE.test(char)) continue;
    if (EMOJI_RE.test(char) && !advances.has(cp)) em += EMOJI_ADVANCE_EM;
    else em += advances.get(cp) ?? FALLBACK_ADVANCE_EM;
  }
  return em * fontSize;
}

/** Breaks a word wider than the box at character boundaries (konva does the same). */
function breakWord(word: string, width: number, fontSize: number): string[] {
  const parts: string[] = [];
  let current = '';
  for (const char of word) {
    if (current && measureText(current + char, fontSize) > width) {
      parts.push(current);
      current = char;
    } else current += char;
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * Word wrap into a box `width` wide: explicit newlines are kept, words move to the next line when they
 * do not fit, a single word wider than the box is broken by characters. `maxLines` cuts what would
 * fall below a fixed-height box (a sticky). Without a width the text is only split at newlines.
 */
export function wrapText(text: string, fontSize: number, width?: number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  const push = (line: string): boolean => {
    if (lines.length >= maxLines) return false;
    lines.push(line);
    return true;
  };
  for (const paragraph of text.split('\n')) {
    if (width === undefined || measureText(paragraph, fontSize) <= width) {
      if (!push(paragraph)) break;
      continue;
    }
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (measureText(candidate, fontSize) <= width) {
        line = candidate;
        continue;
      }
      if (line && !push(line)) return lines;
      const pieces = measureText(word, fontSize) > width ? breakWord(word, width, fontSize) : [word];
      for (const piece of pieces.slice(0, -1)) if (!push(piece)) return lines;
      line = pieces.at(-1) ?? '';
    }
    if (!push(line)) break;
  }
  return lines;
}

/** Splits a line into runs of plain text and emoji, each drawn in its own bundled font. */
export function fontRuns(line: string): Array<{ text: string; emoji: boolean }> {
  const runs: Array<{ text: string; emoji: boolean }> = [];
  for (const char of line) {
    const emoji = EMOJI_RE.test(char) || (ZERO_WIDTH_RE.test(char) && runs.at(-1)?.emoji === true);
    const last = runs.at(-1);
    if (last && last.emoji === emoji) last.text += char;
    else runs.push({ text: char, emoji });
  }
  return runs;
}
