import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ancestorIds,
  enabledRoles,
  filtersToQuery,
  formatBoardDate,
  hasActiveFilters,
  isSelfOrDescendant,
  overflowLabel,
  parseExpanded,
  planFolderDrop,
  serializeExpanded,
  shareLink,
  splitTags,
  toggleRole,
  visibleRows,
  zoneFromPointer,
} from '../../src/features/dashboard/logic.ts';
import { SPEC } from '../../src/features/dashboard/texts.ts';
import { errorText, folderMoveErrorText, isCyclicError } from '../../src/features/dashboard/errors.ts';
import type { FolderNode } from '../../src/features/dashboard/types.ts';

const folder = (id: string, parent: string | null, children: FolderNode[] = []): FolderNode => ({
  id,
  name: id.toUpperCase(),
  parent_id: parent,
  color: '#3B82F6',
  sort_order: 0,
  board_count: 0,
  children,
});

// a ─ b ─ c
// d
const tree: FolderNode[] = [folder('a', null, [folder('b', 'a', [folder('c', 'b')])]), folder('d', null)];

describe('zoneFromPointer', () => {
  it('splits a row 25 / 50 / 25', () => {
    expect(zoneFromPointer(100, 100, 40)).toBe('before');
    expect(zoneFromPointer(109.9, 100, 40)).toBe('before');
    expect(zoneFromPointer(110, 100, 40)).toBe('inside');
    expect(zoneFromPointer(120, 100, 40)).toBe('inside');
    expect(zoneFromPointer(130, 100, 40)).toBe('inside');
    expect(zoneFromPointer(130.1, 100, 40)).toBe('after');
    expect(zoneFromPointer(140, 100, 40)).toBe('after');
  });
  it('clamps outside points and tolerates an empty rect', () => {
    expect(zoneFromPointer(50, 100, 40)).toBe('before');
    expect(zoneFromPointer(500, 100, 40)).toBe('after');
    expect(zoneFromPointer(100, 100, 0)).toBe('inside');
  });
});

describe('cycle check and folder drops', () => {
  it('knows self and descendants', () => {
    expect(isSelfOrDescendant(tree, 'a', 'a')).toBe(true);
    expect(isSelfOrDescendant(tree, 'a', 'b')).toBe(true);
    expect(isSelfOrDescendant(tree, 'a', 'c')).toBe(true);
    expect(isSelfOrDescendant(tree, 'a', 'd')).toBe(false);
    expect(isSelfOrDescendant(tree, 'c', 'a')).toBe(false);
    expect(isSelfOrDescendant(tree, 'b', 'a')).toBe(false);
  });

  it('refuses every zone on itself or a descendant', () => {
    for (const zone of ['before', 'inside', 'after'] as const) {
      expect(planFolderDrop(tree, 'a', 'a', zone)).toBeNull();
      expect(planFolderDrop(tree, 'a', 'b', zone)).toBeNull();
      expect(planFolderDrop(tree, 'a', 'c', zone)).toBeNull();
    }
  });

  it('turns the middle into a parent change and the edges into a position', () => {
    expect(planFolderDrop(tree, 'd', 'b', 'inside')).toEqual({
      kind: 'inside',
      folder_id: 'd',
      parent_id: 'b',
    });
    expect(planFolderDrop(tree, 'd', 'b', 'before')).toEqual({
      kind: 'position',
      folder_id: 'd',
      parent_id: 'a',
      target_folder_id: 'b',
      position: 'before',
    });
    expect(planFolderDrop(tree, 'c', 'd', 'after')).toEqual({
      kind: 'position',
      folder_id: 'c',
      parent_id: null,
      target_folder_id: 'd',
      position: 'after',
    });
  });

  it('skips no-ops and handles the root entry', () => {
    expect(planFolderDrop(tree, 'c', 'b', 'inside')).toBeNull();
    expect(planFolderDrop(tree, 'd', null, 'inside')).toBeNull();
    expect(planFolderDrop(tree, 'c', null, 'inside')).toEqual({
      kind: 'inside',
      folder_id: 'c',
      parent_id: null,
    });
    expect(planFolderDrop(tree, 'zz', 'a', 'inside')).toBeNull();
  });

  it('lists ancestors and visible rows', () => {
    expect(ancestorIds(tree, 'c')).toEqual(['a', 'b']);
    expect(ancestorIds(tree, 'd')).toEqual([]);
    expect(visibleRows(tree, new Set()).map((r) => r.node.id)).toEqual(['a', 'd']);
    expect(visibleRows(tree, new Set(['a', 'b'])).map((r) => [r.node.id, r.depth])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['d', 0],
    ]);
    expect(visibleRows(tree, new Set(['b'])).map((r) => r.node.id)).toEqual(['a', 'd']);
  });

  it('stores the expanded set', () => {
    expect(parseExpanded(serializeExpanded(new Set(['b', 'a'])))).toEqual(new Set(['a', 'b']));
    expect(parseExpanded(null)).toEqual(new Set());
    expect(parseExpanded('{broken')).toEqual(new Set());
    expect(parseExpanded('[1,"x"]')).toEqual(new Set(['x']));
  });
});

