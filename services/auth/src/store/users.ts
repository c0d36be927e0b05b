import { withTransaction, type Pool, type PoolClient, type Queryable } from '@wb/db';
import type { UserRow } from '../domain/users.ts';
import { mergeSettings } from '../domain/settings.ts';
import { publishUserDeleted, publishUserRegistered, publishUserUpdated } from '../events/publish.ts';
import { mapUniqueEmail } from './errors.ts';
import { revokeUserSessions } from './sessions.ts';

const COLUMNS = 'id, name, email, is_admin, plan_name, boards_count, created_at, settings, email_verified_at';

/** The /verify hot path: one primary-key lookup with a named (prepared once per connection) statement. */
export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const r = await db.query<UserRow>({ name: 'auth_user_by_id', text: `SELECT ${COLUMNS} FROM users WHERE id = $1`, values: [id] });
  return r.rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<(UserRow & { password_hash: string }) | null> {
  const r = await db.query<UserRow & { password_hash: string }>({
    name: 'auth_user_by_email',
    text: `SELECT ${COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`,
    values: [email],
  });
  return r.rows[0] ?? null;
}

export async function insertUser(
  client: PoolClient,
  u: { name: string; email: string; passwordHash: string; isAdmin?: boolean },
): Promise<UserRow> {
  const r = await client
    .query<UserRow>(`INSERT INTO users (name, email, password_hash, is_admin) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [
      u.name,
      u.email,
      u.passwordHash,
      u.isAdmin ?? false,
    ])
    .catch(mapUniqueEmail);
  await publishUserRegistered(client, r.rows[0]);
  return r.rows[0];
}

export async function lockUser(client: PoolClient, id: string): Promise<UserRow | null> {
  const r = await client.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [id]);
  return r.rows[0] ?? null;
}

/**
 * Name and/or email change; `user.updated` only when something really changed. Returns null when
 * the user no longer exists.
 */
export function updateProfile(pool: Pool, id: string, patch: { name?: string; email?: string }): Promise<UserRow | null> {
  return withTransaction(pool, async (client) => (await updateProfileIn(client, id, patch))?.after ?? null);
}

/** updateProfile inside the caller's transaction, with the row before (the admin's audit event needs both). */
export async function updateProfileIn(
  client: PoolClient,
  id: string,
  patch: { name?: string; email?: string },
): Promise<{ before: UserRow; after: UserRow; changed: boolean } | null> {
  const cur = await lockUser(client, id);
  if (!cur) return null;
  const name = patch.name ?? cur.name;
  const email = patch.email ?? cur.email;
  if (name === cur.name && email === cur.email) return { before: cur, after: cur, changed: false };
  const r = await client
    // A new address (not just its letter case) is unproven until its verification link is opened.
    .query<UserRow>(
      `UPDATE users SET name = $2, email = $3, updated_at = now(),
              email_verified_at = CASE WHEN lower(email) = lower($3) THEN email_verified_at END
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, name, email],
    )
    .catch(mapUniqueEmail);
  // Even a case-only change of the address is announced: other services show it.
  await publishUserUpdated(client, r.rows[0]);
  return { before: cur, after: r.rows[0], changed: true };
}

export async function getPasswordHash(db: Queryable, id: string): Promise<string | null> {
  const r = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [id]);
  return r.rows[0]?.password_hash ?? null;
}

export async function setPasswordHash(db: Queryable, id: string, hash: string): Promise<boolean> {
  const r = await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, hash]);
  return r.rowCount === 1;
}

export function updateSettings(pool: Pool, id: string, patch: Record<string, unknown>): Promise<UserRow | null> {
  return withTransaction(pool, async (client) => {
    const cur = await lockUser(client, id);
    if (!cur) return null;
    const merged = mergeSettings(cur.settings ?? {}, patch);
    const r = await client.query<UserRow>(`UPDATE users SET settings = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
      JSON.stringify(merged),
    ]);
    return r.rows[0];
  });
}

/** undefined: no such user; null: never chosen. */
export async function getFavoriteEmojis(db: Queryable, id: string): Promise<unknown> {
  const r = await db.query<{ favorite_emojis: unknown }>('SELECT favorite_emojis FROM users WHERE id = $1', [id]);
  return r.rowCount === 0 ? undefined : r.rows[0].favorite_emojis;
}

export async function setFavoriteEmojis(db: Queryable, id: string, favorites: string[]): Promise<boolean> {
  const r = await db.query('UPDATE users SET favorite_emojis = $2, updated_at = now() WHERE id = $1', [id, JSON.stringify(favorites)]);
  return r.rowCount === 1;
}

/**
 * Removes the user with their sessions and tokens (ON DELETE CASCADE) and announces it, so boards,
 * billing and the rest drop their data. False when already gone.
 */
export function deleteUser(pool: Pool, id: string): Promise<boolean> {
  return withTransaction(pool, (client) => deleteUserIn(client, id));
}

/** deleteUser inside the caller's transaction. */
export async function deleteUserIn(client: PoolClient, id: string): Promise<boolean> {
  const r = await client.query('DELETE FROM users WHERE id = $1', [id]);
  if (r.rowCount !== 1) return false;
  await publishUserDeleted(client, id);
  return true;
}

/**
 * Ending an account, by its owner (DELETE /api/auth/account) or an administrator: its sessions are
 * revoked and the user deleted in the caller's transaction. Returns the revoked session ids, which
 * the caller hands to endSessions once committed (every verifier refuses them, sockets close), or
 * null when the user is already gone.
 */
export async function endAccountIn(client: PoolClient, id: string, reason: 'account_deleted' | 'admin_deleted'): Promise<string[] | null> {
  const sids = await revokeUserSessions(client, id, reason);
  return (await deleteUserIn(client, id)) ? sids : null;
}
