import { useDraggable, useDroppable } from '@dnd-kit/core';
import { clsx as cx } from 'clsx';
import { useState, type CSSProperties } from 'react';
import { ActionsMenu, Button, IconButton } from '../../components/ui/index.ts';
import { ROOT_DROP_ID, folderDropId } from './dnd.ts';
import {
  ChevronRightIcon,
  FolderIcon,
  InboxIcon,
  LayoutGridIcon,
  PenLineIcon,
  PlusIcon,
  TrashIcon,
} from 'lucide-react';
import { visibleRows, type DropZone, type FolderFilter } from './logic.ts';
import { OWN, SPEC } from './texts.ts';
import type { FolderNode, TagView } from './types.ts';
import styles from './FoldersPanel.module.css';
import shared from './shared.module.css';

/** The drop indicator of a folder row for each zone (spec §2: before, inside, after). */
const DROP_ZONE_CLASS: Record<DropZone, string | undefined> = {
  before: styles.folderRowDropBefore,
  inside: styles.folderRowDropInside,
  after: styles.folderRowDropAfter,
};

/** A folder icon filled with a light tint of the folder's colour. */
const tintedFolder = (color: string | undefined) => ({
  fill: color ?? 'none',
  fillOpacity: color ? 0.18 : undefined,
});

export interface DropIndicator {
  target: string | 'root';
  zone: DropZone;
}

interface Props {
  folders: FolderNode[];
  foldersLoading: boolean;
  filter: FolderFilter;
  onSelect: (f: FolderFilter) => void;
  expanded: ReadonlySet<string>;
  onToggleExpanded: (id: string) => void;
  tags: TagView[];
  selectedTagIds: readonly string[];
  onToggleTag: (id: string) => void;
  onResetTags: () => void;
  onCreateFolder: (parent: FolderNode | null) => void;
  onRenameFolder: (folder: FolderNode) => void;
  onDeleteFolder: (folder: FolderNode) => void;
  indicator: DropIndicator | null;
  draggingFolderId: string | null;
  totalBoards: number | null;
}

export function FoldersPanel(p: Props) {
  const [tagsOpen, setTagsOpen] = useState(true);
  const rows = visibleRows(p.folders, p.expanded);
  const isAll = p.filter.kind === 'all';
  const isNone = p.filter.kind === 'none';
  const hasTree = !p.foldersLoading && rows.length > 0;

  return (
    <nav className={styles.foldersPanel} aria-label={OWN.folders} data-testid="folders-panel">
      <div className={styles.foldersPanelSection}>
        <Button
          variant="plain"
          className={cx(styles.navEntry, isAll && styles.navEntryActive)}
          onClick={() => p.onSelect({ kind: 'all' })}
          aria-current={isAll ? 'page' : undefined}
          data-testid="filter-all"
        >
          <LayoutGridIcon size={17} />
          <span className={styles.navEntryLabel}>{SPEC.showAll}</span>
          {p.totalBoards !== null ? <span className={styles.countBadge} data-testid="count-badge">{p.totalBoards}</span> : null}
        </Button>
        <RootEntry
          active={isNone}
          onSelect={() => p.onSelect({ kind: 'none' })}
          highlighted={p.indicator?.target === 'root'}
        />
      </div>

      <div className={styles.foldersPanelSection}>
        <div className={styles.foldersPanelHeading}>
          <Button
            variant="plain"
            className={styles.sectionToggle}
            aria-expanded={tagsOpen}
            onClick={() => setTagsOpen((v) => !v)}
            // The visible 'Теги' is the name (a different aria-label would not match what a voice
            // user reads on screen); the tag list itself is labelled as the filter.
            data-testid="tag-filter-toggle"
          >
            <ChevronRightIcon size={14} className={cx(styles.chev, tagsOpen && styles.chevOpen)} aria-hidden="true" />
            <span>{OWN.tags}</span>
            {p.selectedTagIds.length ? (
              <span className={`${styles.countBadge} ${shared.countBadgeAccent}`}>{p.selectedTagIds.length}</span>
            ) : null}
          </Button>
          {p.selectedTagIds.length ? (
            <Button variant="link" onClick={p.onResetTags} data-testid="tag-filter-reset">
              {OWN.reset}
            </Button>
          ) : null}
        </div>
        {tagsOpen ? (
          <div className={styles.tagFilter} role="group" aria-label={OWN.tagFilter} data-testid="tag-filter">
            {p.tags.length === 0 ? (
              <p className={styles.foldersPanelMuted}>{OWN.noTags}</p>
            ) : (
              p.tags.map((t) => {
                const on = p.selectedTagIds.includes(t.id);
                return (
                  <Button
                    key={t.id}
                    variant="plain"
                    className={cx(styles.filterChip, on && styles.filterChipOn)}
                    style={{ '--tag-color': t.color } as CSSProperties}
                    aria-pressed={on}
                    onClick={() => p.onToggleTag(t.id)}
                    data-testid="tag-filter-chip"
                    data-tag-name={t.name}
                  >
                    <span className={shared.colorDot} style={{ background: t.color }} />
                    <span className={styles.filterChipName}>{t.name}</span>
                  </Button>
                );
              })
            )}
          </div>
        ) : null}
      </div>

      <div className={`${styles.foldersPanelSection} ${styles.foldersPanelSectionGrow}`}>
        <div className={styles.foldersPanelHeading}>
          <span className={styles.foldersPanelTitle}>{OWN.folders}</span>
          <IconButton
            size="sm"
            onClick={() => p.onCreateFolder(null)}
            label={OWN.newFolder}
            tooltip
            data-testid="create-folder"
          >
            <PlusIcon size={16} />
          </IconButton>
        </div>
        {/* A tree only while it has folders: role="tree" requires treeitems, and the skeleton or the
            empty state's button is neither (axe: aria-required-children). */}
        <div
          className={styles.folderTree}
          role={hasTree ? 'tree' : undefined}
          aria-label={hasTree ? OWN.folders : undefined}
          data-testid="folder-tree"
        >
          {p.foldersLoading ? (
            <div className={styles.folderTreeSkeleton} aria-hidden="true">
              <span />
              <span />
              <span />
            </div>
          ) : rows.length === 0 ? (
            <Button variant="plain" className={styles.folderTreeEmpty} onClick={() => p.onCreateFolder(null)}>
              <FolderIcon size={16} />
              {OWN.noFolders}
              <span className={styles.folderTreeEmptyCta}>{OWN.newFolder}</span>
            </Button>
          ) : (
            rows.map(({ node, depth }) => (
              <FolderRow
                key={node.id}
                node={node}
                depth={depth}
                active={p.filter.kind === 'folder' && p.filter.id === node.id}
                expanded={p.expanded.has(node.id)}
                onToggle={() => p.onToggleExpanded(node.id)}
                onSelect={() => p.onSelect({ kind: 'folder', id: node.id })}
                onCreateSub={() => p.onCreateFolder(node)}
                onRename={() => p.onRenameFolder(node)}
                onDelete={() => p.onDeleteFolder(node)}
                zone={p.indicator?.target === node.id ? p.indicator.zone : null}
                dimmed={p.draggingFolderId === node.id}
              />
            ))
          )}
        </div>
      </div>
    </nav>
  );
}

