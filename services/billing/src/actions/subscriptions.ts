import type { Pool, PoolClient } from '@wb/db';
import { withTransaction } from '@wb/db';
import type { EventData, SubscriptionStatus } from '@wb/contracts';
import { appError } from '@wb/service-kit';
import { calculatedStatus, expiryFromNow, extendedExpiry, timeStatus } from '../domain/status.ts';
import { publishAdminAction, publishSubscriptionChanged, subscriptionAudit, subscriptionLabel, type AdminActor } from '../events/publish.ts';
import { getConfig } from '../store/config.ts';
import { getPlan } from '../store/plans.ts';
import {
  deleteSubscription,
  dueSubscriptions,
  putSubscription,
  setStatus,
  subscriptionById,
  subscriptionOfUser,
  updateSubscription,
  type SubscriptionRow,
} from '../store/subscriptions.ts';
import { userName } from '../store/users.ts';
import { syncEntitlements } from './entitlements.ts';

type Reason = EventData<'subscription.changed'>['reason'];

async function announce(client: PoolClient, id: string, reason: Reason, now: Date): Promise<SubscriptionRow> {
  const row = (await subscriptionById(client, id))!;
  await publishSubscriptionChanged(client, row, reason);
  await syncEntitlements(client, [row.user_id], now);
  return row;
}

/**
 * A paid order: the same plan still running (active or grace) is extended from what is left; a
 * different plan or an expired subscription is replaced, starting now.
 */
export async function grantPaidDays(client: PoolClient, userId: string, planId: string, days: number, now: Date): Promise<SubscriptionRow> {
  const config = await getConfig(client);
  const current = await subscriptionOfUser(client, userId, true);
  const running = current && current.plan_id === planId && calculatedStatus(current.status, new Date(current.expires_at), config.grace_days, now) !== 'expired';
  const expiresAt = running ? extendedExpiry(new Date(current.expires_at), days, now) : expiryFromNow(days, now);
  const id = await putSubscription(client, { userId, planId, status: 'active', expiresAt });
  return announce(client, id, 'payment', now);
}

async function requirePlan(client: PoolClient, planId: string) {
  const plan = await getPlan(client, planId);
  if (!plan) throw appError('PLAN_NOT_FOUND');
  return plan;
}

/** Admin "add subscription": the user's subscription becomes this plan for `days` from now. */
export async function adminCreateSubscription(
  pool: Pool,
  input: { user_id: string; plan_id: string; days: number },
  now: Date,
  actor: AdminActor,
) {
  return withTransaction(pool, async (client) => {
    await requirePlan(client, input.plan_id);
    if ((await userName(client, input.user_id)) === null) throw appError('USER_NOT_FOUND');
    const before = await subscriptionOfUser(client, input.user_id, true);
    const id = await putSubscription(client, {
      userId: input.user_id,
      planId: input.plan_id,
      status: 'active',
      expiresAt: expiryFromNow(input.days, now),
    });
    const row = await announce(client, id, 'admin', now);
    await audit(client, actor, 'subscription.created', row, before, row);
    return row;
  });
}

const audit = (
  client: PoolClient,
  actor: AdminActor,
  action: 'subscription.created' | 'subscription.updated' | 'subscription.extended' | 'subscription.revoked',
  target: SubscriptionRow,
  before: SubscriptionRow | null,
  after: SubscriptionRow | null,
) =>
  publishAdminAction(client, actor, action, { type: 'subscription', id: target.id, label: subscriptionLabel(target) }, subscriptionAudit(before), subscriptionAudit(after));

/** Admin edit: plan, expiry and status exactly as given (spec §4: any status by hand). */
export async function adminUpdateSubscription(
  pool: Pool,
  id: string,
  input: { plan_id: string; expires_at: string; status: SubscriptionStatus },
  now: Date,
  actor: AdminActor,
) {
  return withTransaction(pool, async (client) => {
    const before = await subscriptionById(client, id, true);
    if (!before) throw appError('SUBSCRIPTION_NOT_FOUND');
    await requirePlan(client, input.plan_id);
    await updateSubscription(client, id, { planId: input.plan_id, status: input.status, expiresAt: new Date(input.expires_at) });
    const row = await announce(client, id, 'admin', now);
    await audit(client, actor, 'subscription.updated', row, before, row);
    return row;
  });
}

/** Extend by N days from what is left (or from now when already past), back to the status time gives. */
export async function adminExtendSubscription(pool: Pool, id: string, days: number, now: Date, actor: AdminActor) {
  return withTransaction(pool, async (client) => {
    const current = await subscriptionById(client, id, true);
    if (!current) throw appError('SUBSCRIPTION_NOT_FOUND');
    const config = await getConfig(client);
    const expiresAt = extendedExpiry(new Date(current.expires_at), days, now);
    await updateSubscription(client, id, { planId: current.plan_id, status: timeStatus(expiresAt, config.grace_days, now), expiresAt });
    const row = await announce(client, id, 'admin', now);
    await audit(client, actor, 'subscription.extended', row, current, row);
    return row;
  });
}

/** Revoke is a delete (spec §4): the user falls back to Free at once. */
export async function revokeSubscription(pool: Pool, id: string, now: Date, actor: AdminActor) {
  await withTransaction(pool, async (client) => {
    const current = await subscriptionById(client, id, true);
    if (!current) throw appError('SUBSCRIPTION_NOT_FOUND');
    await deleteSubscription(client, id);
    await publishSubscriptionChanged(client, null, 'revoked', { id, userId: current.user_id });
    await syncEntitlements(client, [current.user_id], now);
    await audit(client, actor, 'subscription.revoked', current, current, null);
  });
}

/**
 * The expiry job: moves subscriptions whose time has come (active → grace → expired) in batches.
 * Rows are claimed with SKIP LOCKED, so several replicas running it at once never move one twice.
 */
export async function runExpiryPass(pool: Pool, now: Date, batch = 100): Promise<number> {
  let moved = 0;
  for (;;) {
    const n = await withTransaction(pool, async (client) => {
      const { grace_days } = await getConfig(client);
      const due = await dueSubscriptions(client, now, grace_days, batch);
      let changed = 0;
      for (const s of due) {
        const status = calculatedStatus(s.status, new Date(s.expires_at), grace_days, now);
        if (status === s.status) continue;
        await setStatus(client, s.id, status);
        await publishSubscriptionChanged(client, { ...s, status }, 'time');
        changed++;
      }
      await syncEntitlements(client, due.map((s) => s.user_id), now);
      return { claimed: due.length, changed };
    });
    moved += n.changed;
    if (n.claimed < batch || n.changed === 0) return moved;
  }
}
