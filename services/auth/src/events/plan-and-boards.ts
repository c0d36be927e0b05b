import type { DomainEvent, EventData } from '@wb/contracts';
import type { Pool, PoolClient } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { boardCreated, boardDeleted, setPlanName } from '../store/projections.ts';

const DURABLE = 'auth-plan-and-boards';

/** The user whose row the event changed, or null (a repeat, an older event, an owner already gone). */
async function project(client: PoolClient, event: DomainEvent): Promise<string | null> {
  if (event.type === 'entitlements.changed') {
    // The effective plan (the subscription's while active or in grace, else the plan named Free),
    // which subscription.changed does not tell: an expired subscription still names its plan there.
    const d = event.data as EventData<'entitlements.changed'>;
    return (await setPlanName(client, d.userId, d.planName, event.occurredAt)) ? d.userId : null;
  }
  if (event.type === 'board.created') {
    const d = event.data as EventData<'board.created'>;
    return (await boardCreated(client, d.boardId, d.ownerId)) ? d.ownerId : null;
  }
  if (event.type === 'board.deleted') {
    const d = event.data as EventData<'board.deleted'>;
    return (await boardDeleted(client, d.boardId, d.ownerId)) ? d.ownerId : null;
  }
  return null;
}

/**
 * The user answer's and the admin user list's plan_name and boards_count (spec §3 User), kept from
 * billing's entitlements.changed and boards' board.created / board.deleted (store/projections.ts).
 * `changed` drops the user from this replica's cache once the change has committed, so its next
 * answer reads the new values.
 */
export const subscribePlanAndBoards = (pool: Pool, transport: EventTransport, changed: (userId: string) => void) =>
  transport.subscribe({
    durable: DURABLE,
    types: ['entitlements.changed', 'board.created', 'board.deleted'],
    handler: async (event) => {
      let touched: string | null = null;
      await idempotent(pool, DURABLE, async (e, client) => {
        touched = await project(client, e);
      })(event);
      if (touched) changed(touched);
    },
  });
