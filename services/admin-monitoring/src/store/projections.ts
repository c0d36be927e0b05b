import type { Queryable } from '@wb/db';
import type { Person } from '../domain/activity-texts.ts';

/**
 * The rows that decide whether an event moves a counter. "Created" inserts and counts only when
 * the row is new; "deleted" turns a live row into a tombstone and uncounts only then (a tombstone
 * is also left for a row never seen, so its late "created" counts nothing).
 */
export type Removal<T> = { outcome: 'removed'; was: T } | { outcome: 'unknown' | 'repeat' };

async function tombstone<T>(db: Queryable, table: 'users' | 'boards', insertSql: string, params: unknown[], read: string, clear: string): Promise<Removal<T>> {
  const ins = await db.query(insertSql, params);
  if (ins.rowCount === 1) return { outcome: 'unknown' };
  const { rows } = await db.query(`SELECT ${read}, deleted FROM ${table} WHERE id = $1 FOR UPDATE`, [params[0]]);
  const row = rows[0] as (T & { deleted: boolean }) | undefined;
  if (!row || row.deleted) return { outcome: 'repeat' };
  await db.query(`UPDATE ${table} SET deleted = true${clear} WHERE id = $1`, [params[0]]);
  const { deleted: _deleted, ...was } = row;
  return { outcome: 'removed', was: was as T };
}

export async function addUser(db: Queryable, u: { id: string; name: string; email: string }): Promise<boolean> {
  const r = await db.query('INSERT INTO users (id, name, email) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [u.id, u.name, u.email]);
  return r.rowCount === 1;
}

/**
 * Only a user already kept is renamed: a row made here for an unknown user would make their
 * user.registered (redelivered after this update) look like a repeat and never count them.
 */
export async function renameUser(db: Queryable, u: { id: string; name: string; email: string }): Promise<void> {
  await db.query('UPDATE users SET name = $2, email = $3 WHERE id = $1 AND NOT deleted', [u.id, u.name, u.email]);
}

/** The deleted account's name and e-mail leave the projection (its activity lines stay as written). */
export const removeUser = (db: Queryable, id: string) =>
  tombstone<Person>(db, 'users', 'INSERT INTO users (id, deleted) VALUES ($1, true) ON CONFLICT (id) DO NOTHING', [id], 'name, email', ', name = NULL, email = NULL');

export async function personOf(db: Queryable, id: string): Promise<Person | null> {
  const { rows } = await db.query<Person>('SELECT name, email FROM users WHERE id = $1 AND NOT deleted', [id]);
  return rows[0] ?? null;
}

export async function addBoard(db: Queryable, b: { id: string; ownerId: string; title: string }): Promise<boolean> {
  const r = await db.query('INSERT INTO boards (id, owner_id, title) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [b.id, b.ownerId, b.title]);
  return r.rowCount === 1;
}

export async function retitleBoard(db: Queryable, id: string, title: string): Promise<void> {
  await db.query('UPDATE boards SET title = $2 WHERE id = $1 AND NOT deleted', [id, title]);
}

export const removeBoard = (db: Queryable, id: string, ownerId: string) =>
  tombstone<{ title: string | null }>(db, 'boards', 'INSERT INTO boards (id, owner_id, deleted) VALUES ($1, $2, true) ON CONFLICT (id) DO NOTHING', [id, ownerId], 'title', '');

export interface SubscriptionState {
  counted: boolean;
  planName: string | null;
}

/**
 * Locks the subscription's row (created uncounted when never seen) and answers its state, or null
 * when the row already reflects a later event than `at` (a late, older event changes nothing).
 */
export async function lockSubscription(db: Queryable, s: { id: string; userId: string; at: string }): Promise<SubscriptionState | null> {
  await db.query(
    `INSERT INTO subscriptions (id, user_id, counted, changed_at) VALUES ($1, $2, false, '-infinity') ON CONFLICT (id) DO NOTHING`,
    [s.id, s.userId],
  );
  const { rows } = await db.query<{ counted: boolean; plan_name: string | null; stale: boolean }>(
    'SELECT counted, plan_name, changed_at > $2::timestamptz AS stale FROM subscriptions WHERE id = $1 FOR UPDATE',
    [s.id, s.at],
  );
  const row = rows[0]!;
  return row.stale ? null : { counted: row.counted, planName: row.plan_name };
}

export async function saveSubscription(
  db: Queryable,
  s: { id: string; planName: string | null; status: string | null; counted: boolean; at: string },
): Promise<void> {
  // A revoke names no plan: the last known one stays for the text.
  await db.query(
    'UPDATE subscriptions SET plan_name = COALESCE($2, plan_name), status = $3, counted = $4, changed_at = $5 WHERE id = $1',
    [s.id, s.planName, s.status, s.counted, s.at],
  );
}

/** A deleted user's counted subscriptions end (billing drops them without an event); answers how many. */
export async function endSubscriptionsOf(db: Queryable, userId: string, at: string): Promise<number> {
  const r = await db.query(
    `UPDATE subscriptions SET counted = false, status = NULL, changed_at = GREATEST(changed_at, $2::timestamptz)
      WHERE id IN (SELECT id FROM subscriptions WHERE user_id = $1 AND counted ORDER BY id FOR UPDATE)`,
    [userId, at],
  );
  return r.rowCount ?? 0;
}

/**
 * true when this event makes the payment count: the first news of it, or (for a success) a payment
 * known only as failed. A repeat, or a failure after the success, is false.
 */
export async function notePayment(db: Queryable, p: { id: string; ok: boolean; amountMinor: number; currency: string; at: string }): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO payments (id, status, amount_minor, currency, at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO ${p.ok ? `UPDATE SET status = 'paid', at = EXCLUDED.at WHERE payments.status <> 'paid'` : 'NOTHING'}`,
    [p.id, p.ok ? 'paid' : 'failed', p.amountMinor, p.currency, p.at],
  );
  return r.rowCount === 1;
}
