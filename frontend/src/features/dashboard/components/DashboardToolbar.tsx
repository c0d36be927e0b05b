import { PlusIcon, SearchIcon, XIcon } from 'lucide-react';
import { OWN, plural, SPEC } from '../texts.ts';
import type { FolderNode } from '../types.ts';

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
    <div className="dash__toolbar">
      <div className="dash__heading">
        {p.folder ? (
          <span className="dash__heading-dot" style={{ background: p.folder.color }} aria-hidden="true" />
        ) : null}
        <h1 className="dash__title" data-testid="dashboard-title">
          {p.title}
        </h1>
        {p.shown > 0 ? (
          <span className="dash__count" data-testid="boards-count">
            {countText(p.shown, p.total, p.hasMore)}
          </span>
        ) : null}
      </div>
      <div className="dash__actions">
        <label className="search">
          <SearchIcon size={17} aria-hidden="true" />
          <input
            type="search"
            className="search__input"
            placeholder={SPEC.searchPlaceholder}
            value={p.searchInput}
            onChange={(e) => p.onSearch(e.target.value)}
            aria-label={SPEC.searchPlaceholder}
            maxLength={200}
            data-testid="board-search"
          />
          {p.searchInput ? (
            <button type="button" className="search__clear" onClick={() => p.onSearch('')} aria-label={OWN.reset}>
              <XIcon size={14} aria-hidden="true" />
            </button>
          ) : null}
        </label>
        <button
          type="button"
          className="btn btn--primary dash__create"
          onClick={p.onCreate}
          disabled={!p.canCreate}
          title={p.limitReached ? SPEC.boardLimit : undefined}
          data-testid="create-board"
        >
          <PlusIcon size={18} aria-hidden="true" />
          <span>{OWN.newBoard}</span>
        </button>
      </div>
    </div>
  );
}
