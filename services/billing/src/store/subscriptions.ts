import { randomUUID } from 'node:crypto';
import type { SubscriptionStatus } from '@wb/contracts';
import type { Queryable } from '@wb/db';

export interface SubscriptionRow {
  id: string;
  user_id: string;
  user_name: string | null;
  plan_id: string;
  plan_name: string;
  status: SubscriptionStatus;
  expires_at: string;
  auto_renew: boolean;
}

const SELECT = `
  SELECT s.id, s.user_id, u.name AS user_name, s.plan_id, p.name AS plan_name, s.status, s.expires_at, s.auto_renew
  FROM subscriptions s JOIN plans p ON p.id = s.plan_id LEFT JOIN users u ON u.id = s.user_id`;

/**
 * `lock` takes the row for the rest of the transaction (payments and admin edits of one user queue
 * up). A user with no subscription yet has no row to lock: a lock on the user id (held until the
 * transaction ends) makes two first payments paid at once add up instead of the last one winning.
 */
export async function subscriptionOfUser(db: Queryable, userId: string, lock = false): Promise<SubscriptionRow | null> {
  if (lock) await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('billing.subscription:' || $1, 0))`, [userId]);
  const { rows } = await db.query<SubscriptionRow>(`${SELECT} WHERE s.user_id = $1 ${lock ? 'FOR UPDATE OF s' : ''}`, [userId]);
  return rows[0] ?? null;
}

export async function subscriptionById(db: Queryable, id: string, lock = false): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(`${SELECT} WHERE s.id = $1 ${lock ? 'FOR UPDATE OF s' : ''}`, [id]);
  return rows[0] ?? null;
}

export async function listSubscriptions(db: Queryable, search: string | undefined, limit = 500): Promise<SubscriptionRow[]> {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows } = await db.query<SubscriptionRow>(
    `${SELECT} WHERE $1::text IS NULL OR u.name ILIKE $1 OR u.email ILIKE $1 OR p.name ILIKE $1
     ORDER BY s.expires_at DESC LIMIT $2`,
    [pattern, limit],
  );
  return rows;
}

/** Creates the user's subscription or replaces the one they have (one per user). Returns its id. */
export async function putSubscription(
  db: Queryable,
  s: { userId: string; planId: string; status: SubscriptionStatus; expiresAt: Date },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO subscriptions (id, user_id, plan_id, status, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET plan_id = EXCLUDED.plan_id, status = EXCLUDED.status,
       expires_at = EXCLUDED.expires_at, auto_renew = true, updated_at = now()
     RETURNING id`,
    [randomUUID(), s.userId, s.planId, s.status, s.expiresAt],
  );
  return rows[0]!.id;
}

export async function updateSubscription(db: Queryable, id: string, s: { planId: string; status: SubscriptionStatus; expiresAt: Date }) {
  await db.query('UPDATE subscriptions SET plan_id = $2, status = $3, expires_at = $4, updated_at = now() WHERE id = $1', [
    id,
    s.planId,
    s.status,
    s.expiresAt,
  ]);
}

export async function setStatus(db: Queryable, id: string, status: SubscriptionStatus) {
  await db.query('UPDATE subscriptions SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
}

export async function setAutoRenew(db: Queryable, userId: string, autoRenew: boolean): Promise<boolean> {
  const r = await db.query('UPDATE subscriptions SET auto_renew = $2, updated_at = now() WHERE user_id = $1', [userId, autoRenew]);
  return (r.rowCount ?? 0) > 0;
}

export async function deleteSubscription(db: Queryable, id: string) {
  await db.query('DELETE FROM subscriptions WHERE id = $1', [id]);
}

/**
 * Subscriptions whose time moved them on (active past expiry, grace past the grace days), locked
 * with SKIP LOCKED so replicas running the job at once share the work instead of repeating it.
 */
export async function dueSubscriptions(db: Queryable, now: Date, graceDays: number, limit: number): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `${SELECT}
     WHERE (s.status = 'active' AND s.expires_at <= $1)
        OR (s.status = 'grace' AND s.expires_at + make_interval(days => $2) <= $1)
     ORDER BY s.expires_at LIMIT $3
     FOR UPDATE OF s SKIP LOCKED`,
    [now, graceDays, limit],
  );
  return rows;
}

/** Users whose subscription is on a plan (a plan edit changes their limits). */
export async function usersOnPlan(db: Queryable, planId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>('SELECT user_id FROM subscriptions WHERE plan_id = $1', [planId]);
  return rows.map((r) => r.user_id);
}
