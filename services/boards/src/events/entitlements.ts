import type { EventData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { upsertEntitlement } from '../store/projections.ts';

/** entitlements.changed from billing → the local projection that board limits and canvas limits read. */
export const subscribeEntitlements = (pool: Pool, transport: EventTransport) =>
  transport.subscribe({
    durable: 'boards-entitlements',
    types: ['entitlements.changed'],
    handler: idempotent(pool, 'boards-entitlements', async (event, client) => {
      if (event.type !== 'entitlements.changed') return;
      const d = event.data as EventData<'entitlements.changed'>;
      await upsertEntitlement(
        client,
        d.userId,
        {
          max_boards: d.maxBoards,
          max_canvas_w: d.maxCanvasWidth,
          max_canvas_h: d.maxCanvasHeight,
          export_pdf: d.exportPdf,
          limits_enabled: d.limitsEnabled,
        },
        event.occurredAt,
      );
    }),
  });
