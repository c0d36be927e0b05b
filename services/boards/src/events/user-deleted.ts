import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { publishBoardDeleted } from './publish.ts';

/**
 * user.deleted: the user's boards (with their tags, links and everybody's cameras on them), folders,
 * tags, own camera positions, entitlement and name go. board.deleted is emitted per board so
 * realtime drops the documents.
 */
export const subscribeUserDeleted = (pool: Pool, transport: EventTransport) =>
  transport.subscribe({
    durable: 'boards-users',
    types: ['user.deleted'],
    handler: idempotent(pool, 'boards-users', async (event, client) => {
      if (event.type !== 'user.deleted') return;
      const { userId } = event.data as { userId: string };
      const { rows } = await client.query<{ id: string; owner_id: string }>(
        'DELETE FROM boards WHERE owner_id = $1 RETURNING id, owner_id',
        [userId],
      );
      for (const b of rows) await publishBoardDeleted(client, b);
      await client.query('DELETE FROM folders WHERE owner_id = $1', [userId]);
      await client.query('DELETE FROM tags WHERE owner_id = $1', [userId]);
      await client.query('DELETE FROM camera_positions WHERE user_id = $1', [userId]);
      await client.query('DELETE FROM entitlements WHERE user_id = $1', [userId]);
      await client.query('DELETE FROM users WHERE id = $1', [userId]);
    }),
  });
