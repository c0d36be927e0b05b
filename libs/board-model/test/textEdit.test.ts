import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addObject,
  applySplice,
  boardToScene,
  caretPlace,
  clipForDisplay,
  diffText,
  editableText,
  getObjects,
  measureText,
  moveIndex,
  objectToJSON,
  readBoard,
  spliceFits,
  storedText,
  textLimitOf,
  updateObject,
  wrapText,
  type CanvasObjectInput,
} from '../src/index.ts';

const sticky = (text: string): CanvasObjectInput => ({
  id: 's',
  type: 'sticky',
  x: 0,
  y: 0,
  width: 120,
  height: 120,
  text,
  backgroundColor: '#FFF2B3',
  textColor: '#333333',
  fontSize: 14,
});

/** Two documents that see each other's updates only when `sync` is called (two browsers, one server). */
function pair(): { a: Y.Doc; b: Y.Doc; sync: () => void } {
  const a = new Y.Doc();
  const b = new Y.Doc();
  const sync = () => {
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
  };
  return { a, b, sync };
}

/** A sticky's or text's content (the object union has no `text` on shapes). */
const textIn = (o: unknown): string | undefined => (o as { text?: string } | null | undefined)?.text;
const mapOf = (doc: Y.Doc) => getObjects(doc).get('s')!;
const typeAt = (doc: Y.Doc, index: number, insert: string) =>
  doc.transact(() => applySplice(editableText(mapOf(doc)), { index, remove: 0, insert }));

describe('diffText: one input event as one splice', () => {
  it('finds an insert, a delete and a replacement', () => {
    expect(diffText('Привет', 'Привет!', 7)).toEqual({ index: 6, remove: 0, insert: '!' });
    expect(diffText('Привет', 'Првет', 2)).toEqual({ index: 2, remove: 1, insert: '' });
    expect(diffText('один два', 'один три', 8)).toEqual({ index: 5, remove: 3, insert: 'три' });
    expect(diffText('same', 'same')).toBeNull();
    expect(diffText('', 'abc', 3)).toEqual({ index: 0, remove: 0, insert: 'abc' });
  });

  it('uses the caret where the answer is ambiguous', () => {
    // "a" typed at the start of "aa": the caret is after the first character.
    expect(diffText('aa', 'aaa', 1)).toEqual({ index: 0, remove: 0, insert: 'a' });
    expect(diffText('aa', 'aaa', 2)).toEqual({ index: 1, remove: 0, insert: 'a' });
    expect(diffText('aa', 'aaa', 3)).toEqual({ index: 2, remove: 0, insert: 'a' });
    // A newline typed between two newlines.
    expect(diffText('a\n\nb', 'a\n\n\nb', 2)).toEqual({ index: 1, remove: 0, insert: '\n' });
  });

  it('never splits a surrogate pair', () => {
    // 😀 is \uD83D\uDE00 and 😁 \uD83D\uDE01: they share the high half.
    const s = diffText('x😀', 'x😁', 3)!;
    expect(s).toEqual({ index: 1, remove: 2, insert: '😁' });
    const t = diffText('😀y', '😁y', 2)!;
    expect(t).toEqual({ index: 0, remove: 2, insert: '😁' });
  });
});

describe('limits: the model is the only limit', () => {
  it('is 4096 for a sticky and 500 for a text', () => {
    expect(textLimitOf('sticky')).toBe(4096);
    expect(textLimitOf('text')).toBe(500);
  });

  it('refuses a splice that passes the limit, accepts one that does not lengthen an over-long text', () => {
    expect(spliceFits(4095, { index: 0, remove: 0, insert: 'a' }, 4096)).toBe(true);
    expect(spliceFits(4096, { index: 0, remove: 0, insert: 'a' }, 4096)).toBe(false);
    expect(spliceFits(4096, { index: 0, remove: 1, insert: 'b' }, 4096)).toBe(true);
    expect(spliceFits(4100, { index: 0, remove: 3, insert: '' }, 4096)).toBe(true);
    expect(spliceFits(4100, { index: 0, remove: 0, insert: 'x' }, 4096)).toBe(false);
  });

  it('moves an index past changes before it and keeps it before an insert at it', () => {
    expect(moveIndex(5, { index: 5, remove: 0, insert: 'abc' })).toBe(5);
    expect(moveIndex(6, { index: 5, remove: 0, insert: 'abc' })).toBe(9);
    expect(moveIndex(7, { index: 5, remove: 4, insert: 'x' })).toBe(6);
    expect(moveIndex(12, { index: 5, remove: 4, insert: 'x' })).toBe(9);
    expect(moveIndex(2, { index: 5, remove: 4, insert: 'x' })).toBe(2);
  });

  it('clips only for display and never halves a pair', () => {
    expect(clipForDisplay('abc', 5)).toBe('abc');
    expect(clipForDisplay('abcdef', 4)).toBe('abcd');
    expect(clipForDisplay('ab😀', 3)).toBe('ab');
  });
});

