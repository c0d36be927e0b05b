/**
 * A plain text pasted on the board becomes a text object (issue 35 item 5; the spec is silent):
 * cleaned as every stored text is, centred on the pointer (or the view's centre), kept inside a
 * bounded canvas. A text longer than the text object's limit is refused as a whole, never cut.
 */
import { DEFAULT_FONT_FAMILY, EDITOR_TEXT_MAX } from '../constants.ts';
import { cleanText } from '../cleanText.ts';
import { boundsOf } from '../geometry.ts';
import { textSchema, type TextObject } from '../objects.ts';
import type { Point } from '../templates.ts';
import { canvasArea, clampMove, type Limits } from './limits.ts';

/** The text object's limit (its schema's `text` max). */
export const PASTE_TEXT_MAX = EDITOR_TEXT_MAX;

export type TextPaste = { ok: true; object: TextObject } | { ok: false; reason: 'empty' | 'too-long'; length: number };

/** Line breaks of every platform as '\n' (cleanText would drop a bare '\r' and join the lines). */
const normaliseBreaks = (text: string) => text.replace(/\r\n?/g, '\n');

export function planTextPaste(
  raw: string,
  at: Point,
  style: { color: string; fontSize: number },
  limits: Limits,
  base: { id: string; zIndex: number },
): TextPaste {
  // Leading and trailing blank lines are the clipboard's, not the text's (a copied line ends in '\n').
  const text = cleanText(normaliseBreaks(raw)).replace(/^\s*\n|\s+$/g, '');
  if (text.trim() === '') return { ok: false, reason: 'empty', length: 0 };
  if (text.length > PASTE_TEXT_MAX) return { ok: false, reason: 'too-long', length: text.length };
  let object: TextObject = {
    ...base,
    type: 'text',
    x: 0,
    y: 0,
    text,
    fontSize: style.fontSize,
    fill: style.color,
    fontFamily: DEFAULT_FONT_FAMILY,
  };
  const size = boundsOf(object);
  object = { ...object, x: at.x - size.width / 2, y: at.y - size.height / 2 };
  const area = canvasArea(limits);
  if (area) {
    // Centred on a point near the edge (or outside): moved in, as a template is.
    const box = boundsOf(object);
    const inside = {
      x: Math.min(Math.max(box.x, area.x), area.x + area.width - box.width),
      y: Math.min(Math.max(box.y, area.y), area.y + area.height - box.height),
    };
    const d = clampMove({ ...box, ...inside }, 0, 0, limits);
    object = { ...object, x: inside.x + d.x, y: inside.y + d.y };
  }
  return { ok: true, object: textSchema.parse(object) };
}
