/**
 * The dashboard (§2): folders panel on the left, board grid on the right, modals, and drag and drop
 * of boards onto folders and of folders onto folders (before / inside / after zones).
 */
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { AppHeader } from '../../components/AppHeader.tsx';
import { notify } from '../../lib/notify.ts';
import { AccessModal } from './AccessModal.tsx';
import {
  useDeleteBoardMutation,
  useDeleteFolderMutation,
  useGetBoardsInfiniteQuery,
  useGetFoldersQuery,
  useGetTagsQuery,
  useMoveBoardMutation,
  useMoveFolderToPositionMutation,
  useUpdateFolderMutation,
} from './api.ts';
import { BoardCard, BoardDragPreview, type BoardAction } from './BoardCard.tsx';
import {
  collisionDetection,
  dragPoint,
  keyboardCoordinates,
  markDragEnd,
  zoneOf,
  type DragData,
  type DropData,
} from './dnd.ts';
import { errorText, folderMoveErrorText } from './errors.ts';
import { FolderDragPreview, FoldersPanel, type DropIndicator } from './FoldersPanel.tsx';
import { LayoutGridIcon, PanelLeftIcon, PlusIcon, SearchIcon, XIcon } from 'lucide-react';
import {
  ancestorIds,
  EXPANDED_STORAGE_KEY,
  filtersToQuery,
  findFolder,
  hasActiveFilters,
  parseExpanded,
  planFolderDrop,
  serializeExpanded,
  subtreeIds,
  type FolderFilter,
  type FolderMove,
} from './logic.ts';
import { CreateBoardModal, FolderModal, RenameBoardModal, type FolderModalState } from './modals.tsx';
import { TagsModal } from './TagsModal.tsx';
import { OWN, plural, SPEC } from './texts.ts';
import type { BoardListItem, FolderNode } from './types.ts';
import { ConfirmProvider, useConfirm } from './ui.tsx';

export const SEARCH_DEBOUNCE_MS = 300;

type ModalState =
  | { kind: 'create' }
  | { kind: 'rename'; board: BoardListItem }
  | { kind: 'access'; board: BoardListItem }
  | { kind: 'tags'; board: BoardListItem }
  | { kind: 'folder'; state: FolderModalState }
  | null;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

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

/** Calls `onVisible` when the sentinel scrolls into view (the next page of boards). */
function LoadMore({ onVisible, busy }: { onVisible: () => void; busy: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const cb = useRef(onVisible);
  cb.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && cb.current(), {
      rootMargin: '400px 0px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  return (
    <div ref={ref} className="dash__more" data-testid="boards-more">
      <button type="button" className="btn btn--secondary btn--sm" onClick={onVisible} disabled={busy}>
        {busy ? <span className="spinner spinner--sm" aria-hidden="true" /> : null}
        {OWN.loadMore}
      </button>
    </div>
  );
}

function useExpandedFolders() {
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    try {
      return parseExpanded(localStorage.getItem(EXPANDED_STORAGE_KEY));
    } catch {
      return new Set();
    }
  });
  const update = useCallback((fn: (s: Set<string>) => void) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      fn(next);
      try {
        localStorage.setItem(EXPANDED_STORAGE_KEY, serializeExpanded(next));
      } catch {
        // storage full or disabled: the state just is not kept
      }
      return next;
    });
  }, []);
  return [expanded, update] as const;
}

export function Dashboard() {
  return (
    <ConfirmProvider>
      <DashboardInner />
    </ConfirmProvider>
  );
}

