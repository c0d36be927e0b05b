import type { Pool, PoolClient } from '@wb/db';
import { consumeIdempotent, defineConsumer, type EventTransport } from '@wb/events';
import { upsertUserName } from '../store/projections.ts';

/** user.registered / user.updated → owner names shown on boards. */
export const userNamesConsumer = defineConsumer({
  durable: 'boards-user-names',
  types: ['user.registered', 'user.updated'],
  async handle(event, client: PoolClient) {
    await upsertUserName(client, event.data.userId, event.data.name);
  },
});

export const subscribeUserNames = (pool: Pool, transport: EventTransport) =>
  consumeIdempotent(transport, pool, userNamesConsumer);
