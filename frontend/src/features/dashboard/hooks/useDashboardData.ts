import { useEffect, useMemo, useState } from 'react';
import { notify } from '../../../lib/notify.ts';
import { useGetBoardsInfiniteQuery, useGetFoldersQuery, useGetTagsQuery } from '../api.ts';
import { errorText } from '../errors.ts';
import { filtersToQuery, findFolder, hasActiveFilters, viewTotal, type FolderFilter } from '../logic.ts';
import { SPEC } from '../texts.ts';
import type { BoardListItem } from '../types.ts';
import { useDebounced } from './useDebounced.ts';

export const SEARCH_DEBOUNCE_MS = 300;

/** Pages of the board list as one list; a board that moved between pages while they refetched shows once. */
function mergePages(pages: readonly { boards: BoardListItem[] }[]): BoardListItem[] {
  const seen = new Set<string>();
  const out: BoardListItem[] = [];
  for (const p of pages)
    for (const b of p.boards)
      if (!seen.has(b.id)) {
        seen.add(b.id);
        out.push(b);
      }
  return out;
}

/**
 * The dashboard's filters (folder, debounced search, tags) and what they select: boards page by page,
 * the folder tree, the tags, the limits and the view's real total. Filters that point at a folder or a
 * tag that no longer exists fall back by themselves.
 */
export function useDashboardData() {
  const [folderFilter, setFolderFilter] = useState<FolderFilter>({ kind: 'all' });
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, SEARCH_DEBOUNCE_MS);
  const [tagIds, setTagIds] = useState<string[]>([]);

  const filters = { folder: folderFilter, search, tagIds };
  const boardsQ = useGetBoardsInfiniteQuery(filtersToQuery(filters));
  const foldersQ = useGetFoldersQuery();
  const tagsQ = useGetTagsQuery();
  const folders = useMemo(() => foldersQ.data?.folders ?? [], [foldersQ.data]);
  const tags = useMemo(() => tagsQ.data?.tags ?? [], [tagsQ.data]);
  const boards = useMemo(() => mergePages(boardsQ.data?.pages ?? []), [boardsQ.data]);
  const limits = boardsQ.data?.pages[0]?.limits ?? null;

  // §8: a failed folder load is a toast; a failed board load is shown in place with a retry button.
  useEffect(() => {
    if (foldersQ.isError)
      notify.error(errorText(foldersQ.error, SPEC.loadFoldersError), { toastId: 'folders-load' });
  }, [foldersQ.isError, foldersQ.error]);

  const refetchFailed = boardsQ.isError && !!boardsQ.data;
  useEffect(() => {
    if (refetchFailed) notify.error(errorText(boardsQ.error, SPEC.loadBoardsError), { toastId: 'boards-load' });
  }, [refetchFailed, boardsQ.error]);

  useEffect(() => {
    if (folderFilter.kind === 'folder' && foldersQ.data && !findFolder(folders, folderFilter.id)) {
      setFolderFilter({ kind: 'all' });
    }
  }, [folderFilter, folders, foldersQ.data]);
  useEffect(() => {
    if (!tagsQ.data) return;
    setTagIds((ids) => {
      const next = ids.filter((id) => tags.some((t) => t.id === id));
      return next.length === ids.length ? ids : next;
    });
  }, [tags, tagsQ.data]);

  const resetFilters = () => {
    setFolderFilter({ kind: 'all' });
    setSearchInput('');
    setTagIds([]);
  };
  const toggleTag = (id: string) =>
    setTagIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  return {
    folderFilter,
    setFolderFilter,
    selectedFolder: folderFilter.kind === 'folder' ? findFolder(folders, folderFilter.id) : null,
    searchInput,
    setSearchInput,
    tagIds,
    toggleTag,
    resetTags: () => setTagIds([]),
    resetFilters,
    filtered: hasActiveFilters(filters) || searchInput.trim() !== '',
    boards,
    boardsQ,
    /** Boards in the current view in all, when the page can know it without another call. */
    total: foldersQ.data || folderFilter.kind === 'all' ? viewTotal(filters, folders, limits?.current ?? null) : null,
    loadError: boardsQ.isError && !boardsQ.data ? errorText(boardsQ.error, SPEC.loadBoardsError) : null,
    folders,
    foldersLoading: foldersQ.isLoading,
    tags,
    limits,
    canCreate: limits?.canCreate ?? false,
  };
}

export type DashboardData = ReturnType<typeof useDashboardData>;