function DashboardInner() {
  const confirm = useConfirm();
  const [folderFilter, setFolderFilter] = useState<FolderFilter>({ kind: 'all' });
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, SEARCH_DEBOUNCE_MS);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [expanded, updateExpanded] = useExpandedFolders();
  const [modal, setModal] = useState<ModalState>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);

  const filters = { folder: folderFilter, search, tagIds };
  const query = filtersToQuery(filters);
  const boardsQ = useGetBoardsInfiniteQuery(query);
  const foldersQ = useGetFoldersQuery();
  const tagsQ = useGetTagsQuery();
  const folders = useMemo(() => foldersQ.data?.folders ?? [], [foldersQ.data]);
  const tags = useMemo(() => tagsQ.data?.tags ?? [], [tagsQ.data]);
  const boards = useMemo(() => mergePages(boardsQ.data?.pages ?? []), [boardsQ.data]);
  const limits = boardsQ.data?.pages[0]?.limits ?? null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = boardsQ;
  const canCreate = limits?.canCreate ?? false;

  const [moveBoard] = useMoveBoardMutation();
  const [deleteBoard] = useDeleteBoardMutation();
  const [deleteFolder] = useDeleteFolderMutation();
  const [updateFolder] = useUpdateFolderMutation();
  const [moveToPosition] = useMoveFolderToPositionMutation();

  // §8 load errors.
  useEffect(() => {
    if (boardsQ.isError)
      notify.error(errorText(boardsQ.error, SPEC.loadBoardsError), { toastId: 'boards-load' });
  }, [boardsQ.isError, boardsQ.error]);
  useEffect(() => {
    if (foldersQ.isError)
      notify.error(errorText(foldersQ.error, SPEC.loadFoldersError), { toastId: 'folders-load' });
  }, [foldersQ.isError, foldersQ.error]);

  // A selected folder that no longer exists falls back to all boards; tags that vanished leave the filter.
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

  const selectedFolder = folderFilter.kind === 'folder' ? findFolder(folders, folderFilter.id) : null;
  const title =
    folderFilter.kind === 'all'
      ? SPEC.titleAll
      : folderFilter.kind === 'none'
        ? SPEC.titleNoFolder
        : (selectedFolder?.name ?? '');

  const selectFolder = (f: FolderFilter) => {
    setFolderFilter(f);
    setSidebarOpen(false);
    if (f.kind === 'folder') {
      const up = ancestorIds(folders, f.id);
      if (up.some((id) => !expanded.has(id))) updateExpanded((s) => up.forEach((id) => s.add(id)));
    }
  };

  const resetFilters = () => {
    setFolderFilter({ kind: 'all' });
    setSearchInput('');
    setTagIds([]);
  };

  // ---------- board actions ----------

  const moveBoardTo = async (board: BoardListItem, folderId: string | null) => {
    if (board.folder_id === folderId) return;
    try {
      await moveBoard({ board_id: board.id, folder_id: folderId }).unwrap();
      notify.success(SPEC.boardUpdated);
    } catch (err) {
      notify.error(errorText(err, SPEC.moveBoardError));
    }
  };

  const onBoardAction = async (action: BoardAction, board: BoardListItem) => {
    if (action === 'rename' || action === 'access' || action === 'tags')
      return setModal({ kind: action, board });
    if (action === 'root') return moveBoardTo(board, null);
    const yes = await confirm({ title: OWN.deleteBoardTitle, message: OWN.deleteBoardConfirm(board.title) });
    if (!yes) return;
    try {
      await deleteBoard(board.id).unwrap();
      notify.success(SPEC.boardDeleted);
    } catch (err) {
      notify.error(errorText(err, SPEC.deleteBoardError));
    }
  };

  // ---------- folder actions ----------

  const onDeleteFolder = async (folder: FolderNode) => {
    const yes = await confirm({
      title: OWN.deleteFolderTitle(folder.name),
      message: SPEC.deleteFolderConfirm,
    });
    if (!yes) return;
    const gone = subtreeIds(folder);
    try {
      await deleteFolder(folder.id).unwrap();
      notify.success(SPEC.folderDeleted);
      if (folderFilter.kind === 'folder' && gone.has(folderFilter.id)) setFolderFilter({ kind: 'all' });
    } catch (err) {
      notify.error(errorText(err, SPEC.deleteFolderError));
    }
  };

  const runFolderMove = async (move: FolderMove) => {
    try {
      if (move.kind === 'inside') {
        await updateFolder({ id: move.folder_id, parent_id: move.parent_id }).unwrap();
        if (move.parent_id) updateExpanded((s) => s.add(move.parent_id!));
      } else {
        const { kind: _kind, ...body } = move;
        await moveToPosition(body).unwrap();
      }
      notify.success(SPEC.folderMoved);
    } catch (err) {
      notify.error(folderMoveErrorText(err));
    }
  };

  // ---------- drag and drop ----------

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
  const [dragging, setDragging] = useState<DragData | null>(null);
  const [indicator, setIndicator] = useState<DropIndicator | null>(null);
  const indicatorRef = useRef<DropIndicator | null>(null);

  /** What a drop here would do: the indicator to show, or null when the drop is refused. */
  const resolveDrop = (e: DragMoveEvent | DragEndEvent): DropIndicator | null => {
    const data = e.active.data.current as DragData | undefined;
    const over = e.over;
    if (!data || !over) return null;
    const target = over.data.current as DropData | undefined;
    if (!target) return null;
    if (data.type === 'board') {
      const folderId = target.type === 'root' ? null : target.folderId;
      if (data.board.folder_id === folderId) return null;
      return { target: folderId ?? 'root', zone: 'inside' };
    }
    const zone = zoneOf(over, dragPoint(e.active, e.activatorEvent, e.delta), 'folder');
    const plan = planFolderDrop(
      folders,
      data.folder.id,
      target.type === 'root' ? null : target.folderId,
      zone,
    );
    if (!plan) return null;
    return {
      target: target.type === 'root' ? 'root' : target.folderId,
      zone: target.type === 'root' ? 'inside' : zone,
    };
  };

  const setInd = (v: DropIndicator | null) => {
    const prev = indicatorRef.current;
    if (prev?.target === v?.target && prev?.zone === v?.zone) return;
    indicatorRef.current = v;
    setIndicator(v);
  };

  const onDragStart = (e: DragStartEvent) => {
    setDragging((e.active.data.current as DragData | undefined) ?? null);
    setInd(null);
  };
  const onDragMove = (e: DragMoveEvent) => setInd(resolveDrop(e));
  const onDragEnd = (e: DragEndEvent) => {
    markDragEnd();
    const ind = resolveDrop(e);
    const data = e.active.data.current as DragData | undefined;
    setDragging(null);
    setInd(null);
    if (!ind || !data) return;
    if (data.type === 'board') {
      void moveBoardTo(data.board, ind.target === 'root' ? null : ind.target);
      return;
    }
    const plan = planFolderDrop(folders, data.folder.id, ind.target === 'root' ? null : ind.target, ind.zone);
    if (plan) void runFolderMove(plan);
  };
  const onDragCancel = () => {
    markDragEnd();
    setDragging(null);
    setInd(null);
  };

  const announcements = useMemo<Announcements>(() => {
    const nameOf = (d: DragData | undefined) =>
      d?.type === 'board' ? `«${d.board.title}»` : d ? `«${d.folder.name}»` : '';
    const overName = (id: string | number | undefined) => {
      if (!id) return '';
      if (id === 'drop:root') return SPEC.noFolder;
      const f = findFolder(folders, String(id).replace('drop:folder:', ''));
      return f ? `«${f.name}»` : '';
    };
    return {
      onDragStart: ({ active }) => `${OWN.a11yPicked} ${nameOf(active.data.current as DragData)}`,
      onDragOver: ({ active, over }) =>
        over ? `${nameOf(active.data.current as DragData)} — ${overName(over.id)}` : OWN.a11yNoTarget,
      onDragEnd: ({ active, over }) =>
        over ? `${nameOf(active.data.current as DragData)} → ${overName(over.id)}` : OWN.a11yDropped,
      onDragCancel: () => OWN.a11yCancelled,
    };
  }, [folders]);

  const filtered = hasActiveFilters(filters) || searchInput.trim() !== '';
  const loadingBoards = boardsQ.isLoading || (boardsQ.isFetching && !boardsQ.data);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragOver={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={onDragCancel}
      accessibility={{ announcements, screenReaderInstructions: { draggable: OWN.a11yInstructions } }}
    >
      <div className={`app-shell dash${dragging ? ' dash--dragging' : ''}`} data-testid="dashboard-page">
        <AppHeader
          limits={limits}
          leading={
            <button
              type="button"
              className="icon-btn dash__sidebar-toggle"
              onClick={() => setSidebarOpen((v) => !v)}
              aria-label={OWN.showFolders}
              aria-expanded={sidebarOpen}
              data-testid="sidebar-toggle"
            >
              <PanelLeftIcon size={20} />
            </button>
          }
        />
        <div className="dash__body">
          <aside className={`dash__sidebar${sidebarOpen ? ' dash__sidebar--open' : ''}`}>
            <FoldersPanel
              folders={folders}
              foldersLoading={foldersQ.isLoading}
              filter={folderFilter}
              onSelect={selectFolder}
              expanded={expanded}
              onToggleExpanded={(id) => updateExpanded((s) => (s.has(id) ? s.delete(id) : s.add(id)))}
              tags={tags}
              selectedTagIds={tagIds}
              onToggleTag={(id) =>
                setTagIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]))
              }
              onResetTags={() => setTagIds([])}
              onCreateFolder={(parent) => setModal({ kind: 'folder', state: { mode: 'create', parent } })}
              onRenameFolder={(folder) => setModal({ kind: 'folder', state: { mode: 'rename', folder } })}
              onDeleteFolder={onDeleteFolder}
              indicator={indicator}
              draggingFolderId={dragging?.type === 'folder' ? dragging.folder.id : null}
              totalBoards={limits?.current ?? null}
            />
          </aside>
          {sidebarOpen ? (
            <div className="dash__scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" />
          ) : null}

          <main className="dash__main">
            <div className="dash__toolbar">
              <div className="dash__heading">
                {selectedFolder ? (
                  <span
                    className="dash__heading-dot"
                    style={{ background: selectedFolder.color }}
                    aria-hidden="true"
                  />
                ) : null}
                <h1 className="dash__title" data-testid="dashboard-title">
                  {title}
                </h1>
                {boardsQ.data && boards.length > 0 ? (
                  <span className="dash__count" data-testid="boards-count">
                    {hasNextPage
                      ? `${boards.length}+ ${plural(boards.length, 'доска', 'доски', 'досок')}`
                      : OWN.boardsCount(boards.length)}
                  </span>
                ) : null}
              </div>
              <div className="dash__actions">
                <label className="search">
                  <SearchIcon size={17} />
                  <input
                    type="search"
                    className="search__input"
                    placeholder={SPEC.searchPlaceholder}
                    value={searchInput}
                    onChange={(e) => setSearchInput(e.target.value)}
                    aria-label={SPEC.searchPlaceholder}
                    maxLength={200}
                    data-testid="board-search"
                  />
                  {searchInput ? (
                    <button
                      type="button"
                      className="search__clear"
                      onClick={() => setSearchInput('')}
                      aria-label={OWN.reset}
                    >
                      <XIcon size={14} />
                    </button>
                  ) : null}
                </label>
                <button
                  type="button"
                  className="btn btn--primary dash__create"
                  onClick={() => setModal({ kind: 'create' })}
                  disabled={!canCreate}
                  title={limits && !canCreate ? SPEC.boardLimit : undefined}
                  data-testid="create-board"
                >
                  <PlusIcon size={18} />
                  <span>{OWN.newBoard}</span>
                </button>
              </div>
            </div>

            {limits && !canCreate ? (
              <div className="dash-banner" data-testid="limit-banner">
                <span>{SPEC.boardLimit}</span>
                <Link to="/pricing" className="btn btn--sm btn--accent">
                  {SPEC.upgrade}
                </Link>
              </div>
            ) : null}

            {loadingBoards ? (
              <div className="board-grid" aria-busy="true">
                {Array.from({ length: 6 }, (_, i) => (
                  <div key={i} className="board-card board-card--skeleton" />
                ))}
              </div>
            ) : boards.length === 0 && boardsQ.data ? (
              filtered ? (
                <div className="empty-state dash-empty" data-testid="empty-filtered">
                  <div className="empty-state__icon">
                    <SearchIcon size={26} />
                  </div>
                  <h2>{SPEC.emptyFiltered}</h2>
                  <p>{OWN.emptyFilteredHint}</p>
                  <button type="button" className="btn btn--secondary btn--sm" onClick={resetFilters}>
                    {OWN.resetFilters}
                  </button>
                </div>
              ) : (
                <div className="empty-state dash-empty" data-testid="empty-none">
                  <div className="empty-state__icon">
                    <LayoutGridIcon size={26} />
                  </div>
                  <h2>{SPEC.emptyNone}</h2>
                  <p>{OWN.emptyNoneHint}</p>
                  <button
                    type="button"
                    className="btn btn--primary btn--sm"
                    onClick={() => setModal({ kind: 'create' })}
                    disabled={!canCreate}
                  >
                    <PlusIcon size={16} />
                    {OWN.newBoard}
                  </button>
                </div>
              )
            ) : (
              <div
                className={`board-grid${boardsQ.isFetching ? ' board-grid--fetching' : ''}`}
                data-testid="board-grid"
              >
                {boards.map((b) => (
                  <BoardCard key={b.id} board={b} onAction={onBoardAction} />
                ))}
              </div>
            )}
            {hasNextPage && boards.length > 0 ? (
              <LoadMore
                busy={isFetchingNextPage}
                onVisible={() => void (!isFetchingNextPage && fetchNextPage())}
              />
            ) : null}
          </main>
        </div>
      </div>

      <DragOverlay dropAnimation={null}>
        {dragging?.type === 'board' ? <BoardDragPreview board={dragging.board} /> : null}
        {dragging?.type === 'folder' ? <FolderDragPreview folder={dragging.folder} /> : null}
      </DragOverlay>

      {modal?.kind === 'create' ? (
        <CreateBoardModal
          onClose={() => setModal(null)}
          canCreate={canCreate}
          folders={folders}
          defaultFolderId={folderFilter.kind === 'folder' ? folderFilter.id : null}
        />
      ) : null}
      {modal?.kind === 'rename' ? (
        <RenameBoardModal board={modal.board} onClose={() => setModal(null)} />
      ) : null}
      {modal?.kind === 'access' ? <AccessModal board={modal.board} onClose={() => setModal(null)} /> : null}
      {modal?.kind === 'tags' ? <TagsModal board={modal.board} onClose={() => setModal(null)} /> : null}
      {modal?.kind === 'folder' ? (
        <FolderModal
          state={modal.state}
          onClose={() => setModal(null)}
          onCreated={(_f, parent) => {
            if (parent) updateExpanded((s) => s.add(parent.id));
          }}
        />
      ) : null}
    </DndContext>
  );
}
