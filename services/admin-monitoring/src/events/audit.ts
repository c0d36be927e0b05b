import type { PoolClient } from '@wb/db';
import { defineConsumer } from '@wb/events';
import { recordAdminAction } from '../store/audit.ts';

/** admin.action from auth and billing: the audit log and its 'other' line (the event id keeps it once). */
export const auditConsumer = defineConsumer({
  durable: 'admin-audit',
  types: ['admin.action'],
  async handle(event, client: PoolClient) {
    await recordAdminAction(client, event.data, { id: event.id });
  },
});
