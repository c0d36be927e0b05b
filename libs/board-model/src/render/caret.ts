/**
 * Where a caret at a text index is drawn on the board (issue 35 item 4: another person's caret in a
 * sticky they are typing in), laid out with the same wrapping as the drawing itself (text.ts), so the
 * line lands between the glyphs everyone sees. Pure.
 */
import { SCENE_STYLE } from './scene.ts';
import { SCENE_LINE_HEIGHT, measureText, wrapText } from './text.ts';
import type { StickyObject, TextObject } from '../objects.ts';

export interface CaretPlace {
  x: number;
  y: number;
  height: number;
}

/** The caret's top and height in board units, or null when its line is below what a sticky shows. */
export function caretPlace(obj: StickyObject | TextObject, index: number): CaretPlace | null {
  const text = obj.text;
  const i = Math.max(0, Math.min(text.length, Math.floor(index)));
  const fs = obj.fontSize;
  const height = fs * SCENE_LINE_HEIGHT;
  if (obj.type === 'text') {
    const lines = text.slice(0, i).split('\n');
    const line = lines.length - 1;
    return { x: obj.x + measureText(lines[line] ?? '', fs), y: obj.y + line * height, height };
  }
  const pad = SCENE_STYLE.stickyPadding;
  const innerW = Math.max(0, obj.width - 2 * pad);
  const maxLines = Math.max(0, Math.floor((obj.height - 2 * pad) / height));
  // The rest of the word the caret is in goes with it: a word that moves to the next line takes the caret along.
  const rest = /^[^\s]*/.exec(text.slice(i))?.[0] ?? '';
  const lines = wrapText(text.slice(0, i) + rest, fs, innerW);
  const line = Math.max(0, lines.length - 1);
  if (line >= maxLines) return null;
  const last = lines[line] ?? '';
  const head = rest && last.endsWith(rest) ? last.slice(0, last.length - rest.length) : last;
  const full = wrapText(text, fs, innerW, line + 1)[line] ?? last;
  const free = innerW - measureText(full, fs);
  const offset = obj.textAlign === 'center' ? free / 2 : obj.textAlign === 'right' ? free : 0;
  return { x: obj.x + pad + offset + measureText(head, fs), y: obj.y + pad + line * height, height };
}
