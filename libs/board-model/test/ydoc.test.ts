import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  ARROWS_KEY,
  OBJECTS_KEY,
  addArrow,
  addObject,
  clearBoard,
  countObjects,
  deleteObjects,
  getArrows,
  getObjects,
  nextZIndex,
  objectToJSON,
  readBoard,
  toggleReaction,
  updateObject,
  type CanvasObjectInput,
} from '../src/index.ts';

const sticky = (id: string, extra = {}): CanvasObjectInput => ({
  id,
  type: 'sticky',
  x: 0,
  y: 0,
  width: 120,
  height: 120,
  text: 'Новый стикер',
  backgroundColor: '#FFF2B3',
  textColor: '#333333',
  fontSize: 14,
  ...extra,
});
const rect = (id: string): CanvasObjectInput => ({
  id,
  type: 'rectangle',
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  fill: '#fff',
  stroke: '#000',
  strokeWidth: 1,
});
const path = (id: string): CanvasObjectInput => ({
  id,
  type: 'path',
  points: [0, 0, 1, 1],
  stroke: '#000',
  strokeWidth: 2,
});

/** Exchanges what each side is missing, as the y-websocket sync step does. */
function sync(a: Y.Doc, b: Y.Doc) {
  const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
  const toA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
  Y.applyUpdate(b, toB);
  Y.applyUpdate(a, toA);
}

