/**
 * Pure rules of the dashboard (no React, no I/O): drop zones, the folder-tree cycle check,
 * tag overflow on cards, the filters → GET /boards query, and small formatting helpers.
 */
import { SHARE_ROLES } from '@wb/contracts/constants';
import type { BoardListItem, FolderNode, ShareRole, TagView } from './types.ts';

// ---------- Filters ----------

/** Which boards the main area shows: all, those without a folder, or one folder's. */
export type FolderFilter = { kind: 'all' } | { kind: 'none' } | { kind: 'folder'; id: string };

export interface BoardFilters {
  folder: FolderFilter;
  search: string;
  tagIds: readonly string[];
}

/** Query parameters of GET /api/boards; absent keys are left out, so the cache key stays stable. */
export interface BoardsQuery {
  folder_id?: string;
  search?: string;
  tags?: string;
}

export function filtersToQuery(f: BoardFilters): BoardsQuery {
  const q: BoardsQuery = {};
  if (f.folder.kind === 'none') q.folder_id = 'none';
  else if (f.folder.kind === 'folder') q.folder_id = f.folder.id;
  const search = f.search.trim();
  if (search) q.search = search;
  const tags = [...new Set(f.tagIds)].filter(Boolean).sort();
  if (tags.length) q.tags = tags.join(',');
  return q;
}

/** Any filter beyond "all boards" — chooses between the two empty states of §2. */
export function hasActiveFilters(f: BoardFilters): boolean {
  return f.folder.kind !== 'all' || f.search.trim() !== '' || f.tagIds.length > 0;
}

// ---------- Tags on a card ----------

export const CARD_TAGS_SHOWN = 3;

/** Up to `max` tags, then the number of the rest for the '+N' chip (0 when nothing is hidden). */
export function splitTags<T>(tags: readonly T[], max = CARD_TAGS_SHOWN): { shown: T[]; rest: number } {
  return { shown: tags.slice(0, max), rest: Math.max(0, tags.length - max) };
}

export const overflowLabel = (rest: number): string | null => (rest > 0 ? `+${rest}` : null);

// ---------- Drop zones ----------

export type DropZone = 'before' | 'inside' | 'after';

/**
 * Zone of a folder row under the pointer (§2, §9): top 25 % before, bottom 25 % after, the middle inside.
 * `y` is the pointer's clientY, `top`/`height` the row's bounding rect.
 */
export function zoneFromPointer(y: number, top: number, height: number): DropZone {
  if (!(height > 0)) return 'inside';
  const rel = (y - top) / height;
  if (rel < 0.25) return 'before';
  if (rel > 0.75) return 'after';
  return 'inside';
}

// ---------- Folder tree ----------

export function findFolder(tree: readonly FolderNode[], id: string): FolderNode | null {
  for (const node of tree) {
    if (node.id === id) return node;
    const hit = findFolder(node.children, id);
    if (hit) return hit;
  }
  return null;
}