function RootEntry({
  active,
  onSelect,
  highlighted,
}: {
  active: boolean;
  onSelect: () => void;
  highlighted: boolean;
}) {
  const { setNodeRef } = useDroppable({ id: ROOT_DROP_ID, data: { type: 'root' } });
  return (
    <Button
      ref={setNodeRef}
      variant="plain"
      className={cx(styles.navEntry, active && styles.navEntryActive, highlighted && styles.navEntryDrop)}
      onClick={onSelect}
      aria-current={active ? 'page' : undefined}
      data-testid="filter-none"
    >
      <InboxIcon size={17} />
      <span className={styles.navEntryLabel}>{SPEC.noFolder}</span>
    </Button>
  );
}

interface RowProps {
  node: FolderNode;
  depth: number;
  active: boolean;
  expanded: boolean;
  onToggle: () => void;
  onSelect: () => void;
  onCreateSub: () => void;
  onRename: () => void;
  onDelete: () => void;
  zone: DropZone | null;
  dimmed: boolean;
}

function FolderRow({
  node,
  depth,
  active,
  expanded,
  onToggle,
  onSelect,
  onCreateSub,
  onRename,
  onDelete,
  zone,
  dimmed,
}: RowProps) {
  const drag = useDraggable({ id: `folder:${node.id}`, data: { type: 'folder', folder: node } });
  const drop = useDroppable({ id: folderDropId(node.id), data: { type: 'folder', folderId: node.id } });
  const hasChildren = node.children.length > 0;
  const setRef = (el: HTMLDivElement | null) => {
    drag.setNodeRef(el);
    drop.setNodeRef(el);
  };
  return (
    <div
      ref={setRef}
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={active}
      className={cx(
        styles.folderRow,
        active && styles.folderRowActive,
        zone && DROP_ZONE_CLASS[zone],
        dimmed && styles.folderRowDragging,
      )}
      style={{ '--depth': depth } as CSSProperties}
      data-testid="folder-row"
      data-folder-id={node.id}
      data-folder-name={node.name}
      data-drop-zone={zone ?? undefined}
      {...drag.listeners}
    >
      <IconButton
        plain
        className={cx(styles.folderRowToggle, !hasChildren && styles.folderRowToggleHidden)}
        onClick={onToggle}
        tabIndex={hasChildren ? 0 : -1}
        label={expanded ? OWN.collapse : OWN.expand}
        aria-hidden={hasChildren ? undefined : true}
        data-testid="folder-toggle"
      >
        <ChevronRightIcon size={14} className={cx(styles.chev, expanded && styles.chevOpen)} />
      </IconButton>
      <Button
        variant="plain"
        ref={drag.setActivatorNodeRef}
        className={styles.folderRowMain}
        onClick={onSelect}
        {...drag.attributes}
        data-testid="folder-select"
      >
        <span className={styles.folderRowIcon} style={{ color: node.color }}>
          <FolderIcon size={17} {...tintedFolder(node.color)} />
        </span>
        <span className={styles.folderRowName}>{node.name}</span>
        <span className={styles.countBadge} data-testid="count-badge">{node.board_count}</span>
      </Button>
      <ActionsMenu
        label={OWN.folderActions}
        testId="folder-menu"
        size="sm"
        className={styles.folderRowMenu}
        items={[
          {
            key: 'subfolder',
            label: OWN.createSubfolder,
            icon: <PlusIcon size={16} />,
            onSelect: onCreateSub,
          },
          { key: 'rename', label: OWN.rename, icon: <PenLineIcon size={16} />, onSelect: onRename },
          {
            key: 'delete',
            label: OWN.delete,
            icon: <TrashIcon size={16} />,
            danger: true,
            onSelect: onDelete,
          },
        ]}
      />
    </div>
  );
}

export function FolderDragPreview({ folder }: { folder: FolderNode }) {
  return (
    <div className={`${shared.dragPreview} ${shared.dragPreviewFolder}`}>
      <span style={{ color: folder.color, display: 'inline-flex' }}>
        <FolderIcon size={17} {...tintedFolder(folder.color)} />
      </span>
      <span className={shared.dragPreviewTitle}>{folder.name}</span>
    </div>
  );
}
