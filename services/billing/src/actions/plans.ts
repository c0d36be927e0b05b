import type { Pool } from '@wb/db';
import { withTransaction } from '@wb/db';
import type { PlanInput, PlanView } from '@wb/contracts';
import { appError } from '@wb/service-kit';
import { deactivatePlan, getPlan, insertPlan, planNameTaken, updatePlan } from '../store/plans.ts';
import { syncEntitlements } from './entitlements.ts';

// Plan edits can move anyone's limits (Free is everyone's fallback, and "billing off" uses the most
// generous active plan), so each edit recomputes everyone; only real changes become events.

export async function createPlan(pool: Pool, input: PlanInput, now: Date): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE plans IN SHARE ROW EXCLUSIVE MODE');
    if (await planNameTaken(client, input.name)) throw appError('PLAN_ALREADY_EXISTS');
    const id = await insertPlan(client, input);
    await syncEntitlements(client, 'all', now);
    return (await getPlan(client, id))!;
  });
}

export async function editPlan(pool: Pool, id: string, input: PlanInput, now: Date): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    await client.query('LOCK TABLE plans IN SHARE ROW EXCLUSIVE MODE');
    if (!(await getPlan(client, id))) throw appError('PLAN_NOT_FOUND');
    if (await planNameTaken(client, input.name, id)) throw appError('PLAN_ALREADY_EXISTS');
    await updatePlan(client, id, input);
    await syncEntitlements(client, 'all', now);
    return (await getPlan(client, id))!;
  });
}

/** "Delete" only deactivates (spec §4): subscriptions on it run to their end, and it can come back. */
export async function removePlan(pool: Pool, id: string, now: Date): Promise<PlanView> {
  return withTransaction(pool, async (client) => {
    if (!(await deactivatePlan(client, id))) throw appError('PLAN_NOT_FOUND');
    await syncEntitlements(client, 'all', now);
    return (await getPlan(client, id))!;
  });
}
