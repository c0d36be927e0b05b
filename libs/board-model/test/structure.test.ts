import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addObject,
  canvasObjectSchema,
  compareZ,
  deleteObjects,
  expandToGroups,
  groupPatches,
  isOneGroup,
  liveGroups,
  planPaste,
  readBoard,
  reorder,
  ungroupIds,
  unlockedIds,
  updateObject,
  zItemOf,
  zOrderPatches,
  zPatches,
  type CanvasObject,
  type ZItem,
  type ZOrderAction,
} from '../src/index.ts';

/** Squares 10 apart: `overlap` puts them all at one place so every one overlaps every other. */
function rect(id: string, zIndex: number, x = 0, extra: Record<string, unknown> = {}): CanvasObject {
  return canvasObjectSchema.parse({ id, type: 'rectangle', x, y: 0, width: 20, height: 20, fill: 'transparent', stroke: '#000', strokeWidth: 1, zIndex, ...extra });
}

const order = (doc: Y.Doc) => readBoard(doc).objects.map((o) => o.id);
const items = (objs: CanvasObject[]): ZItem[] => objs.map((o) => zItemOf(o));

function arrange(doc: Y.Doc, ids: string[], action: ZOrderAction): void {
  const patches = zOrderPatches(items(readBoard(doc).objects), new Set(ids), action);
  doc.transact(() => {
    for (const [id, zIndex] of patches) updateObject(doc, id, { zIndex });
  });
}

function group(doc: Y.Doc, ids: string[], groupId: string): void {
  doc.transact(() => {
    for (const [id, g] of groupPatches(readBoard(doc).objects, ids, groupId)) updateObject(doc, id, { groupId: g });
  });
}

function ungroup(doc: Y.Doc, ids: string[]): void {
  doc.transact(() => {
    for (const id of ungroupIds(readBoard(doc).objects, ids)) updateObject(doc, id, { groupId: undefined });
  });
}

/** Two replicas of one board, then each goes offline (updates kept, not exchanged). */
function twoOffline(objects: CanvasObject[]): [Y.Doc, Y.Doc, () => void] {
  const a = new Y.Doc();
  for (const o of objects) addObject(a, o);
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const reconnect = () => {
    const fromA = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
    const fromB = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
    Y.applyUpdate(b, fromA);
    Y.applyUpdate(a, fromB);
  };
  return [a, b, reconnect];
}

describe('z-order', () => {
  const stack = () => [rect('a', 0), rect('b', 1), rect('c', 2), rect('d', 3)];

  it('moves one step past the next overlapping object, or to either end', () => {
    const ids = (list: ZItem[]) => list.map((o) => o.id);
    expect(ids(reorder(items(stack()), new Set(['b']), 'forward'))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(reorder(items(stack()), new Set(['c']), 'backward'))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(reorder(items(stack()), new Set(['a', 'b']), 'front'))).toEqual(['c', 'd', 'a', 'b']);
    expect(ids(reorder(items(stack()), new Set(['c', 'd']), 'back'))).toEqual(['c', 'd', 'a', 'b']);
    // Two selected objects keep their order among themselves.
    expect(ids(reorder(items(stack()), new Set(['a', 'b']), 'forward'))).toEqual(['c', 'a', 'b', 'd']);
  });

  it('skips objects that do not overlap (a forward step changes what one sees)', () => {
    const objs = [rect('a', 0), rect('far', 1, 500), rect('b', 2)];
    expect(reorder(items(objs), new Set(['a']), 'forward').map((o) => o.id)).toEqual(['far', 'b', 'a']);
    expect(zOrderPatches(items([rect('a', 0), rect('far', 1, 500)]), new Set(['a']), 'forward').size).toBe(0);
  });

  it('writes only the moved object, between its new neighbours', () => {
    const patches = zOrderPatches(items(stack()), new Set(['a']), 'forward');
    expect([...patches]).toEqual([['a', 1.5]]);
    expect([...zOrderPatches(items(stack()), new Set(['b']), 'front')]).toEqual([['b', 4]]);
    expect([...zOrderPatches(items(stack()), new Set(['c']), 'back')]).toEqual([['c', -1]]);
    expect(zOrderPatches(items(stack()), new Set(['d']), 'front').size).toBe(0);
  });

  it('renumbers when neighbours are equal (old objects all at zIndex 0 keep their order by id)', () => {
    const old = [rect('a', 0), rect('b', 0), rect('c', 0)];
    const patches = zOrderPatches(items(old), new Set(['a']), 'forward');
    const after = old.map((o) => ({ ...o, zIndex: patches.get(o.id) ?? o.zIndex })).sort(compareZ);
    expect(after.map((o) => o.id)).toEqual(['b', 'a', 'c']);
  });

  it('keeps halving a gap until numbers run out, then renumbers, never losing the order', () => {
    let objs = [rect('a', 0), rect('b', 1), rect('x', 2)];
    for (let i = 0; i < 80; i++) {
      // x goes between a and b again and again (b sent back below x each time).
      const target = i % 2 === 0 ? 'x' : 'b';
      const patches = zPatches(
        [...objs].sort(compareZ).map((o) => zItemOf(o)).sort((p, q) => (p.id === 'a' ? -1 : q.id === 'a' ? 1 : p.id === target ? -1 : q.id === target ? 1 : 0)),
      );
      objs = objs.map((o) => ({ ...o, zIndex: patches.get(o.id) ?? o.zIndex }));
      expect([...objs].sort(compareZ).map((o) => o.id)).toEqual(['a', target, target === 'x' ? 'b' : 'x']);
    }
  });

  it('converges when two people reorder the same objects offline', () => {
    const [a, b, reconnect] = twoOffline(stack());
    arrange(a, ['a'], 'front');
    arrange(a, ['c'], 'backward');
    arrange(b, ['a'], 'forward');
    arrange(b, ['d'], 'back');
    reconnect();
    expect(order(a)).toEqual(order(b));
    expect(new Set(order(a))).toEqual(new Set(['a', 'b', 'c', 'd']));
  });

  it('converges in many random offline rounds', () => {
    const actions: ZOrderAction[] = ['forward', 'backward', 'front', 'back'];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const [a, b, reconnect] = twoOffline(ids.map((id) => rect(id, 0)));
    for (let round = 0; round < 30; round++) {
      for (const doc of [a, b]) {
        for (let k = 0; k < 3; k++) arrange(doc, [ids[rnd(ids.length)]], actions[rnd(4)]);
      }
      reconnect();
      expect(order(a)).toEqual(order(b));
    }
  });
});

