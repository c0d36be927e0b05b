/**
 * The dashboard (§2): folders panel on the left, board grid on the right, dialogs, and drag and drop
 * of boards onto folders and of folders onto folders. State and server work live in hooks/, the
 * pieces of the page in components/.
 */
import { DndContext, DragOverlay } from '@dnd-kit/core';
import { PanelLeftIcon } from 'lucide-react';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { clsx as cx } from 'clsx';
import { AppHeader } from '../../components/AppHeader.tsx';
import { buttonClass, ConfirmProvider, IconButton } from '../../components/ui/index.ts';
import { AccessModal } from './AccessModal.tsx';
import { BoardDragPreview } from './BoardCard.tsx';
import { BoardsArea } from './components/BoardsArea.tsx';
import { DashboardToolbar } from './components/DashboardToolbar.tsx';
import { collisionDetection } from './dnd.ts';
import { FolderDragPreview, FoldersPanel } from './FoldersPanel.tsx';
import { useDashboardActions } from './hooks/useDashboardActions.ts';
import { useDashboardData } from './hooks/useDashboardData.ts';
import { useExpandedFolders } from './hooks/useExpandedFolders.ts';
import { useFolderDnd } from './hooks/useFolderDnd.ts';
import { ancestorIds, type FolderFilter } from './logic.ts';
import type { FolderModalState } from './modals.tsx';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem } from './types.ts';
import styles from './Dashboard.module.css';

// The form dialogs carry react-hook-form and zod (the contract schemas): loaded when the page has
// shown its boards and the visitor moves or types (see useIntentPreload) or on first use, never on
// the page's critical path.
const loadModals = () => import('./modals.tsx');
const loadTagsModal = () => import('./TagsModal.tsx');
const CreateBoardModal = lazy(() => loadModals().then((m) => ({ default: m.CreateBoardModal })));
const RenameBoardModal = lazy(() => loadModals().then((m) => ({ default: m.RenameBoardModal })));
const FolderModal = lazy(() => loadModals().then((m) => ({ default: m.FolderModal })));
const TagsModal = lazy(() => loadTagsModal().then((m) => ({ default: m.TagsModal })));

/**
 * Fetches the dialogs' code at the visitor's first move over the page or first key once the boards
 * are shown, so the first click opens one at once without putting ~45 kB (react-hook-form, zod, the
 * contract schemas) on every load of the page (issue 36 item 6).
 */
function useIntentPreload(ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    const events = ['pointerover', 'pointerdown', 'keydown', 'touchstart'] as const;
    const preload = () => {
      for (const e of events) document.removeEventListener(e, preload, true);
      void Promise.all([loadModals(), loadTagsModal()]).catch(() => undefined);
    };
    for (const e of events) document.addEventListener(e, preload, { capture: true, passive: true });
    return () => {
      for (const e of events) document.removeEventListener(e, preload, true);
    };
  }, [ready]);
}

type ModalState =
  | { kind: 'create' }
  | { kind: 'rename' | 'access' | 'tags'; board: BoardListItem }
  | { kind: 'folder'; state: FolderModalState }
  | null;

export function Dashboard() {
  return (
    <ConfirmProvider>
      <DashboardInner />
    </ConfirmProvider>
  );
}

/** The mobile folders drawer: Escape closes it, like a click on its overlay. */
function useDrawer() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return [open, setOpen] as const;
}

