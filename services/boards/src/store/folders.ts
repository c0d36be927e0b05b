import type { Queryable } from '@wb/db';
import type { FolderRow } from '../domain/folders.ts';

/**
 * Every change to one user's folder tree runs under this transaction-scoped lock, so concurrent
 * moves cannot build a cycle between their checks and sort_order stays dense (0..n-1) per parent.
 */
export async function lockFolderTree(db: Queryable, ownerId: string) {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('boards:folders:' || $1::text, 0))`, [ownerId]);
}

export interface FolderRef {
  id: string;
  owner_id: string;
  parent_id: string | null;
  name: string;
  color: string;
  sort_order: number;
}

export async function getFolder(db: Queryable, id: string, keyShare = false): Promise<FolderRef | null> {
  const { rows } = await db.query<FolderRef>(
    `SELECT id, owner_id, parent_id, name, color, sort_order FROM folders WHERE id = $1${keyShare ? ' FOR KEY SHARE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function listFolderRows(db: Queryable, ownerId: string): Promise<FolderRow[]> {
  // Named: every sidebar load runs it, so each connection parses and plans it once. board_count is
  // trigger-kept (migration 006).
  const { rows } = await db.query<FolderRow>({
    name: 'folders_tree',
    // No ORDER BY: buildFolderTree orders each parent's children itself, and a collated sort of
    // 1,000 names was most of this query's time.
    text: `SELECT f.id, f.name, f.parent_id, f.color, f.sort_order, f.board_count
             FROM folders f WHERE f.owner_id = $1`,
    values: [ownerId],
  });
  return rows;
}

export async function folderWithCount(db: Queryable, id: string): Promise<FolderRow | null> {
  const { rows } = await db.query<FolderRow>(
    `SELECT f.id, f.name, f.parent_id, f.color, f.sort_order, f.board_count
       FROM folders f WHERE f.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** A parent's children in their current order (row-locked as well, for callers outside the tree lock). */
export async function siblings(db: Queryable, ownerId: string, parentId: string | null): Promise<{ id: string; sort_order: number }[]> {
  const { rows } = await db.query<{ id: string; sort_order: number }>(
    `SELECT id, sort_order FROM folders WHERE owner_id = $1 AND parent_id IS NOT DISTINCT FROM $2
      ORDER BY sort_order, name, id FOR UPDATE`,
    [ownerId, parentId],
  );
  return rows;
}

/** The folder and all its ancestors, nearest first (recursive CTE; depth-capped against corrupt data). */
export async function ancestorChain(db: Queryable, folderId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE chain(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM folders WHERE id = $1
       UNION ALL
       SELECT f.id, f.parent_id, c.depth + 1 FROM folders f JOIN chain c ON f.id = c.parent_id WHERE c.depth < 10000
     ) SELECT id FROM chain ORDER BY depth`,
    [folderId],
  );
  return rows.map((r) => r.id);
}

export async function insertFolder(
  db: Queryable,
  f: { ownerId: string; name: string; parentId: string | null; color: string; sortOrder: number },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO folders (owner_id, name, parent_id, color, sort_order) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [f.ownerId, f.name, f.parentId, f.color, f.sortOrder],
  );
  return rows[0].id;
}

export async function updateFolderFields(db: Queryable, id: string, p: { name?: string; color?: string }) {
  await db.query('UPDATE folders SET name = COALESCE($2, name), color = COALESCE($3, color), updated_at = now() WHERE id = $1', [
    id,
    p.name ?? null,
    p.color ?? null,
  ]);
}

export async function setFolderParent(db: Queryable, id: string, parentId: string | null, sortOrder: number) {
  await db.query('UPDATE folders SET parent_id = $2, sort_order = $3, updated_at = now() WHERE id = $1', [id, parentId, sortOrder]);
}

export async function writePositions(db: Queryable, positions: { id: string; sort_order: number }[]) {
  if (positions.length === 0) return;
  await db.query(
    `UPDATE folders f SET sort_order = p.pos FROM unnest($1::uuid[], $2::int[]) AS p(id, pos) WHERE f.id = p.id`,
    [positions.map((p) => p.id), positions.map((p) => p.sort_order)],
  );
}

/** Boards in these folders, to move them to the root with an event each. */
export async function boardsInFolders(db: Queryable, folderIds: string[]) {
  const { rows } = await db.query<{ id: string; owner_id: string; title: string; background: string }>(
    'SELECT id, owner_id, title, background FROM boards WHERE folder_id = ANY($1::uuid[]) FOR UPDATE',
    [folderIds],
  );
  return rows;
}

export async function moveBoardsToRoot(db: Queryable, folderIds: string[]) {
  await db.query('UPDATE boards SET folder_id = NULL WHERE folder_id = ANY($1::uuid[])', [folderIds]);
}

/** Moves every child folder of `folderId` under `newParent`, keeping their sort_order (renumbered after). */
export async function reparentChildren(db: Queryable, folderId: string, newParent: string | null) {
  await db.query('UPDATE folders SET parent_id = $2, updated_at = now() WHERE parent_id = $1', [folderId, newParent]);
}

export async function deleteFolders(db: Queryable, folderIds: string[]) {
  await db.query('DELETE FROM folders WHERE id = ANY($1::uuid[])', [folderIds]);
}
