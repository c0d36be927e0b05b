import type { EventData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { upsertUserName } from '../store/projections.ts';

/** user.registered / user.updated → owner names shown on boards. */
export const subscribeUserNames = (pool: Pool, transport: EventTransport) =>
  transport.subscribe({
    durable: 'boards-user-names',
    types: ['user.registered', 'user.updated'],
    handler: idempotent(pool, 'boards-user-names', async (event, client) => {
      if (event.type !== 'user.registered' && event.type !== 'user.updated') return;
      const d = event.data as EventData<'user.updated'>;
      await upsertUserName(client, d.userId, d.name);
    }),
  });
