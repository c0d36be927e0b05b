import type { EventData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';

/**
 * The user answer's plan_name and boards_count (spec §3 User), kept from billing's
 * entitlements.changed and boards' board.created / board.deleted. `changed` drops the user from
 * this replica's cache so its next answer reads the new values.
 */
export const subscribePlanAndBoards = (pool: Pool, transport: EventTransport, changed: (userId: string) => void) =>
  transport.subscribe({
    durable: 'auth-plan-and-boards',
    types: ['entitlements.changed', 'board.created', 'board.deleted'],
    handler: idempotent(pool, 'auth-plan-and-boards', async (event, client) => {
      let userId: string;
      if (event.type === 'entitlements.changed') {
        const d = event.data as EventData<'entitlements.changed'>;
        userId = d.userId;
        await client.query('UPDATE users SET plan_name = $2 WHERE id = $1', [userId, d.planName]);
      } else if (event.type === 'board.created') {
        userId = (event.data as EventData<'board.created'>).ownerId;
        await client.query('UPDATE users SET boards_count = boards_count + 1 WHERE id = $1', [userId]);
      } else if (event.type === 'board.deleted') {
        userId = (event.data as EventData<'board.deleted'>).ownerId;
        await client.query('UPDATE users SET boards_count = GREATEST(boards_count - 1, 0) WHERE id = $1', [userId]);
      } else return;
      changed(userId);
    }),
  });
