import type { EventData } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { idempotent, type EventTransport } from '@wb/events';
import { syncEntitlements } from '../actions/entitlements.ts';
import type { Clock } from '../clock.ts';
import { forgetUser, upsertUser } from '../store/users.ts';

/**
 * user.registered → the user is known and gets their first entitlements (Free, or premium while
 * billing is off), which is how boards learns the Free limit; user.updated keeps the name for the
 * admin lists; user.deleted drops the subscription and entitlements.
 */
export const subscribeUsers = (pool: Pool, transport: EventTransport, clock: Clock) =>
  transport.subscribe({
    durable: 'billing-users',
    types: ['user.registered', 'user.updated', 'user.deleted'],
    handler: idempotent(pool, 'billing-users', async (event, client) => {
      if (event.type === 'user.registered') {
        const d = event.data as EventData<'user.registered'>;
        await upsertUser(client, { id: d.userId, name: d.name, email: d.email, createdAt: d.createdAt });
        await syncEntitlements(client, [d.userId], clock());
      } else if (event.type === 'user.updated') {
        const d = event.data as EventData<'user.updated'>;
        await upsertUser(client, { id: d.userId, name: d.name, email: d.email });
      } else if (event.type === 'user.deleted') {
        await forgetUser(client, (event.data as EventData<'user.deleted'>).userId);
      }
    }),
  });
