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

/** Who did an admin action: the token's subject and name (req.user). */
export interface AdminActor {
  id: string;
  name: string;
}

type AdminActionData = EventData<'admin.action'>;

/**
 * The audit log's entry for an administrator's action (admin-monitoring keeps it and shows it as
 * 'other' activity). `at` is the wall time, like every event's occurredAt, not billing's clock.
 */
export const publishAdminAction = (
  db: Queryable,
  actor: AdminActor,
  action: AdminActionData['action'],
  target: AdminActionData['target'],
  before: object | null,
  after: object | null,
) =>
  enqueueEvent(
    db,
    'admin.action',
    {
      actorId: actor.id,
      actorName: actor.name,
      action,
      target,
      before: before as Record<string, unknown> | null,
      after: after as Record<string, unknown> | null,
      at: new Date().toISOString(),
    },
    SOURCE,
  );

/** A subscription as the audit log shows it: who, which plan, status and expiry. */
export const subscriptionAudit = (s: SubscriptionRow | null) =>
  s && { user_id: s.user_id, user_name: s.user_name, plan_id: s.plan_id, plan_name: s.plan_name, status: s.status, expires_at: new Date(s.expires_at).toISOString() };

/** 'Имя (Pro)': the subscription's label in the audit line. */
export const subscriptionLabel = (s: SubscriptionRow) => `${s.user_name ?? s.user_id} (${s.plan_name})`;

export const publishEntitlements = (db: Queryable, data: EventData<'entitlements.changed'>) =>
  enqueueEvent(db, 'entitlements.changed', data, SOURCE);
