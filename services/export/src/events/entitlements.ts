import type { Pool, PoolClient } from '@wb/db';
import { consumeIdempotent, defineConsumer, type EventTransport } from '@wb/events';
import { upsertEntitlement } from '../store/entitlements.ts';

/** entitlements.changed from billing → whether the owner's plan has PDF export. */
export const entitlementsConsumer = defineConsumer({
  durable: 'export-entitlements',
  types: ['entitlements.changed'],
  async handle(event, client: PoolClient) {
    const d = event.data;
    await upsertEntitlement(client, d.userId, { exportPdf: d.exportPdf, limitsEnabled: d.limitsEnabled }, event.occurredAt);
  },
});

export const subscribeEntitlements = (pool: Pool, transport: EventTransport) =>
  consumeIdempotent(transport, pool, entitlementsConsumer);