describe('the text of a sticky as a Y.Text', () => {
  it('is stored as a Y.Text and read as a string; 4096 characters survive', () => {
    const doc = new Y.Doc();
    const long = 'я'.repeat(4096);
    addObject(doc, sticky(long));
    expect(mapOf(doc).get('text')).toBeInstanceOf(Y.Text);
    expect(textIn(objectToJSON(mapOf(doc)))).toBe(long);
    expect(textIn(readBoard(doc).objects[0])).toHaveLength(4096);
  });

  it('two people typing at once in one sticky both keep their words', () => {
    const { a, b, sync } = pair();
    addObject(a, sticky('Идеи:'));
    sync();
    typeAt(a, 5, ' Анна');
    typeAt(b, 5, ' Борис');
    sync();
    const ta = textIn(objectToJSON(mapOf(a)));
    expect(textIn(objectToJSON(mapOf(b)))).toBe(ta);
    expect(ta).toContain(' Анна');
    expect(ta).toContain(' Борис');
  });

  it('a whole-text write (updateObject) changes only what differs, so concurrent typing survives', () => {
    const { a, b, sync } = pair();
    addObject(a, sticky('начало конец'));
    sync();
    updateObject(a, 's', { text: 'НАЧАЛО конец' });
    typeAt(b, 12, '!');
    sync();
    expect(textIn(objectToJSON(mapOf(a)))).toBe('НАЧАЛО конец!');
    expect(textIn(objectToJSON(mapOf(b)))).toBe('НАЧАЛО конец!');
  });

  it('an old board with a plain string is read, and becomes a Y.Text on the first edit (an undo of the edit keeps the Y.Text)', () => {
    const doc = new Y.Doc();
    addObject(doc, sticky('x'));
    mapOf(doc).set('text', 'старый текст');
    expect(storedText(mapOf(doc))).toBe('старый текст');
    expect(textIn(objectToJSON(mapOf(doc)))).toBe('старый текст');
    const origin = { local: true };
    const undo = new Y.UndoManager(getObjects(doc), { trackedOrigins: new Set([origin]), captureTimeout: 0 });
    doc.transact(() => editableText(mapOf(doc)), 'text-upgrade');
    doc.transact(() => applySplice(editableText(mapOf(doc)), { index: 0, remove: 0, insert: 'Не ' }), origin);
    expect(mapOf(doc).get('text')).toBeInstanceOf(Y.Text);
    expect(textIn(objectToJSON(mapOf(doc)))).toBe('Не старый текст');
    undo.undo();
    expect(mapOf(doc).get('text')).toBeInstanceOf(Y.Text);
    expect(textIn(objectToJSON(mapOf(doc)))).toBe('старый текст');
  });

  it('typed control characters are dropped as they always were', () => {
    const doc = new Y.Doc();
    addObject(doc, sticky(''));
    expect(doc.transact(() => applySplice(editableText(mapOf(doc)), { index: 0, remove: 0, insert: 'A\u0000B' }))).toBe('AB');
    expect(textIn(objectToJSON(mapOf(doc)))).toBe('AB');
  });

  it('a text two people made longer than the limit stays on the board (drawn cut, stored whole)', () => {
    const { a, b, sync } = pair();
    addObject(a, sticky('x'.repeat(4090)));
    sync();
    typeAt(a, 0, 'a'.repeat(5));
    typeAt(b, 0, 'b'.repeat(5));
    sync();
    expect((mapOf(a).get('text') as Y.Text).length).toBe(4100);
    expect(textIn(objectToJSON(mapOf(a)))).toHaveLength(4096);
    const scene = boardToScene(a, { area: { x: -10, y: -10, width: 200, height: 200 } });
    expect(scene.items.map((i) => i.id)).toEqual(['s']);
    // Moving it still works, and does not cut the stored text.
    expect(updateObject(a, 's', { x: 50 })).toBe(true);
    expect((mapOf(a).get('text') as Y.Text).length).toBe(4100);
  });

  it('the export reads a Y.Text as its string', () => {
    const doc = new Y.Doc();
    addObject(doc, sticky('экспорт'));
    const scene = boardToScene(doc, { area: { x: -10, y: -10, width: 200, height: 200 } });
    const text = scene.items[0]!.primitives.find((p) => p.kind === 'text');
    expect(text && 'lines' in text ? text.lines : null).toEqual(['экспорт']);
  });
});

describe('caretPlace: where another person’s caret is drawn', () => {
  const base = { id: 's', zIndex: 0, reactions: [], x: 100, y: 50, width: 120, height: 120, backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14 };
  it('follows the drawn lines of a sticky, and is hidden below what it shows', () => {
    const obj = { ...base, type: 'sticky' as const, text: 'один два три четыре пять шесть', textAlign: 'left' as const };
    const lines = wrapText(obj.text, 14, 100);
    expect(lines.length).toBeGreaterThan(1);
    const start = caretPlace(obj, 0)!;
    expect(start).toEqual({ x: 110, y: 60, height: 14 * 1.2 });
    const secondLineStart = obj.text.indexOf(lines[1]!);
    const p = caretPlace(obj, secondLineStart + 1)!;
    expect(p.y).toBeCloseTo(60 + 14 * 1.2);
    expect(p.x).toBeCloseTo(110 + measureText(lines[1]!.slice(0, 1), 14));
    const tall = { ...obj, text: 'x\n'.repeat(20) };
    expect(caretPlace(tall, tall.text.length)).toBeNull();
  });

  it('puts a text object’s caret after the characters of its line', () => {
    const obj = { id: 't', zIndex: 0, type: 'text' as const, x: 0, y: 0, text: 'ab\ncd', fontSize: 20, fill: '#000', fontFamily: 'x' };
    expect(caretPlace(obj, 4)).toEqual({ x: measureText('c', 20), y: 24, height: 24 });
  });
});
