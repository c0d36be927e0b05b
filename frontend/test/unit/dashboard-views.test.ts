import { describe, expect, it } from 'vitest';
import {
  folderDeletion,
  isDropIntoOwnChild,
  viewTotal,
  type BoardFilters,
} from '../../src/features/dashboard/logic.ts';
import { OWN } from '../../src/features/dashboard/texts.ts';
import type { FolderNode } from '../../src/features/dashboard/types.ts';

const folder = (id: string, parent: string | null, boards: number, children: FolderNode[] = []): FolderNode => ({
  id,
  name: id.toUpperCase(),
  parent_id: parent,
  color: '#3B82F6',
  sort_order: 0,
  board_count: boards,
  children,
});

// a(2) ⊃ b(3) ⊃ c(1); d(0)
const tree = [folder('a', null, 2, [folder('b', 'a', 3, [folder('c', 'b', 1)])]), folder('d', null, 0)];
const view = (f: Partial<BoardFilters>): BoardFilters => ({ folder: { kind: 'all' }, search: '', tagIds: [], ...f });

describe('viewTotal: the real count for the title', () => {
  it('is the user total for all boards', () => {
    expect(viewTotal(view({}), tree, 60)).toBe(60);
  });
  it("is a folder's own count", () => {
    expect(viewTotal(view({ folder: { kind: 'folder', id: 'b' } }), tree, 60)).toBe(3);
    expect(viewTotal(view({ folder: { kind: 'folder', id: 'd' } }), tree, 60)).toBe(0);
  });
  it('is the total less every board in a folder for "without folder"', () => {
    expect(viewTotal(view({ folder: { kind: 'none' } }), tree, 60)).toBe(54);
  });
  it('is unknown for searches and tag filters, and while the totals are', () => {
    expect(viewTotal(view({ search: 'x' }), tree, 60)).toBeNull();
    expect(viewTotal(view({ tagIds: ['t'] }), tree, 60)).toBeNull();
    expect(viewTotal(view({ folder: { kind: 'none' } }), tree, null)).toBeNull();
    expect(viewTotal(view({ folder: { kind: 'folder', id: 'gone' } }), tree, 60)).toBeNull();
  });
});

describe('folderDeletion: what the confirmation names', () => {
  it('lists the direct subfolders and the parent they move to', () => {
    expect(folderDeletion(tree, tree[0]!.children[0]!)).toEqual({ subfolders: ['C'], parentName: 'A' });
    expect(folderDeletion(tree, tree[0]!)).toEqual({ subfolders: ['B'], parentName: null });
    expect(folderDeletion(tree, tree[1]!)).toEqual({ subfolders: [], parentName: null });
  });
  it('words one and several subfolders, into a folder or to the top level', () => {
    expect(OWN.deleteFolderSubfolders(['C'], 'A')).toBe('Подпапка «C» будет перемещена в папку «A».');
    expect(OWN.deleteFolderSubfolders(['B', 'E'], null)).toBe('Подпапки «B», «E» будут перемещены на верхний уровень.');
  });
});

describe('isDropIntoOwnChild', () => {
  it('is true for any descendant, false for itself, others and the root', () => {
    expect(isDropIntoOwnChild(tree, 'a', 'b')).toBe(true);
    expect(isDropIntoOwnChild(tree, 'a', 'c')).toBe(true);
    expect(isDropIntoOwnChild(tree, 'a', 'a')).toBe(false);
    expect(isDropIntoOwnChild(tree, 'a', 'd')).toBe(false);
    expect(isDropIntoOwnChild(tree, 'b', 'a')).toBe(false);
    expect(isDropIntoOwnChild(tree, 'a', null)).toBe(false);
  });
});
