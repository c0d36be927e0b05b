import type { PoolClient } from '@wb/db';
import { defineConsumer } from '@wb/events';
import { subscriptionLine } from '../domain/activity-texts.ts';
import { utcDay } from '../domain/day.ts';
import { isActiveStatus, subscriptionChange } from '../domain/subscriptions.ts';
import { addActivityAbout } from '../store/activity.ts';
import { bump, bumpDaily } from '../store/counters.ts';
import { endSubscriptionsOf, lockSubscription, saveSubscription } from '../store/projections.ts';

/**
 * activeSubscriptions (per-subscription projection: each one is in the counter or not, so a move
 * active → expired or a revoke takes it out exactly once), today's newSubscriptions and the lines.
 * user.deleted: billing drops the user's subscription without a subscription.changed.
 */
export const subscriptionsConsumer = defineConsumer({
  durable: 'admin-subscriptions',
  types: ['subscription.changed', 'user.deleted'],
  async handle(event, client: PoolClient) {
    const at = event.occurredAt;
    if (event.type === 'user.deleted') {
      await bump(client, 'active_subscriptions', -(await endSubscriptionsOf(client, event.data.userId, at)));
      return;
    }
    const d = event.data;
    const state = await lockSubscription(client, { id: d.subscriptionId, userId: d.userId, at });
    if (!state) return;
    const change = subscriptionChange(state.counted, d.status, d.reason);
    await saveSubscription(client, { id: d.subscriptionId, planName: d.planName, status: d.status, counted: isActiveStatus(d.status), at });
    const plan = d.planName ?? state.planName;
    if (subscriptionLine(change.kind, '', plan, d.status)) {
      await addActivityAbout(client, d.userId, at, (who) => subscriptionLine(change.kind, who, plan, d.status)!);
    }
    await bump(client, 'active_subscriptions', change.delta);
    if (change.isNew) await bumpDaily(client, utcDay(at), 'new_subscriptions', 1);
  },
});
