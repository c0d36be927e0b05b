import type { PoolClient } from '@wb/db';
import { FREE_PLAN_NAME } from '@wb/contracts';
import { calculatedStatus, grantsPlan } from '../domain/status.ts';
import { computeEntitlements, mostGenerous, sameEntitlements, type Entitlements } from '../domain/entitlements.ts';
import { publishEntitlements } from '../events/publish.ts';
import { getConfig } from '../store/config.ts';
import { allPlanLimits } from '../store/plans.ts';
import { allUserIds } from '../store/users.ts';

/**
 * Recomputes the effective limits of `users` (or everyone) at `now` and publishes
 * entitlements.changed for each user whose limits differ from the last published ones. Runs in
 * the caller's transaction, after the change that may have moved them.
 */
export async function syncEntitlements(client: PoolClient, users: string[] | 'all', now: Date): Promise<number> {
  const ids = users === 'all' ? await allUserIds(client) : [...new Set(users)];
  if (ids.length === 0) return 0;
  const config = await getConfig(client);
  const plans = await allPlanLimits(client);
  const byId = new Map(plans.map((p) => [p.id, p]));
  const freeRow = plans.find((p) => p.name.toLowerCase() === FREE_PLAN_NAME.toLowerCase());
  const free = freeRow ? { name: freeRow.name, limits: freeRow.limits_json } : null;
  const premium = mostGenerous(plans.filter((p) => p.is_active).map((p) => p.limits_json));

  const { rows: subs } = await client.query<{ user_id: string; plan_id: string; status: 'active' | 'grace' | 'expired'; expires_at: string }>(
    'SELECT user_id, plan_id, status, expires_at FROM subscriptions WHERE user_id = ANY($1::uuid[])',
    [ids],
  );
  const subOf = new Map(subs.map((s) => [s.user_id, s]));
  const { rows: last } = await client.query<{ user_id: string; payload: Entitlements }>(
    'SELECT user_id, payload FROM entitlements WHERE user_id = ANY($1::uuid[]) FOR UPDATE',
    [ids],
  );
  const lastOf = new Map(last.map((r) => [r.user_id, r.payload]));

  let changed = 0;
  for (const userId of ids) {
    const sub = subOf.get(userId);
    const status = sub ? calculatedStatus(sub.status, new Date(sub.expires_at), config.grace_days, now) : 'expired';
    const planRow = sub && grantsPlan(status) ? byId.get(sub.plan_id) : undefined;
    const next = computeEntitlements({
      userId,
      billingEnabled: config.billing_enabled,
      limitsEnabled: config.limits_enabled,
      plan: planRow ? { name: planRow.name, limits: planRow.limits_json } : null,
      free,
      premium,
    });
    if (sameEntitlements(lastOf.get(userId) ?? null, next)) continue;
    await client.query(
      `INSERT INTO entitlements (user_id, payload, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET payload = EXCLUDED.payload, updated_at = now()`,
      [userId, JSON.stringify(next)],
    );
    await publishEntitlements(client, next);
    changed++;
  }
  return changed;
}

/** The entitlements a user has now, as last published (null before billing has heard of them). */
export async function currentEntitlements(client: PoolClient | import('@wb/db').Pool, userId: string): Promise<Entitlements | null> {
  const { rows } = await client.query<{ payload: Entitlements }>('SELECT payload FROM entitlements WHERE user_id = $1', [userId]);
  return rows[0]?.payload ?? null;
}
