import type { Pool } from '@wb/db';
import { withTransaction } from '@wb/db';
import type { PlanInput, PlanView } from '@wb/contracts';
import { appError } from '@wb/service-kit';
import { publishAdminAction, type AdminActor } from '../events/publish.ts';
import { deactivatePlan, getPlan, insertPlan, planNameTaken, updatePlan } from '../store/plans.ts';
import { syncEntitlements } from './entitlements.ts';

// Plan edits can move anyone's limits (Free is everyone's fallback, and "billing off" uses the most
// generous active plan), so each edit recomputes everyone; only real changes become events.

// Each admin action also writes its audit entry (admin.action) in the same transaction.

export async function createPlan(pool: Pool, input: PlanInput, now: Date, actor: AdminActor): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE plans IN SHARE ROW EXCLUSIVE MODE');
    if (await planNameTaken(client, input.name)) throw appError('PLAN_ALREADY_EXISTS');
    const id = await insertPlan(client, input);
    await syncEntitlements(client, 'all', now);
    const plan = (await getPlan(client, id))!;
    await publishAdminAction(client, actor, 'plan.created', { type: 'plan', id, label: plan.name }, null, plan);
    return plan;
  });
}

export async function editPlan(pool: Pool, id: string, input: PlanInput, now: Date, actor: AdminActor): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE plans IN SHARE ROW EXCLUSIVE MODE');
    const before = await getPlan(client, id);
    if (!before) throw appError('PLAN_NOT_FOUND');
    if (await planNameTaken(client, input.name, id)) throw appError('PLAN_ALREADY_EXISTS');
    await updatePlan(client, id, input);
    await syncEntitlements(client, 'all', now);
    const plan = (await getPlan(client, id))!;
    await publishAdminAction(client, actor, 'plan.updated', { type: 'plan', id, label: plan.name }, before, plan);
    return plan;
  });
}

/** "Delete" only deactivates (spec §4): subscriptions on it run to their end, and it can come back. */
export async function removePlan(pool: Pool, id: string, now: Date, actor: AdminActor): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    const before = await getPlan(client, id);
    if (!before || !(await deactivatePlan(client, id))) throw appError('PLAN_NOT_FOUND');
    await syncEntitlements(client, 'all', now);
    const plan = (await getPlan(client, id))!;
    await publishAdminAction(client, actor, 'plan.deactivated', { type: 'plan', id, label: plan.name }, before, plan);
    return plan;
  });
}
