import type { DomainEvent } from '@wb/contracts';
import type { Pool, PoolClient } from '@wb/db';
import { consume, defineConsumer, idempotent, type EventTransport } from '@wb/events';
import { boardCreated, boardDeleted, setPlanName } from '../store/projections.ts';

const DURABLE = 'auth-plan-and-boards';
const TYPES = ['entitlements.changed', 'board.created', 'board.deleted'] as const;

/** The user whose row the event changed, or null (a repeat, an older event, an owner already gone). */
async function project(client: PoolClient, event: DomainEvent<(typeof TYPES)[number]>): Promise<string | null> {
  if (event.type === 'entitlements.changed') {
    // The effective plan (the subscription's while active or in grace, else the plan named Free),
    // which subscription.changed does not tell: an expired subscription still names its plan there.
    const d = event.data;
    return (await setPlanName(client, d.userId, d.planName, event.occurredAt)) ? d.userId : null;
  }
  if (event.type === 'board.created') {
    const d = event.data;
    return (await boardCreated(client, d.boardId, d.ownerId)) ? d.ownerId : null;
  }
  const d = event.data;
  return (await boardDeleted(client, d.boardId, d.ownerId)) ? d.ownerId : null;
}

/**
 * The user answer's and the admin user list's plan_name and boards_count (spec §3 User), kept from
 * billing's entitlements.changed and boards' board.created / board.deleted (store/projections.ts).
 * `changed` drops the user from this replica's cache once the change has committed, so its next
 * answer reads the new values. That post-commit step is why this consumer runs `idempotent` itself
 * (same durable as the mark's consumer name) rather than through consumeIdempotent, whose handler
 * only sees the open transaction.
 */
export const planAndBoardsConsumer = (pool: Pool, changed: (userId: string) => void) =>
  defineConsumer({
    durable: DURABLE,
    types: TYPES,
    async handle(event) {
      let touched: string | null = null;
      await idempotent(pool, DURABLE, async (_marked, client) => {
        touched = await project(client, event);
      })(event);
      if (touched) changed(touched);
    },
  });

export const subscribePlanAndBoards = (pool: Pool, transport: EventTransport, changed: (userId: string) => void) =>
  consume(transport, planAndBoardsConsumer(pool, changed));
