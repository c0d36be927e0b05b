import { withTransaction, type Pool, type PoolClient } from '@wb/db';
import type { DomainEvent } from './types.ts';

/**
 * Wraps a consumer's handler so its effects and the "processed" mark commit together: a
 * redelivery of an event whose transaction committed is skipped, and a handler that throws rolls
 * the mark back so the redelivery runs it again. A concurrent duplicate waits on the row lock of
 * the first INSERT and then sees the conflict.
 */
export function idempotent(
  pool: Pool,
  consumer: string,
  handler: (event: DomainEvent, client: PoolClient) => Promise<void>,
): (event: DomainEvent) => Promise<void> {
  return (event) =>
    withTransaction(pool, async (client) => {
      const r = await client.query(
        'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [consumer, event.id],
      );
      if (r.rowCount === 0) return;
      await handler(event, client);
    });
}
