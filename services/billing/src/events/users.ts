import type { Pool, PoolClient } from '@wb/db';
import { consumeIdempotent, defineConsumer, type EventTransport } from '@wb/events';
import { syncEntitlements } from '../actions/entitlements.ts';
import type { Clock } from '../clock.ts';
import { forgetUser, upsertUser } from '../store/users.ts';

/**
 * user.registered → the user is known and gets their first entitlements (Free, or premium while
 * billing is off), which is how boards learns the Free limit; user.updated keeps the name for the
 * admin lists; user.deleted drops the subscription and entitlements.
 */
export const usersConsumer = (clock: Clock) =>
  defineConsumer({
    durable: 'billing-users',
    types: ['user.registered', 'user.updated', 'user.deleted'],
    async handle(event, client: PoolClient) {
      if (event.type === 'user.registered') {
        const d = event.data;
        await upsertUser(client, { id: d.userId, name: d.name, email: d.email, createdAt: d.createdAt });
        await syncEntitlements(client, [d.userId], clock());
      } else if (event.type === 'user.updated') {
        const d = event.data;
        await upsertUser(client, { id: d.userId, name: d.name, email: d.email });
      } else {
        await forgetUser(client, event.data.userId);
      }
    },
  });

export const subscribeUsers = (pool: Pool, transport: EventTransport, clock: Clock) =>
  consumeIdempotent(transport, pool, usersConsumer(clock));
