import type { TagView } from '@wb/contracts';
import type { Queryable } from '@wb/db';

export async function listTags(db: Queryable, ownerId: string): Promise<TagView[]> {
  const { rows } = await db.query<TagView>('SELECT id, name, color FROM tags WHERE owner_id = $1 ORDER BY lower(name), id', [ownerId]);
  return rows;
}

export async function getTag(db: Queryable, id: string) {
  const { rows } = await db.query<TagView & { owner_id: string }>('SELECT id, name, color, owner_id FROM tags WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function insertTag(db: Queryable, t: { ownerId: string; name: string; color: string }): Promise<TagView> {
  const { rows } = await db.query<TagView>('INSERT INTO tags (owner_id, name, color) VALUES ($1, $2, $3) RETURNING id, name, color', [
    t.ownerId,
    t.name,
    t.color,
  ]);
  return rows[0];
}

export async function updateTag(db: Queryable, id: string, p: { name?: string; color?: string }): Promise<TagView> {
  const { rows } = await db.query<TagView>(
    'UPDATE tags SET name = COALESCE($2, name), color = COALESCE($3, color) WHERE id = $1 RETURNING id, name, color',
    [id, p.name ?? null, p.color ?? null],
  );
  return rows[0];
}

export async function deleteTag(db: Queryable, id: string) {
  await db.query('DELETE FROM tags WHERE id = $1', [id]);
}

/** How many of `ids` are tags of `ownerId`. */
export async function countOwnTags(db: Queryable, ownerId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM tags WHERE owner_id = $1 AND id = ANY($2::uuid[])', [
    ownerId,
    ids,
  ]);
  return rows[0].n;
}

export async function boardTags(db: Queryable, boardId: string): Promise<TagView[]> {
  const { rows } = await db.query<TagView>(
    'SELECT t.id, t.name, t.color FROM board_tags bt JOIN tags t ON t.id = bt.tag_id WHERE bt.board_id = $1 ORDER BY t.name, t.id',
    [boardId],
  );
  return rows;
}

export async function replaceBoardTags(db: Queryable, boardId: string, tagIds: string[]) {
  await db.query('DELETE FROM board_tags WHERE board_id = $1', [boardId]);
  if (tagIds.length > 0) {
    await db.query('INSERT INTO board_tags (board_id, tag_id) SELECT $1, unnest($2::uuid[])', [boardId, tagIds]);
  }
}
