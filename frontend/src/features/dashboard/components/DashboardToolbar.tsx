import { PlusIcon, SearchIcon, XIcon } from 'lucide-react';
import { Button, IconButton } from '../../../components/ui/index.ts';
import { OWN, plural, SPEC } from '../texts.ts';
import type { FolderNode } from '../types.ts';
import styles from './DashboardToolbar.module.css';

interface Props {
  title: string;
  folder: FolderNode | null;
  /** Boards shown so far, and the view's real total when the page knows it. */
  shown: number;
  total: number | null;
  hasMore: boolean;
  searchInput: string;
  onSearch: (value: string) => void;
  canCreate: boolean;
  limitReached: boolean;
  onCreate: () => void;
}

/** Count of the view: the real total when known; for a search with more pages, what is shown so far and '+'. */
function countText(shown: number, total: number | null, hasMore: boolean): string {
  if (total !== null) return OWN.boardsCount(total);
  return hasMore ? `${shown}+ ${plural(shown, 'доска', 'доски', 'досок')}` : OWN.boardsCount(shown);
}

/** The title of the current view with its board count, the search field and 'Новая доска'. */
export function DashboardToolbar(p: Props) {
  return (
    <div className={styles.dashToolbar}>
      <div className={styles.dashHeading}>
        {p.folder ? (
          <span className={styles.dashHeadingDot} style={{ background: p.folder.color }} aria-hidden="true" />
        ) : null}
        <h1 className={styles.dashTitle} data-testid="dashboard-title">
          {p.title}
        </h1>
        {p.shown > 0 ? (
          <span className={styles.dashCount} data-testid="boards-count">
            {countText(p.shown, p.total, p.hasMore)}
          </span>
        ) : null}
      </div>
      <div className={styles.dashActions}>
        <label className={styles.search}>
          <SearchIcon size={17} aria-hidden="true" />
          <input
            type="search"
            className={styles.searchInput}
            placeholder={SPEC.searchPlaceholder}
            value={p.searchInput}
            onChange={(e) => p.onSearch(e.target.value)}
            aria-label={SPEC.searchPlaceholder}
            maxLength={200}
            data-testid="board-search"
          />
          {p.searchInput ? (
            <IconButton plain className={styles.searchClear} onClick={() => p.onSearch('')} label={OWN.reset}>
              <XIcon size={14} aria-hidden="true" />
            </IconButton>
          ) : null}
        </label>
        <Button
          variant="primary"
          className={styles.dashCreate}
          onClick={p.onCreate}
          disabled={!p.canCreate}
          title={p.limitReached ? SPEC.boardLimit : undefined}
          // Narrow screens hide the text (icon only): the name must not depend on it.
          aria-label={OWN.newBoard}
          data-testid="create-board"
        >
          <PlusIcon size={18} aria-hidden="true" />
          <span>{OWN.newBoard}</span>
        </Button>
      </div>
    </div>
  );
}
