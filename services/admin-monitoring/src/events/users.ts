import type { PoolClient } from '@wb/db';
import { defineConsumer } from '@wb/events';
import { personLabel, userDeletedLine, userRegisteredLine } from '../domain/activity-texts.ts';
import { utcDay } from '../domain/day.ts';
import { addActivity } from '../store/activity.ts';
import { bump, bumpDaily } from '../store/counters.ts';
import { addUser, removeUser, renameUser } from '../store/projections.ts';

/** totalUsers, today's newUsers and the user lines; names kept for the other consumers' texts. */
export const usersConsumer = defineConsumer({
  durable: 'admin-users',
  types: ['user.registered', 'user.updated', 'user.deleted'],
  async handle(event, client: PoolClient) {
    const at = event.occurredAt;
    if (event.type === 'user.registered') {
      const { userId, name, email } = event.data;
      if (!(await addUser(client, { id: userId, name, email }))) return;
      await addActivity(client, { ...userRegisteredLine(name, email), time: at });
      await bump(client, 'users', 1);
      await bumpDaily(client, utcDay(at), 'new_users', 1);
    } else if (event.type === 'user.updated') {
      await renameUser(client, { id: event.data.userId, name: event.data.name, email: event.data.email });
    } else {
      const { userId } = event.data;
      const r = await removeUser(client, userId);
      if (r.outcome === 'repeat') return;
      await addActivity(client, { ...userDeletedLine(personLabel(r.outcome === 'removed' ? r.was : null, userId)), time: at });
      // A user never seen here (registered before this service kept users) was never counted.
      if (r.outcome === 'removed') await bump(client, 'users', -1);
    }
  },
});