describe('groups and locks', () => {
  const four = () => [rect('a', 0), rect('b', 1), rect('c', 2), rect('d', 3)];

  it('selecting one member selects the group; ungroup removes it', () => {
    const doc = new Y.Doc();
    for (const o of four()) addObject(doc, o);
    group(doc, ['a', 'b'], 'g1');
    const objs = readBoard(doc).objects;
    expect(expandToGroups(objs, ['a'])).toEqual(new Set(['a', 'b']));
    expect(isOneGroup(objs, new Set(['a', 'b']))).toBe(true);
    expect(isOneGroup(objs, new Set(['a', 'b', 'c']))).toBe(false);
    // Grouping a member with another object joins the whole group into the new one.
    group(doc, ['a', 'c'], 'g2');
    expect(expandToGroups(readBoard(doc).objects, ['b'])).toEqual(new Set(['a', 'b', 'c']));
    ungroup(doc, ['c']);
    expect(readBoard(doc).objects.every((o) => o.groupId === undefined)).toBe(true);
    expect(groupPatches(readBoard(doc).objects, ['a'], 'g3').size).toBe(0);
  });

  it('a member deleted by another person while grouping offline leaves no ghost group', () => {
    const [a, b, reconnect] = twoOffline(four());
    group(a, ['a', 'b'], 'g1');
    deleteObjects(b, ['b']);
    reconnect();
    for (const doc of [a, b]) {
      const objs = readBoard(doc).objects;
      expect(liveGroups(objs).size).toBe(0);
      expect(expandToGroups(objs, ['a'])).toEqual(new Set(['a']));
    }
  });

  it('concurrent groupings of a shared object converge to the same groups', () => {
    const [a, b, reconnect] = twoOffline(four());
    group(a, ['a', 'b'], 'g1');
    group(b, ['b', 'c'], 'g2');
    ungroup(b, ['d']);
    reconnect();
    const groupsOf = (doc: Y.Doc) => [...liveGroups(readBoard(doc).objects)].sort();
    expect(groupsOf(a)).toEqual(groupsOf(b));
    // b is in exactly one of the groups; the other one may have dropped to a single member.
    const withB = groupsOf(a).filter(([, ids]) => ids.includes('b'));
    expect(withB).toHaveLength(1);
  });

  it('ungroup offline against a move of the group: both land, nothing is lost', () => {
    const [a, b, reconnect] = twoOffline(four());
    group(a, ['a', 'b'], 'g1');
    reconnect();
    ungroup(a, ['a']);
    b.transact(() => {
      for (const id of ['a', 'b']) updateObject(b, id, { x: 100 });
    });
    reconnect();
    for (const doc of [a, b]) {
      const objs = readBoard(doc).objects;
      expect(liveGroups(objs).size).toBe(0);
      expect(objs.filter((o) => o.type === 'rectangle' && o.x === 100).map((o) => o.id).sort()).toEqual(['a', 'b']);
    }
  });

  it('locked objects are left out of edits; the field survives validation', () => {
    const objs = [rect('a', 0, 0, { locked: true }), rect('b', 1)];
    expect(objs[0].locked).toBe(true);
    const byId = new Map(objs.map((o) => [o.id, o]));
    expect(unlockedIds((id) => byId.get(id), ['a', 'b', 'arrow1'])).toEqual(['b', 'arrow1']);
  });

  it('a paste of a group makes a new group, not more members of the original', () => {
    const objs = [rect('a', 0, 0, { groupId: 'g1' }), rect('b', 1, 0, { groupId: 'g1' })];
    let n = 0;
    const plan = planPaste({ objects: objs, arrows: [] }, { offset: { x: 20, y: 20 }, zIndexStart: 5, limits: { max_width: 0, max_height: 0, unlimited: true }, makeId: () => `new${n++}` });
    if (!plan.ok) throw new Error(plan.error);
    const groups = new Set(plan.objects.map((o) => o.groupId));
    expect(groups.size).toBe(1);
    expect(groups.has('g1')).toBe(false);
  });
});