/** Ids of the folder and everything under it. */
export function subtreeIds(node: FolderNode): Set<string> {
  const out = new Set<string>();
  const walk = (n: FolderNode) => {
    out.add(n.id);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}

/** True when `targetId` is the folder itself or one of its descendants. */
export function isSelfOrDescendant(tree: readonly FolderNode[], folderId: string, targetId: string): boolean {
  if (folderId === targetId) return true;
  const node = findFolder(tree, folderId);
  return node ? subtreeIds(node).has(targetId) : false;
}

/** The request a folder drop turns into, or null when the drop is refused or changes nothing. */
export type FolderMove =
  | { kind: 'inside'; folder_id: string; parent_id: string | null }
  | {
      kind: 'position';
      folder_id: string;
      parent_id: string | null;
      target_folder_id: string;
      position: 'before' | 'after';
    };

/**
 * Dropping `folderId` on the row of `targetId` in `zone`. Every zone is refused when the target is
 * the folder itself or lies under it (before/after a descendant would put the folder under itself too).
 * Moving inside the current parent is a no-op.
 */
export function planFolderDrop(
  tree: readonly FolderNode[],
  folderId: string,
  targetId: string | null,
  zone: DropZone,
): FolderMove | null {
  const folder = findFolder(tree, folderId);
  if (!folder) return null;
  if (targetId === null) {
    // The 'Без папки' entry: to the root.
    return folder.parent_id === null ? null : { kind: 'inside', folder_id: folderId, parent_id: null };
  }
  const target = findFolder(tree, targetId);
  if (!target || isSelfOrDescendant(tree, folderId, targetId)) return null;
  if (zone === 'inside') {
    return folder.parent_id === target.id
      ? null
      : { kind: 'inside', folder_id: folderId, parent_id: target.id };
  }
  return {
    kind: 'position',
    folder_id: folderId,
    parent_id: target.parent_id,
    target_folder_id: target.id,
    position: zone,
  };
}

/** Ancestors of a folder, root first (for keeping a selected folder's branch open). */
export function ancestorIds(tree: readonly FolderNode[], id: string): string[] {
  const path: string[] = [];
  const walk = (nodes: readonly FolderNode[]): boolean => {
    for (const n of nodes) {
      if (n.id === id) return true;
      path.push(n.id);
      if (walk(n.children)) return true;
      path.pop();
    }
    return false;
  };
  return walk(tree) ? path : [];
}

/** A flat, depth-annotated list of the visible rows (children of collapsed folders are hidden). */
export function visibleRows(
  tree: readonly FolderNode[],
  expanded: ReadonlySet<string>,
): { node: FolderNode; depth: number }[] {
  const rows: { node: FolderNode; depth: number }[] = [];
  const walk = (nodes: readonly FolderNode[], depth: number) => {
    for (const n of nodes) {
      rows.push({ node: n, depth });
      if (n.children.length && expanded.has(n.id)) walk(n.children, depth + 1);
    }
  };
  walk(tree, 0);
  return rows;
}

// ---------- Expanded folders (kept in localStorage) ----------

export const EXPANDED_STORAGE_KEY = 'wb.dashboard.expandedFolders';

export function parseExpanded(raw: string | null): Set<string> {
  if (!raw) return new Set();
  try {
    const v: unknown = JSON.parse(raw);
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export const serializeExpanded = (s: ReadonlySet<string>): string => JSON.stringify([...s].sort());

// ---------- Sharing ----------

export { SHARE_ROLES };

type TokenHolder = Pick<BoardListItem, 'viewer_token_hash' | 'guest_token_hash' | 'editor_token_hash'>;

export const tokenOf = (b: TokenHolder, role: ShareRole): string | null => b[`${role}_token_hash`];

/** Roles with a link configured (their token is present). */
export const enabledRoles = (b: TokenHolder): ShareRole[] =>
  SHARE_ROLES.filter((r) => tokenOf(b, r) !== null);

/** The roles list after switching one role on or off, in the canonical order. */
export function toggleRole(current: readonly ShareRole[], role: ShareRole, on: boolean): ShareRole[] {
  const set = new Set(current);
  if (on) set.add(role);
  else set.delete(role);
  return SHARE_ROLES.filter((r) => set.has(r));
}

export const shareLink = (origin: string, boardId: string, token: string): string =>
  `${origin}/board/${boardId}?token=${token}`;

// ---------- Tags ----------

export function sameIdSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

// ---------- Formatting ----------

const dateFmt = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric' });

/** The card's updated date in the Russian locale, e.g. '5 мая 2025 г.'; '' for a bad value. */
export function formatBoardDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateFmt.format(d);
}

export type { TagView };

// ---------- totals, folder deletion, refused drops ----------

/**
 * How many boards the current view holds in all, from what the page already has: the user's total
 * (limits.current) for 'all', a folder's own count, or the total less the boards in folders for
 * 'without folder'. Null for a search or tag filter: the list answer carries no total for those.
 */
export function viewTotal(
  filters: BoardFilters,
  folders: readonly FolderNode[],
  allBoards: number | null,
): number | null {
  if (filters.search.trim() !== '' || filters.tagIds.length > 0) return null;
  if (filters.folder.kind === 'all') return allBoards;
  if (filters.folder.kind === 'folder') return findFolder(folders, filters.folder.id)?.board_count ?? null;
  if (allBoards === null) return null;
  const inFolders = (nodes: readonly FolderNode[]): number =>
    nodes.reduce((n, f) => n + f.board_count + inFolders(f.children), 0);
  return Math.max(0, allBoards - inFolders(folders));
}

/** What deleting a folder does to its subfolders: they move up to its parent (null = the top level). */
export interface FolderDeletion {
  subfolders: string[];
  parentName: string | null;
}

export function folderDeletion(tree: readonly FolderNode[], folder: FolderNode): FolderDeletion {
  const parent = folder.parent_id ? findFolder(tree, folder.parent_id) : null;
  return { subfolders: folder.children.map((c) => c.name), parentName: parent?.name ?? null };
}

/** A folder dropped onto one of its own descendants: refused, and the user is told why. */
export function isDropIntoOwnChild(tree: readonly FolderNode[], folderId: string, targetId: string | null): boolean {
  return targetId !== null && targetId !== folderId && isSelfOrDescendant(tree, folderId, targetId);
}
