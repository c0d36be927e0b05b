/** The refresh-token row with its session, as read under a row lock. */
export interface RefreshState {
  expiresAt: Date;
  usedAt: Date | null;
  sessionRevoked: boolean;
}

export type RefreshDecision =
  | 'rotate' // valid: consume it and issue the next token of the family
  | 'expired'
  | 'revoked' // the family was already revoked (logout, password change, earlier reuse)
  | 'race' // already rotated a moment ago: a duplicate, answered 401 without revoking
  | 'reuse'; // already rotated long ago: treated as theft, the whole family is revoked

/**
 * Reuse detection with a grace window. A token presented again within `graceMs` of its rotation
 * is almost always the same client racing itself (two tabs, or parallel 401s each starting a
 * refresh): the loser gets 401 but the family survives, so the winner's new token keeps working.
 * Later presentations can only come from a copy of an old token, so the family is revoked.
 * The loser never gets tokens either way, so the window does not let a thief in; it only
 * delays detection by at most `graceMs`.
 */
export function decideRefresh(state: RefreshState, now: Date, graceMs: number): RefreshDecision {
  if (state.sessionRevoked) return 'revoked';
  if (state.usedAt) return now.getTime() - state.usedAt.getTime() <= graceMs ? 'race' : 'reuse';
  if (state.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'rotate';
}
