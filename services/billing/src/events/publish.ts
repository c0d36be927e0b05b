import type { EventData } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import { enqueueEvent } from '@wb/events';
import type { SubscriptionRow } from '../store/subscriptions.ts';

// Always inside the transaction that made the change, so the event exists iff the change does.
const SOURCE = 'billing';

export const publishSubscriptionChanged = (
  db: Queryable,
  s: Pick<SubscriptionRow, 'id' | 'user_id' | 'plan_id' | 'plan_name' | 'status' | 'expires_at'> | null,
  reason: EventData<'subscription.changed'>['reason'],
  revoked?: { id: string; userId: string },
) =>
  enqueueEvent(
    db,
    'subscription.changed',
    s
      ? {
          subscriptionId: s.id,
          userId: s.user_id,
          planId: s.plan_id,
          planName: s.plan_name,
          status: s.status,
          expiresAt: new Date(s.expires_at).toISOString(),
          reason,
        }
      : { subscriptionId: revoked!.id, userId: revoked!.userId, planId: null, planName: null, status: null, expiresAt: null, reason },
    SOURCE,
  );

export const publishPayment = (
  db: Queryable,
  outcome: 'paid' | 'failed',
  data: EventData<'payment.succeeded'>,
) => enqueueEvent(db, outcome === 'paid' ? 'payment.succeeded' : 'payment.failed', data, SOURCE);

export const publishConfigChanged = (db: Queryable, data: EventData<'billing.config_changed'>) =>
  enqueueEvent(db, 'billing.config_changed', data, SOURCE);

export const publishEntitlements = (db: Queryable, data: EventData<'entitlements.changed'>) =>
  enqueueEvent(db, 'entitlements.changed', data, SOURCE);
