import { enqueueEvent } from '@wb/events';
import type { PoolClient } from '@wb/db';

// Always called inside the transaction that made the change, so the event exists iff the change does.
const SOURCE = 'auth';

export const publishUserRegistered = (client: PoolClient, u: { id: string; email: string; name: string; created_at: string }) =>
  enqueueEvent(client, 'user.registered', { userId: u.id, email: u.email, name: u.name, createdAt: u.created_at }, SOURCE);

export const publishUserUpdated = (client: PoolClient, u: { id: string; email: string; name: string }) =>
  enqueueEvent(client, 'user.updated', { userId: u.id, email: u.email, name: u.name }, SOURCE);

export const publishUserDeleted = (client: PoolClient, userId: string) =>
  enqueueEvent(client, 'user.deleted', { userId }, SOURCE);
