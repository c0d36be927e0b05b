import type { EventData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { upsertEntitlement } from '../store/entitlements.ts';

/** entitlements.changed from billing → whether the owner's plan has PDF export. */
export const subscribeEntitlements = (pool: Pool, transport: EventTransport) =>
  transport.subscribe({
    durable: 'export-entitlements',
    types: ['entitlements.changed'],
    handler: idempotent(pool, 'export-entitlements', async (event, client) => {
      if (event.type !== 'entitlements.changed') return;
      const d = event.data as EventData<'entitlements.changed'>;
      await upsertEntitlement(
        client,
        d.userId,
        { exportPdf: d.exportPdf, limitsEnabled: d.limitsEnabled },
        event.occurredAt,
      );
    }),
  });
