/**
 * How a subscription.changed moves the active-subscriptions counter. Active means status 'active'
 * or 'grace' (docs/decisions.md "Admin stats"): in grace the user still has the plan's features,
 * exactly as billing's entitlements treat it; 'expired' and a revoke (status null) are not active.
 */
export type SubscriptionStatus = 'active' | 'grace' | 'expired';
export type ChangeReason = 'payment' | 'admin' | 'time' | 'revoked' | 'auto_renew' | 'user_deleted';

export const isActiveStatus = (s: SubscriptionStatus | null): boolean => s === 'active' || s === 'grace';

export type SubscriptionChangeKind = 'new' | 'renewed' | 'changed' | 'grace' | 'expired' | 'revoked' | 'ended';

export interface SubscriptionChange {
  /** What active_subscriptions moves by: exactly -1, 0 or +1. */
  delta: -1 | 0 | 1;
  /** Counts in today's newSubscriptions. */
  isNew: boolean;
  kind: SubscriptionChangeKind;
}

/**
 * `counted` is whether the projection has this subscription in the counter now (false when it was
 * never seen). A subscription that was not counted and becomes active is new today; billing keeps
 * one subscription per user, so a renewal after expiry is a new one too.
 */
export function subscriptionChange(counted: boolean, next: SubscriptionStatus | null, reason: ChangeReason): SubscriptionChange {
  const active = isActiveStatus(next);
  const delta = active === counted ? 0 : active ? 1 : -1;
  const isNew = !counted && next === 'active';
  let kind: SubscriptionChangeKind;
  if (next === null) kind = reason === 'user_deleted' ? 'ended' : 'revoked';
  else if (isNew) kind = 'new';
  else if (next === 'expired') kind = 'expired';
  else if (next === 'grace' && reason === 'time') kind = 'grace';
  else if (counted && next === 'active' && (reason === 'payment' || reason === 'auto_renew')) kind = 'renewed';
  else kind = 'changed';
  return { delta, isNew, kind };
}
