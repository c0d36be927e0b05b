import type { Pool } from '@wb/db';
import type { EventTransport, Subscription } from '@wb/events';

/** The durable consumers of this service (names also in the topology manifest's `needs.nats.consumers`). */
export const ADMIN_CONSUMERS: string[] = [];

/** Every domain event the stats, activity and audit log are kept from. */
export function adminConsumers(_pool: Pool, _transport: EventTransport): Array<() => Promise<Subscription>> {
  return [];
}
