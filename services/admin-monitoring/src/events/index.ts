import type { Pool } from '@wb/db';
import { consumeIdempotent, type EventTransport, type Subscription } from '@wb/events';
import { auditConsumer } from './audit.ts';
import { boardsConsumer } from './boards.ts';
import { paymentsConsumer } from './payments.ts';
import { subscriptionsConsumer } from './subscriptions.ts';
import { usersConsumer } from './users.ts';

// Users first: the other consumers name people from the users projection.
const CONSUMERS = [usersConsumer, boardsConsumer, subscriptionsConsumer, paymentsConsumer, auditConsumer] as const;

/** The durable consumers of this service (names also in the topology manifest's `needs.nats.consumers`). */
export const ADMIN_CONSUMERS: string[] = CONSUMERS.map((c) => c.durable);

/**
 * Every domain event the stats, activity and audit log are kept from. Each handler runs with
 * consumeIdempotent (idempotent() from @wb/events): its effects and the event's "processed" mark
 * commit together, so a redelivered event counts once, also with several replicas on one durable.
 */
export function adminConsumers(pool: Pool, transport: EventTransport): Array<() => Promise<Subscription>> {
  return [
    () => consumeIdempotent(transport, pool, usersConsumer),
    () => consumeIdempotent(transport, pool, boardsConsumer),
    () => consumeIdempotent(transport, pool, subscriptionsConsumer),
    () => consumeIdempotent(transport, pool, paymentsConsumer),
    () => consumeIdempotent(transport, pool, auditConsumer),
  ];
}
