import { useDraggable } from '@dnd-kit/core';
import type { CSSProperties, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { wasJustDragged } from './dnd.ts';
import {
  ArrowRightIcon,
  ArrowUpLeftIcon,
  ExternalLinkIcon,
  GripVerticalIcon,
  LinkIcon,
  PenLineIcon,
  TagIcon,
  TrashIcon,
} from 'lucide-react';
import { formatBoardDate, overflowLabel, splitTags } from './logic.ts';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem } from './types.ts';
import { DropdownMenu, type MenuItem } from './ui.tsx';

export type BoardAction = 'rename' | 'access' | 'tags' | 'root' | 'delete';

interface Props {
  board: BoardListItem;
  onAction: (action: BoardAction, board: BoardListItem) => void;
}

/** A hue from the id, so thumbnails differ a little without any image. */
function hueOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) % 360;
  return h;
}

export const boardPath = (id: string) => `/board/${id}`;

export function BoardCard({ board, onAction }: Props) {
  const navigate = useNavigate();
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, isDragging } = useDraggable({
    id: `board:${board.id}`,
    data: { type: 'board', board },
  });
  const { shown, rest } = splitTags(board.tags);
  const more = overflowLabel(rest);
  const hue = hueOf(board.id);

  const action = (key: BoardAction, label: string, icon: ReactNode, more?: Partial<MenuItem>): MenuItem => ({
    key,
    label,
    icon,
    onSelect: () => onAction(key, board),
    ...more,
  });
  const items: MenuItem[] = [
    {
      key: 'open',
      label: OWN.open,
      icon: <ArrowRightIcon size={16} />,
      onSelect: () => navigate(boardPath(board.id)),
    },
    action('rename', OWN.rename, <PenLineIcon size={16} />),
    action('access', OWN.access, <LinkIcon size={16} />),
    action('tags', OWN.tags, <TagIcon size={16} />),
    action('root', OWN.moveToRoot, <ArrowUpLeftIcon size={16} />, { disabled: board.folder_id === null }),
    action('delete', OWN.delete, <TrashIcon size={16} />, { danger: true }),
  ];

  return (
    <article
      ref={setNodeRef}
      className={`board-card${isDragging ? ' board-card--dragging' : ''}`}
      data-testid="board-card"
      data-board-id={board.id}
      {...listeners}
      onClick={(e) => {
        if (wasJustDragged()) return;
        const t = e.target as HTMLElement;
        if (t.closest('button, a, input')) return;
        navigate(boardPath(board.id));
      }}
    >
      <div className="board-card__thumb" style={{ '--thumb-hue': hue } as CSSProperties} aria-hidden="true">
        <span className="board-card__shape board-card__shape--a" />
        <span className="board-card__shape board-card__shape--b" />
        <span className="board-card__shape board-card__shape--c" />
      </div>
      <div className="board-card__tools">
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="icon-btn icon-btn--glass board-card__grip"
          {...attributes}
          aria-label={OWN.dragBoard(board.title)}
          title={OWN.dragBoardHint}
        >
          <GripVerticalIcon size={16} />
        </button>
        <span className="board-card__tools-spacer" />
        <a
          className="icon-btn icon-btn--glass"
          href={boardPath(board.id)}
          target="_blank"
          rel="noopener"
          draggable={false}
          aria-label={OWN.openNewWindow}
          title={OWN.openNewWindow}
          data-testid="board-open-new-window"
        >
          <ExternalLinkIcon size={16} />
        </a>
        <DropdownMenu
          items={items}
          label={OWN.boardActions}
          testId="board-menu"
          className="icon-btn--glass"
        />
      </div>
      {board.is_link_sharing_enabled ? (
        <span className="board-card__shared" data-testid="board-shared">
          <LinkIcon size={13} />
          {SPEC.sharedMark}
        </span>
      ) : null}
      <div className="board-card__body">
        <Link
          to={boardPath(board.id)}
          draggable={false}
          className="board-card__title"
          data-testid="board-title"
          title={board.title}
        >
          {board.title}
        </Link>
        <div className="board-card__meta">
          <span title={OWN.updated}>{formatBoardDate(board.updated_at)}</span>
          {board.owner_name ? (
            <>
              <span className="dot-sep" aria-hidden="true" />
              <span className="board-card__owner" data-testid="board-owner">
                {board.owner_name}
              </span>
            </>
          ) : null}
        </div>
        <div className="board-card__footer">
          {board.folder_id ? (
            <span className="folder-chip" data-testid="board-folder" title={board.folder_name ?? ''}>
              <span className="color-dot" style={{ background: board.folder_color ?? 'var(--c-text-3)' }} />
              <span className="folder-chip__name">{board.folder_name}</span>
            </span>
          ) : null}
          {shown.map((t) => (
            <span
              key={t.id}
              className="tag-chip"
              style={{ '--tag-color': t.color } as CSSProperties}
              data-testid="board-tag"
              title={t.name}
            >
              {t.name}
            </span>
          ))}
          {more ? (
            <span
              className="tag-chip tag-chip--more"
              data-testid="board-tag-more"
              title={board.tags
                .slice(3)
                .map((t) => t.name)
                .join(', ')}
            >
              {more}
            </span>
          ) : null}
        </div>
      </div>
    </article>
  );
}

/** The small card shown under the pointer while a board is dragged. */
export function BoardDragPreview({ board }: { board: BoardListItem }) {
  return (
    <div className="drag-preview">
      <span className="drag-preview__icon" style={{ '--thumb-hue': hueOf(board.id) } as CSSProperties} />
      <span className="drag-preview__title">{board.title}</span>
    </div>
  );
}
