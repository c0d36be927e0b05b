import { withTransaction, type Pool, type Queryable } from '@wb/db';
import { enqueueEvent } from '@wb/events';
import { userAction, type Actor, type AdminUserRow } from '../domain/admin-users.ts';
import type { UserRow } from '../domain/users.ts';
import { endAccountIn, lockUser, updateProfileIn } from './users.ts';

const LIST_COLUMNS = 'id, name, email, is_admin, plan_name, boards_count, created_at';

/** The newest `limit` users whose name or e-mail matches `pattern` (searchPattern), and how many match. */
export async function listUsers(db: Queryable, pattern: string | null, limit: number): Promise<{ rows: AdminUserRow[]; total: number }> {
  // The window counts every match: it is computed before LIMIT applies.
  const r = await db.query<AdminUserRow & { total: number }>(
    `SELECT ${LIST_COLUMNS}, count(*) OVER ()::int AS total FROM users
      WHERE $1::text IS NULL OR name ILIKE $1 OR email ILIKE $1
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [pattern, limit],
  );
  return { rows: r.rows, total: r.rows[0]?.total ?? 0 };
}

/**
 * An administrator's edit of a user's name and e-mail, with user.updated and the audit event in
 * the same transaction. An edit that changes nothing publishes neither. Null: no such user.
 */
export function adminUpdateUser(
  pool: Pool,
  id: string,
  patch: { name: string; email: string },
  actor: Actor,
  at: Date,
): Promise<{ before: UserRow; after: UserRow } | null> {
  return withTransaction(pool, async (client) => {
    const r = await updateProfileIn(client, id, patch);
    if (!r) return null;
    if (r.changed) await enqueueEvent(client, 'admin.action', userAction(actor, 'user.updated', r.before, r.after, at), 'auth');
    return r;
  });
}

/**
 * An administrator's deletion of a user: the owner's own deletion path (endAccountIn: sessions
 * revoked, user.deleted) plus the audit event, in one transaction. Returns the revoked session ids
 * for endSessions, or null when there is no such user.
 */
export function adminDeleteUser(pool: Pool, id: string, actor: Actor, at: Date): Promise<string[] | null> {
  return withTransaction(pool, async (client) => {
    const before = await lockUser(client, id);
    if (!before) return null;
    const sids = await endAccountIn(client, id, 'admin_deleted');
    if (!sids) return null;
    await enqueueEvent(client, 'admin.action', userAction(actor, 'user.deleted', before, null, at), 'auth');
    return sids;
  });
}
