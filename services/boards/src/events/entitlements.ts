import type { Pool, PoolClient } from '@wb/db';
import { consumeIdempotent, defineConsumer, type EventTransport } from '@wb/events';
import { upsertEntitlement } from '../store/projections.ts';

/** entitlements.changed from billing → the local projection that board limits and canvas limits read. */
export const entitlementsConsumer = defineConsumer({
  durable: 'boards-entitlements',
  types: ['entitlements.changed'],
  async handle(event, client: PoolClient) {
    const d = event.data;
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
  },
});

export const subscribeEntitlements = (pool: Pool, transport: EventTransport) =>
  consumeIdempotent(transport, pool, entitlementsConsumer);