describe('tags on a card', () => {
  it('shows three then +N', () => {
    expect(splitTags([1, 2])).toEqual({ shown: [1, 2], rest: 0 });
    expect(splitTags([1, 2, 3])).toEqual({ shown: [1, 2, 3], rest: 0 });
    expect(splitTags([1, 2, 3, 4, 5])).toEqual({ shown: [1, 2, 3], rest: 2 });
    expect(overflowLabel(0)).toBeNull();
    expect(overflowLabel(2)).toBe('+2');
  });
});

describe('filters → query', () => {
  it('leaves out what is not set', () => {
    expect(filtersToQuery({ folder: { kind: 'all' }, search: '  ', tagIds: [] })).toEqual({});
    expect(hasActiveFilters({ folder: { kind: 'all' }, search: '  ', tagIds: [] })).toBe(false);
  });
  it('maps folder, search and tags', () => {
    expect(
      filtersToQuery({ folder: { kind: 'none' }, search: ' план ', tagIds: ['t2', 't1', 't2'] }),
    ).toEqual({
      folder_id: 'none',
      search: 'план',
      tags: 't1,t2',
    });
    expect(filtersToQuery({ folder: { kind: 'folder', id: 'f1' }, search: '', tagIds: [] })).toEqual({
      folder_id: 'f1',
    });
    expect(hasActiveFilters({ folder: { kind: 'all' }, search: '', tagIds: ['t'] })).toBe(true);
    expect(hasActiveFilters({ folder: { kind: 'none' }, search: '', tagIds: [] })).toBe(true);
  });
});

describe('sharing helpers', () => {
  const b = { viewer_token_hash: 'v', guest_token_hash: null, editor_token_hash: 'e' };
  it('reads and toggles roles', () => {
    expect(enabledRoles(b)).toEqual(['viewer', 'editor']);
    expect(toggleRole(['editor', 'viewer'], 'guest', true)).toEqual(['viewer', 'guest', 'editor']);
    expect(toggleRole(['viewer', 'editor'], 'viewer', false)).toEqual(['editor']);
    expect(shareLink('http://x', 'id1', 'tok')).toBe('http://x/board/id1?token=tok');
  });
});

describe('error texts', () => {
  const err = (error: string, code: string) => ({ status: 400, data: { error, code } });
  it('uses the server text, else the §8 fallback', () => {
    expect(errorText(err('Доска не найдена', 'BOARD_NOT_FOUND'), SPEC.updateBoardError)).toBe(
      'Доска не найдена',
    );
    expect(errorText({ status: 'FETCH_ERROR', error: 'x' }, SPEC.updateBoardError)).toBe(
      'Ошибка обновления доски',
    );
  });
  it('maps a cyclic folder move to the spec text', () => {
    expect(isCyclicError(err('что угодно', 'CYCLIC_DEPENDENCY'))).toBe(true);
    expect(isCyclicError(err('Обнаружена циклическая зависимость', 'VALIDATION_ERROR'))).toBe(true);
    expect(folderMoveErrorText(err('x', 'CYCLIC_DEPENDENCY'))).toBe(
      'Нельзя переместить папку в её дочернюю папку',
    );
    expect(folderMoveErrorText(err('Папка не найдена', 'FOLDER_NOT_FOUND'))).toBe('Папка не найдена');
    expect(folderMoveErrorText({ status: 'TIMEOUT_ERROR' })).toBe('Ошибка перемещения папки');
  });
});

describe('formatting', () => {
  it('formats dates in ru-RU', () => {
    expect(formatBoardDate('2025-05-05T12:00:00Z')).toMatch(/^5 мая 2025/);
    expect(formatBoardDate('nope')).toBe('');
  });
});

describe('spec texts', () => {
  it('are copied verbatim from product.md', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const spec = readFileSync(path.resolve(here, '../../../../shared/spec/product.md'), 'utf8');
    // §8 lists some successes in a shortened form ('Доска создана' / 'обновлена' / 'удалена').
    const shortened = new Set<string>([
      SPEC.boardUpdated,
      SPEC.boardDeleted,
      SPEC.folderUpdated,
      SPEC.folderDeleted,
      SPEC.folderMoved,
      SPEC.tagUpdated,
      SPEC.tagDeleted,
    ]);
    for (const [key, text] of Object.entries(SPEC)) {
      if (shortened.has(text)) {
        const tail = text.split(' ').slice(1).join(' ');
        expect(spec.includes(`'${tail}'`), key).toBe(true);
      } else {
        expect(spec.includes(`'${text}'`), `${key}: ${text}`).toBe(true);
      }
    }
  });
});
