import type { FolderNode } from '@wb/contracts';

export interface FolderRow {
  id: string;
  name: string;
  parent_id: string | null;
  color: string;
  sort_order: number;
  board_count: number;
}

/** Builds the tree from flat rows; siblings by sort_order. Rows whose parent is missing become roots rather than vanish. */
export function buildFolderTree(rows: readonly FolderRow[]): FolderNode[] {
  const nodes = new Map<string, FolderNode>();
  for (const r of rows) nodes.set(r.id, { ...r, children: [] });
  const roots: FolderNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parent_id ? nodes.get(n.parent_id) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  const sort = (list: FolderNode[]) => {
    list.sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/**
 * Moving `folderId` under `newParentId` is cyclic when the new parent is the folder itself or one
 * of its descendants, i.e. when the folder appears on the new parent's ancestor chain.
 * `ancestorsOfNewParent` starts with the new parent itself.
 */
export function isCyclicMove(folderId: string, newParentId: string | null, ancestorsOfNewParent: readonly string[]): boolean {
  if (newParentId === null) return false;
  return newParentId === folderId || ancestorsOfNewParent.includes(folderId);
}

/**
 * The order of a parent's children after placing `movingId` before or after `targetId`.
 * `siblings` is the parent's current order (it may already contain `movingId`).
 * Returns null when the target is not among the siblings.
 */
export function placeRelative(
  siblings: readonly string[],
  movingId: string,
  targetId: string,
  position: 'before' | 'after',
): string[] | null {
  if (movingId === targetId) return null;
  const rest = siblings.filter((id) => id !== movingId);
  const at = rest.indexOf(targetId);
  if (at < 0) return null;
  rest.splice(position === 'before' ? at : at + 1, 0, movingId);
  return rest;
}

/**
 * POST /folders/reorder: the listed folders take the first positions in the given order, the
 * siblings left out keep their relative order after them — so a client holding a stale list
 * cannot drop a folder created meanwhile out of the numbering. Null when an id is not a sibling.
 */
export function applyReorder(current: readonly string[], requested: readonly string[]): string[] | null {
  const set = new Set(current);
  if (requested.some((id) => !set.has(id))) return null;
  if (new Set(requested).size !== requested.length) return null;
  const listed = new Set(requested);
  return [...requested, ...current.filter((id) => !listed.has(id))];
}

/** Dense positions 0..n-1 for an order; the store writes only those that differ. */
export function densePositions(order: readonly string[], current: ReadonlyMap<string, number>): { id: string; sort_order: number }[] {
  return order.map((id, i) => ({ id, sort_order: i })).filter((p) => current.get(p.id) !== p.sort_order);
}

/**
 * The parent's new child order once `deletedId` goes: its own children take its place, in their
 * order, so nothing the user made disappears and the tree reads as before minus one level.
 */
export function promoteChildren(parentOrder: readonly string[], deletedId: string, childIds: readonly string[]): string[] {
  return parentOrder.flatMap((id) => (id === deletedId ? [...childIds] : [id]));
}
