import { describe, expect, it } from 'vitest';
import { applyReorder, buildFolderTree, densePositions, isCyclicMove, placeRelative, promoteChildren } from '../../src/domain/folders.ts';

describe('folder tree rules', () => {
  it('builds a tree ordered by sort_order; orphans become roots', () => {
    const tree = buildFolderTree([
      { id: 'b', name: 'B', parent_id: null, color: '#000000', sort_order: 1, board_count: 0 },
      { id: 'a', name: 'A', parent_id: null, color: '#000000', sort_order: 0, board_count: 2 },
      { id: 'a2', name: 'A2', parent_id: 'a', color: '#000000', sort_order: 1, board_count: 0 },
      { id: 'a1', name: 'A1', parent_id: 'a', color: '#000000', sort_order: 0, board_count: 0 },
      { id: 'x', name: 'X', parent_id: 'gone', color: '#000000', sort_order: 5, board_count: 0 },
    ]);
    expect(tree.map((n) => n.id)).toEqual(['a', 'b', 'x']);
    expect(tree[0].children.map((n) => n.id)).toEqual(['a1', 'a2']);
    expect(tree[0].board_count).toBe(2);
  });

  it('detects moves into itself or a descendant', () => {
    expect(isCyclicMove('a', 'a', ['a'])).toBe(true);
    expect(isCyclicMove('a', 'c', ['c', 'b', 'a'])).toBe(true);
    expect(isCyclicMove('a', 'z', ['z', 'y'])).toBe(false);
    expect(isCyclicMove('a', null, [])).toBe(false);
  });

  it('places before / after a target', () => {
    expect(placeRelative(['a', 'b', 'c'], 'c', 'a', 'before')).toEqual(['c', 'a', 'b']);
    expect(placeRelative(['a', 'b', 'c'], 'a', 'c', 'after')).toEqual(['b', 'c', 'a']);
    expect(placeRelative(['a', 'b'], 'n', 'a', 'after')).toEqual(['a', 'n', 'b']);
    expect(placeRelative(['a', 'b'], 'n', 'zz', 'after')).toBeNull();
    expect(placeRelative(['a', 'b'], 'a', 'a', 'after')).toBeNull();
  });

  it('reorders: listed first, the rest keep their order; foreign ids refused', () => {
    expect(applyReorder(['a', 'b', 'c', 'd'], ['c', 'a'])).toEqual(['c', 'a', 'b', 'd']);
    expect(applyReorder(['a', 'b'], ['b', 'a'])).toEqual(['b', 'a']);
    expect(applyReorder(['a', 'b'], ['x'])).toBeNull();
    expect(applyReorder(['a', 'b'], ['a', 'a'])).toBeNull();
  });

  it('dense positions write only what changed', () => {
    const cur = new Map([
      ['a', 0],
      ['b', 5],
      ['c', 2],
    ]);
    expect(densePositions(['a', 'c', 'b'], cur)).toEqual([
      { id: 'c', sort_order: 1 },
      { id: 'b', sort_order: 2 },
    ]);
  });
});

describe('promoteChildren', () => {
  it("puts the deleted folder's children in its place, in their order", () => {
    expect(promoteChildren(['a', 'x', 'b'], 'x', ['x1', 'x2'])).toEqual(['a', 'x1', 'x2', 'b']);
    expect(promoteChildren(['x'], 'x', [])).toEqual([]);
    expect(promoteChildren(['a'], 'x', ['x1'])).toEqual(['a']);
  });
});