function DashboardInner() {
  const data = useDashboardData();
  const { folders, folderFilter, boardsQ, limits, canCreate } = data;
  const [expanded, updateExpanded] = useExpandedFolders();
  const [modal, setModal] = useState<ModalState>(null);
  const [drawerOpen, setDrawerOpen] = useDrawer();
  const actions = useDashboardActions({
    folders,
    folderFilter,
    setFolderFilter: data.setFolderFilter,
    updateExpanded,
    openBoardDialog: (kind, board) => setModal({ kind, board }),
  });
  const dnd = useFolderDnd({
    folders,
    moveBoardTo: actions.moveBoardTo,
    runFolderMove: actions.runFolderMove,
  });

  const title =
    folderFilter.kind === 'all'
      ? SPEC.titleAll
      : folderFilter.kind === 'none'
        ? SPEC.titleNoFolder
        : (data.selectedFolder?.name ?? '');

  const selectFolder = (f: FolderFilter) => {
    data.setFolderFilter(f);
    setDrawerOpen(false);
    if (f.kind === 'folder') {
      const up = ancestorIds(folders, f.id);
      if (up.some((id) => !expanded.has(id))) updateExpanded((s) => up.forEach((id) => s.add(id)));
    }
  };

  const searching = data.searchInput.trim() !== '' || data.tagIds.length > 0;
  const openCreate = () => setModal({ kind: 'create' });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = boardsQ;
  useIntentPreload(!!boardsQ.data);

  return (
    <DndContext
      sensors={dnd.sensors}
      collisionDetection={collisionDetection}
      {...dnd.handlers}
      accessibility={{
        announcements: dnd.announcements,
        screenReaderInstructions: { draggable: OWN.a11yInstructions },
      }}
    >
      <div className={cx('app-shell', styles.dash, dnd.dragging && styles.dashDragging)}
        data-dragging={dnd.dragging ? 'true' : undefined} data-testid="dashboard-page">
        <AppHeader
          limits={limits}
          leading={
            <IconButton
              className={styles.dashSidebarToggle}
              onClick={() => setDrawerOpen((v) => !v)}
              label={OWN.showFolders}
              aria-expanded={drawerOpen}
              data-testid="sidebar-toggle"
            >
              <PanelLeftIcon size={20} aria-hidden="true" />
            </IconButton>
          }
        />
        <div className={styles.dashBody}>
          <aside
            className={cx(styles.dashSidebar, drawerOpen && styles.dashSidebarOpen)}
            data-testid="dash-sidebar"
          >
            <FoldersPanel
              folders={folders}
              foldersLoading={data.foldersLoading}
              filter={folderFilter}
              onSelect={selectFolder}
              expanded={expanded}
              onToggleExpanded={(id) => updateExpanded((s) => (s.has(id) ? s.delete(id) : s.add(id)))}
              tags={data.tags}
              selectedTagIds={data.tagIds}
              onToggleTag={data.toggleTag}
              onResetTags={data.resetTags}
              onCreateFolder={(parent) => setModal({ kind: 'folder', state: { mode: 'create', parent } })}
              onRenameFolder={(folder) => setModal({ kind: 'folder', state: { mode: 'rename', folder } })}
              onDeleteFolder={actions.onDeleteFolder}
              indicator={dnd.indicator}
              draggingFolderId={dnd.dragging?.type === 'folder' ? dnd.dragging.folder.id : null}
              totalBoards={limits?.current ?? null}
            />
          </aside>
          {drawerOpen ? (
            <div
              className={styles.dashScrim}
              onClick={() => setDrawerOpen(false)}
              aria-hidden="true"
              data-testid="dash-scrim"
            />
          ) : null}

          <main className={styles.dashMain}>
            <DashboardToolbar
              title={title}
              folder={data.selectedFolder}
              shown={data.boards.length}
              total={data.total}
              hasMore={!!hasNextPage}
              searchInput={data.searchInput}
              onSearch={data.setSearchInput}
              canCreate={canCreate}
              limitReached={!!limits && !canCreate}
              onCreate={openCreate}
            />

            {limits && !canCreate ? (
              <div className={styles.dashBanner} data-testid="limit-banner">
                <span>{SPEC.boardLimit}</span>
                <Link to="/pricing" className={buttonClass({ variant: 'accent', size: 'sm' })}>
                  {SPEC.upgrade}
                </Link>
              </div>
            ) : null}

            <BoardsArea
              boards={data.boards}
              loading={boardsQ.isLoading || (boardsQ.isFetching && !boardsQ.data)}
              fetching={boardsQ.isFetching}
              loadError={data.loadError}
              onRetry={() => void boardsQ.refetch()}
              retrying={boardsQ.isFetching}
              emptyKind={
                searching || folderFilter.kind === 'none'
                  ? 'filtered'
                  : folderFilter.kind === 'folder'
                    ? 'folder'
                    : 'none'
              }
              onResetFilters={data.resetFilters}
              onCreate={openCreate}
              canCreate={canCreate}
              hasMore={!!hasNextPage}
              loadingMore={isFetchingNextPage}
              onLoadMore={() => void (!isFetchingNextPage && fetchNextPage())}
              onAction={(action, board) => void actions.onBoardAction(action, board)}
            />
          </main>
        </div>
      </div>

      <DragOverlay dropAnimation={null}>
        {dnd.dragging?.type === 'board' ? <BoardDragPreview board={dnd.dragging.board} /> : null}
        {dnd.dragging?.type === 'folder' ? <FolderDragPreview folder={dnd.dragging.folder} /> : null}
      </DragOverlay>

      <Suspense fallback={null}>
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
      </Suspense>
    </DndContext>
  );
}
