import { useDraggable } from '@dnd-kit/core';
import type { CSSProperties, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ActionsMenu, IconButton, type ActionsMenuItem } from '../../components/ui/index.ts';
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
import styles from './BoardCard.module.css';
import shared from './shared.module.css';
import { tagChipStyle } from './tagColors.ts';

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

  const action = (key: BoardAction, label: string, icon: ReactNode, more?: Partial<ActionsMenuItem>): ActionsMenuItem => ({
    key,
    label,
    icon,
    onSelect: () => onAction(key, board),
    ...more,
  });
  const items: ActionsMenuItem[] = [
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
      className={isDragging ? `${styles.boardCard} ${styles.boardCardDragging}` : styles.boardCard}
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
      <div className={styles.boardCardThumb} style={{ '--thumb-hue': hue } as CSSProperties} aria-hidden="true">
        <span className={`${styles.boardCardShape} ${styles.boardCardShapeA}`} />
        <span className={`${styles.boardCardShape} ${styles.boardCardShapeB}`} />
        <span className={`${styles.boardCardShape} ${styles.boardCardShapeC}`} />
      </div>
      <div className={styles.boardCardTools}>
        <IconButton
          plain
          ref={setActivatorNodeRef}
          className={`${styles.tool} ${styles.boardCardGrip}`}
          {...attributes}
          label={OWN.dragBoard(board.title)}
          title={OWN.dragBoardHint}
        >
          <GripVerticalIcon size={16} />
        </IconButton>
        <span className={styles.boardCardToolsSpacer} />
        <a
          className={styles.tool}
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
        <ActionsMenu items={items} label={OWN.boardActions} testId="board-menu" plain className={styles.tool} />
      </div>
      {board.is_link_sharing_enabled ? (
        <span className={styles.boardCardShared} data-testid="board-shared">
          <LinkIcon size={13} />
          {SPEC.sharedMark}
        </span>
      ) : null}
      <div className={styles.boardCardBody}>
        <Link
          to={boardPath(board.id)}
          draggable={false}
          className={styles.boardCardTitle}
          data-testid="board-title"
          title={board.title}
        >
          {board.title}
        </Link>
        <div className={styles.boardCardMeta} data-testid="board-meta">
          <span title={OWN.updated}>{formatBoardDate(board.updated_at)}</span>
          {board.owner_name ? (
            <>
              <span className={shared.dotSep} aria-hidden="true" />
              <span className={styles.boardCardOwner} data-testid="board-owner">
                {board.owner_name}
              </span>
            </>
          ) : null}
        </div>
        <div className={styles.boardCardFooter}>
          {board.folder_id ? (
            <span className={styles.folderChip} data-testid="board-folder" title={board.folder_name ?? ''}>
              <span className={shared.colorDot} style={{ background: board.folder_color ?? 'var(--c-text-3)' }} />
              <span className={styles.folderChipName}>{board.folder_name}</span>
            </span>
          ) : null}
          {shown.map((t) => (
            <span
              key={t.id}
              className={shared.tagChip}
              style={tagChipStyle(t.color)}
              data-testid="board-tag"
              title={t.name}
            >
              {t.name}
            </span>
          ))}
          {more ? (
            <span
              className={`${shared.tagChip} ${shared.tagChipMore}`}
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
    <div className={shared.dragPreview}>
      <span className={shared.dragPreviewIcon} style={{ '--thumb-hue': hueOf(board.id) } as CSSProperties} />
      <span className={shared.dragPreviewTitle}>{board.title}</span>
    </div>
  );
}
