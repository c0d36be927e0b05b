import type { Queryable } from '@wb/db';

export async function upsertUser(db: Queryable, u: { id: string; name: string; email: string; createdAt?: string }) {
  await db.query(
    `INSERT INTO users (id, name, email, created_at) VALUES ($1, $2, $3, COALESCE($4::timestamptz, now()))
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email`,
    [u.id, u.name, u.email, u.createdAt ?? null],
  );
}

export async function userName(db: Queryable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [id]);
  return rows[0]?.name ?? null;
}

export async function userEmail(db: Queryable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [id]);
  return rows[0]?.email ?? null;
}

/**
 * A deleted user leaves no subscription and no entitlements; their payments stay (with the name
 * copied at checkout), marked so that a payment confirmed afterwards grants nothing.
 */
export async function forgetUser(db: Queryable, id: string) {
  await db.query('UPDATE payments SET user_deleted_at = now() WHERE user_id = $1 AND user_deleted_at IS NULL', [id]);
  await db.query('DELETE FROM subscriptions WHERE user_id = $1', [id]);
  await db.query('DELETE FROM entitlements WHERE user_id = $1', [id]);
  await db.query('DELETE FROM users WHERE id = $1', [id]);
}

export async function allUserIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users UNION SELECT user_id FROM subscriptions');
  return rows.map((r) => r.id);
}
