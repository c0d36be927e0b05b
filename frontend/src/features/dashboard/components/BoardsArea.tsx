import { AlertTriangleIcon, FolderOpenIcon, LayoutGridIcon, PlusIcon, SearchIcon, RotateCwIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { BoardCard, type BoardAction } from '../BoardCard.tsx';
import { OWN, SPEC } from '../texts.ts';
import type { BoardListItem } from '../types.ts';
import card from '../BoardCard.module.css';
import styles from './BoardsArea.module.css';

interface Props {
  boards: BoardListItem[];
  loading: boolean;
  fetching: boolean;
  /** The list could not be loaded at all: shown in place, with a way to try again. */
  loadError: string | null;
  onRetry: () => void;
  retrying: boolean;
  /** Which empty state an empty list gets. */
  emptyKind: 'filtered' | 'folder' | 'none';
  onResetFilters: () => void;
  onCreate: () => void;
  canCreate: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onAction: (action: BoardAction, board: BoardListItem) => void;
}

function EmptyState({ testId, icon, title, hint, action }: { testId: string; icon: ReactNode; title: string; hint: string; action: ReactNode }) {
  return (
    <div className={`empty-state ${styles.dashEmpty}`} data-testid={testId}>
      <div className="empty-state__icon">{icon}</div>
      <h2>{title}</h2>
      <p>{hint}</p>
      {action}
    </div>
  );
}

/** Cards in the first commit; the rest of the page follows right after the first paint. */
const FIRST_PAINT_CARDS = 12;

/**
 * How many of `total` cards to render: a dozen first, all of them from the next task on. A cold start
 * runs React in the interpreter, where a page of 50 cards took about 300 ms before anything showed;
 * a dozen fill the first screen of any window.
 */
function useProgressiveCount(total: number): number {
  const [all, setAll] = useState(false);
  const needed = !all && total > FIRST_PAINT_CARDS;
  useEffect(() => {
    if (!needed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After the frame that shows the first cards: rAF runs before that paint, the timeout after it.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setAll(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [needed]);
  return all ? total : Math.min(total, FIRST_PAINT_CARDS);
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
    <div ref={ref} className={styles.dashMore} data-testid="boards-more">
      <Button size="sm" onClick={onVisible} loading={busy}>
        {OWN.loadMore}
      </Button>
    </div>
  );
}

/** The board grid with its loading skeleton, load error, empty states and paging. */
export function BoardsArea(p: Props) {
  const shown = useProgressiveCount(p.boards.length);
  if (p.loadError) {
    return (
      <div className={styles.error} role="alert" data-testid="boards-error">
        <span className={styles.errorIcon} aria-hidden="true">
          <AlertTriangleIcon size={24} />
        </span>
        <p className={styles.errorText} data-testid="boards-error-text">
          {p.loadError}
        </p>
        <Button variant="primary" size="sm" onClick={p.onRetry} loading={p.retrying} data-testid="boards-retry">
          <RotateCwIcon size={15} aria-hidden="true" />
          {OWN.retry}
        </Button>
      </div>
    );
  }
  if (p.loading) {
    return (
      <div className={styles.boardGrid} aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className={`${card.boardCard} ${card.boardCardSkeleton}`} />
        ))}
      </div>
    );
  }
  if (p.boards.length === 0) {
    const create = (
      <Button variant="primary" size="sm" onClick={p.onCreate} disabled={!p.canCreate}>
        <PlusIcon size={16} aria-hidden="true" />
        {OWN.newBoard}
      </Button>
    );
    if (p.emptyKind === 'filtered')
      return (
        <EmptyState
          testId="empty-filtered"
          icon={<SearchIcon size={26} />}
          title={SPEC.emptyFiltered}
          hint={OWN.emptyFilteredHint}
          action={
            <Button size="sm" onClick={p.onResetFilters}>
              {OWN.resetFilters}
            </Button>
          }
        />
      );
    if (p.emptyKind === 'folder')
      return (
        <EmptyState
          testId="empty-folder"
          icon={<FolderOpenIcon size={26} />}
          title={OWN.emptyFolder}
          hint={OWN.emptyFolderHint}
          action={create}
        />
      );
    return (
      <EmptyState
        testId="empty-none"
        icon={<LayoutGridIcon size={26} />}
        title={SPEC.emptyNone}
        hint={OWN.emptyNoneHint}
        action={create}
      />
    );
  }
  return (
    <>
      <div className={p.fetching ? `${styles.boardGrid} ${styles.boardGridFetching}` : styles.boardGrid} data-testid="board-grid">
        {p.boards.slice(0, shown).map((b) => (
          <BoardCard key={b.id} board={b} onAction={p.onAction} />
        ))}
      </div>
      {p.hasMore && shown === p.boards.length ? <LoadMore busy={p.loadingMore} onVisible={p.onLoadMore} /> : null}
    </>
  );
}
