import type { Pool, PoolClient } from '@wb/db';
import { consumeIdempotent, defineConsumer, type EventTransport } from '@wb/events';
import { publishBoardDeleted } from './publish.ts';

/**
 * user.deleted: the user's boards (with their tags, links and everybody's cameras on them), folders,
 * tags, own camera positions, entitlement and name go. board.deleted is emitted per board so
 * realtime drops the documents.
 */
export const userDeletedConsumer = defineConsumer({
  durable: 'boards-users',
  types: ['user.deleted'],
  async handle(event, client: PoolClient) {
    const { userId } = event.data;
    const { rows } = await client.query<{ id: string; owner_id: string }>(
      'DELETE FROM boards WHERE owner_id = $1 RETURNING id, owner_id',
      [userId],
    );
    for (const b of rows) await publishBoardDeleted(client, b);
    // The trigger-kept counter (migration 003) would stay behind at 0 for an owner who is gone.
    await client.query('DELETE FROM board_counts WHERE owner_id = $1', [userId]);
    await client.query('DELETE FROM folders WHERE owner_id = $1', [userId]);
    await client.query('DELETE FROM tags WHERE owner_id = $1', [userId]);
    await client.query('DELETE FROM camera_positions WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM entitlements WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM users WHERE id = $1', [userId]);
  },
});

export const subscribeUserDeleted = (pool: Pool, transport: EventTransport) =>
  consumeIdempotent(transport, pool, userDeletedConsumer);
