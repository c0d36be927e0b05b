import type { Queryable } from '@wb/db';

/** The owner's list version (migration 009): what a kept answer is checked against. */
export async function listVersion(db: Queryable, ownerId: string): Promise<string> {
  const { rows } = await db.query<{ version: string }>({
    name: 'list_version',
    text: 'SELECT COALESCE((SELECT version FROM list_versions WHERE owner_id = $1), 0)::text AS version',
    values: [ownerId],
  });
  return rows[0]!.version;
}