describe('board document', () => {
  it('stores each object as a Y.Map of fields under the "objects" map', () => {
    const doc = new Y.Doc();
    const stored = addObject(doc, sticky('s1'));
    expect(OBJECTS_KEY).toBe('objects');
    expect(ARROWS_KEY).toBe('arrows');
    const map = doc.getMap(OBJECTS_KEY).get('s1');
    expect(map).toBeInstanceOf(Y.Map);
    expect((map as Y.Map<unknown>).get('reactions')).toBeInstanceOf(Y.Array);
    expect(objectToJSON(getObjects(doc).get('s1')!)).toEqual(stored);
    expect(stored).toMatchObject({ zIndex: 0, textAlign: 'left', reactions: [] });
    expect(countObjects(doc)).toBe(1);
  });

  it('rejects invalid objects and patches', () => {
    const doc = new Y.Doc();
    expect(() => addObject(doc, { ...sticky('s'), x: NaN } as CanvasObjectInput)).toThrow();
    expect(() => addObject(doc, { ...sticky('s'), x: Infinity } as CanvasObjectInput)).toThrow();
    addObject(doc, sticky('s'));
    expect(() => updateObject(doc, 's', { width: -1 })).toThrow();
    expect(() => updateObject(doc, 's', { text: 'x'.repeat(4097) })).toThrow();
    expect(updateObject(doc, 'missing', { x: 1 })).toBe(false);
    expect(objectToJSON(getObjects(doc).get('s')!)).toMatchObject({ width: 120 });
  });

  it('merges concurrent edits of different fields of one object', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    addObject(a, sticky('s1'));
    sync(a, b);
    updateObject(a, 's1', { x: 300, y: 40 });
    updateObject(b, 's1', { backgroundColor: '#FFADAD', text: 'Привет' });
    sync(a, b);
    for (const doc of [a, b]) {
      expect(readBoard(doc).objects[0]).toMatchObject({
        x: 300,
        y: 40,
        backgroundColor: '#FFADAD',
        text: 'Привет',
      });
    }
  });

  it('only writes fields that change', () => {
    const doc = new Y.Doc();
    addObject(doc, sticky('s1'));
    let updates = 0;
    doc.on('update', () => updates++);
    updateObject(doc, 's1', { x: 0, y: 0 });
    expect(updates).toBe(0);
    updateObject(doc, 's1', { x: 5 });
    expect(updates).toBe(1);
    updateObject(doc, 's1', { radiusX: 5 } as never);
    expect(getObjects(doc).get('s1')!.has('radiusX')).toBe(false);
    updateObject(doc, 's1', { temporary: true });
    expect(getObjects(doc).get('s1')!.get('temporary')).toBe(true);
    updateObject(doc, 's1', { temporary: undefined });
    expect(getObjects(doc).get('s1')!.has('temporary')).toBe(false);
  });

  it('deleting objects removes the arrows attached to them', () => {
    const doc = new Y.Doc();
    for (const id of ['a', 'b', 'c']) addObject(doc, rect(id));
    addArrow(doc, { id: 'ab', fromId: 'a', toId: 'b' });
    addArrow(doc, { id: 'bc', fromId: 'b', toId: 'c', style: 'dashed' });
    addArrow(doc, { id: 'ca', fromId: 'c', toId: 'a' });
    expect(deleteObjects(doc, ['a', 'nope'])).toBe(1);
    expect([...getArrows(doc).keys()]).toEqual(['bc']);
    expect(readBoard(doc)).toMatchObject({
      objects: [{ id: 'b' }, { id: 'c' }],
      arrows: [{ id: 'bc', style: 'dashed', strokeWidth: 2 }],
    });
  });

  it('arrows need two existing ends that are not freehand strokes', () => {
    const doc = new Y.Doc();
    addObject(doc, rect('a'));
    addObject(doc, rect('b'));
    addObject(doc, path('p'));
    expect(addArrow(doc, { id: 'x1', fromId: 'a', toId: 'missing' })).toBeNull();
    expect(addArrow(doc, { id: 'x2', fromId: 'a', toId: 'p' })).toBeNull();
    expect(() => addArrow(doc, { id: 'x3', fromId: 'a', toId: 'a' })).toThrow();
    expect(addArrow(doc, { id: 'x4', fromId: 'a', toId: 'b', style: 'dotted' })?.style).toBe('dotted');
    expect(getArrows(doc).size).toBe(1);
  });

  it('toggles a reaction: same user and emoji removes, anything else adds', () => {
    const doc = new Y.Doc();
    addObject(doc, sticky('s'));
    addObject(doc, rect('r'));
    const anna = { emoji: '👍', userId: 'u1', userName: 'Анна' };
    expect(toggleReaction(doc, 's', anna)).toBe(true);
    expect(toggleReaction(doc, 's', { ...anna, emoji: '🔥' })).toBe(true);
    expect(toggleReaction(doc, 's', { ...anna, userId: 'u2', userName: 'Борис' })).toBe(true);
    expect(readBoard(doc).objects.find((o) => o.id === 's')).toMatchObject({ reactions: { length: 3 } });
    expect(toggleReaction(doc, 's', anna)).toBe(false);
    const left = readBoard(doc).objects.find((o) => o.id === 's');
    expect(left && 'reactions' in left ? left.reactions : []).toEqual([
      { emoji: '🔥', userId: 'u1', userName: 'Анна' },
      { emoji: '👍', userId: 'u2', userName: 'Борис' },
    ]);
    expect(toggleReaction(doc, 'r', anna)).toBe(false);
    expect(toggleReaction(doc, 'missing', anna)).toBe(false);
    expect(() => toggleReaction(doc, 's', { ...anna, emoji: 'not an emoji' })).toThrow();
  });

  it('concurrent reactions from two users both survive', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    addObject(a, sticky('s'));
    sync(a, b);
    toggleReaction(a, 's', { emoji: '👍', userId: 'u1', userName: 'Анна' });
    toggleReaction(b, 's', { emoji: '❤️', userId: 'u2', userName: 'Борис' });
    sync(a, b);
    expect(readBoard(a)).toEqual(readBoard(b));
    expect(getObjects(a).get('s')!.get('reactions')).toHaveProperty('length', 2);
  });

  it('readBoard sorts by zIndex and skips junk written around the API', () => {
    const doc = new Y.Doc();
    addObject(doc, { ...rect('top'), zIndex: 5 });
    addObject(doc, { ...rect('bottom'), zIndex: 1 });
    const junk = new Y.Map<unknown>();
    junk.set('type', 'rectangle');
    junk.set('x', 'evil');
    getObjects(doc).set('junk', junk);
    (doc.getMap(OBJECTS_KEY) as Y.Map<unknown>).set('primitive', 42);
    const dangling = new Y.Map<unknown>();
    for (const [k, v] of Object.entries({
      id: 'd',
      fromId: 'top',
      toId: 'gone',
      style: 'solid',
      color: '#000',
      strokeWidth: 2,
    }))
      dangling.set(k, v);
    getArrows(doc).set('d', dangling);
    const board = readBoard(doc);
    expect(board.objects.map((o) => o.id)).toEqual(['bottom', 'top']);
    expect(board.arrows).toEqual([]);
    expect(nextZIndex(doc)).toBe(6);
    expect(deleteObjects(doc, ['top'])).toBe(1);
  });

  it('clearBoard removes objects and arrows in one transaction', () => {
    const doc = new Y.Doc();
    addObject(doc, rect('a'));
    addObject(doc, rect('b'));
    addArrow(doc, { id: 'ab', fromId: 'a', toId: 'b' });
    let updates = 0;
    doc.on('update', () => updates++);
    clearBoard(doc);
    expect(updates).toBe(1);
    expect(countObjects(doc)).toBe(0);
    expect(getArrows(doc).size).toBe(0);
  });

  it('passes the origin through so an UndoManager can track local changes', () => {
    const doc = new Y.Doc();
    const local = { local: true };
    const undo = new Y.UndoManager([getObjects(doc), getArrows(doc)], {
      trackedOrigins: new Set([local]),
      captureTimeout: 0,
    });
    addObject(doc, rect('a'), local);
    addObject(doc, rect('remote'));
    updateObject(doc, 'a', { x: 50 }, local);
    undo.undo();
    expect(readBoard(doc).objects.find((o) => o.id === 'a')).toMatchObject({ x: 0 });
    undo.undo();
    expect(readBoard(doc).objects.map((o) => o.id)).toEqual(['remote']);
  });
});
