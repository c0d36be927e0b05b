/**
 * Text edited together (issue 35 item 4): the text of a sticky or text object is a Y.Text inside
 * the object's Y.Map, so two people typing in one sticky both keep their words. The editor turns
 * each input event into one splice (diffText) and applies it at its index; the limits are the
 * model's (textLimitOf), checked on what an edit adds, never by cutting what is stored. Pure but
 * for the Y.Text helpers at the bottom, which only touch the map they are given.
 */
import * as Y from 'yjs';
import { EDITOR_TEXT_MAX, STICKER_TEXT_MAX } from './constants.ts';
import { cleanText } from './cleanText.ts';
import type { ObjectType } from './objects.ts';

export const TEXT_FIELD = 'text';

/** Types whose text is a Y.Text. */
export const TEXT_TYPES: readonly ObjectType[] = ['sticky', 'text'];

/** The most characters (UTF-16 units, as the schema counts) the model stores for the type. */
export function textLimitOf(type: 'sticky' | 'text'): number {
  return type === 'sticky' ? STICKER_TEXT_MAX : EDITOR_TEXT_MAX;
}

/** One edit of a text: `remove` characters at `index`, then `insert` there. */
export interface TextSplice {
  index: number;
  remove: number;
  insert: string;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The one splice turning `before` into `after`, or null when they are equal. `caret` (where the
 * caret is in `after`) settles the ambiguous cases: typing "a" inside "aa" is an insert before the
 * caret, not at the end. A surrogate pair is never split.
 */
export function diffText(before: string, after: string, caret?: number): TextSplice | null {
  if (before === after) return null;
  let suffixMax = Math.min(before.length, after.length);
  if (caret !== undefined) suffixMax = Math.min(suffixMax, Math.max(0, after.length - caret));
  let s = 0;
  while (s < suffixMax && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  if (s > 0 && s < before.length && isLow(before.charCodeAt(before.length - s))) s--;
  const prefixMax = Math.min(before.length - s, after.length - s);
  let p = 0;
  while (p < prefixMax && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  if (p > 0 && isHigh(before.charCodeAt(p - 1))) p--;
  return { index: p, remove: before.length - s - p, insert: after.slice(p, after.length - s) };
}

/**
 * Whether a splice may be applied under `max`: the result fits, or it does not make an over-long
 * text (two people typing at once may pass the limit together) any longer. Deleting is always fine.
 */
export function spliceFits(length: number, splice: TextSplice, max: number): boolean {
  const next = length - splice.remove + splice.insert.length;
  return next <= max || next <= length;
}

/** Where index `i` goes after `splice`: before an insert at `i` it stays (the other person's words follow it). */
export function moveIndex(i: number, splice: TextSplice): number {
  if (i <= splice.index) return i;
  if (i <= splice.index + splice.remove) return splice.index + splice.insert.length;
  return i - splice.remove + splice.insert.length;
}

/**
 * A stored text cut to the model's limit, for drawing only: an over-long Y.Text (two people who
 * typed at once) would otherwise fail its schema and vanish for everyone. The stored text is kept.
 */
export function clipForDisplay(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, isHigh(text.charCodeAt(max - 1)) ? max - 1 : max);
}

/** The object's text as it is stored: a Y.Text, or a plain string (boards written before issue 35). */
export function storedText(map: Y.Map<unknown>): Y.Text | string | null {
  const value = map.get(TEXT_FIELD);
  return value instanceof Y.Text || typeof value === 'string' ? value : null;
}

/**
 * The object's Y.Text, made from its plain string on the first edit. The editor makes it in a
 * transaction of its own that no history tracks: undoing an edit then never turns the text back
 * into a string under words someone else typed into the Y.Text since.
 */
export function editableText(map: Y.Map<unknown>): Y.Text {
  const value = map.get(TEXT_FIELD);
  if (value instanceof Y.Text) return value;
  return map.set(TEXT_FIELD, new Y.Text(typeof value === 'string' ? value : ''));
}

/** Applies a splice (its insert cleaned as every stored text is); answers the text inserted. */
export function applySplice(text: Y.Text, splice: TextSplice): string {
  const insert = cleanText(splice.insert);
  if (splice.remove > 0) text.delete(splice.index, splice.remove);
  if (insert) text.insert(splice.index, insert);
  return insert;
}

/** Makes `text` hold `value` with the smallest splice (a whole-text write such as a template's). */
export function replaceText(text: Y.Text, value: string): void {
  const splice = diffText(text.toString(), value);
  if (splice) applySplice(text, splice);
}
