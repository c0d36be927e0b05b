import { SHARE_ROLES, type BoardAccessRole, type BoardRole, type ShareRole } from '@wb/contracts';

export type Role = BoardAccessRole;

const RANK: Record<Role, number> = { none: 0, guest: 1, viewer: 2, editor: 3, owner: 4 };

/** Strength order: owner > editor > viewer > guest > none (a viewer may react, a guest may not). */
export const strongerRole = (a: Role, b: Role): Role => (RANK[a] >= RANK[b] ? a : b);

export const canEdit = (r: Role): boolean => r === 'owner' || r === 'editor';
export const canRead = (r: Role): boolean => r !== 'none';

export interface ShareState {
  enabled: boolean;
  viewer: string | null;
  guest: string | null;
  editor: string | null;
}

export { SHARE_ROLES };

/** Constant-time enough for our purpose: both sides are fixed-length base64url strings. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The role a share token grants on this board, or null when it grants nothing (unknown, disabled, rotated, sharing off). */
export function tokenRole(state: ShareState, token: string): ShareRole | null {
  if (!state.enabled || !token) return null;
  // Strongest first, so a (theoretically impossible) collision never downgrades an editor.
  for (const role of ['editor', 'viewer', 'guest'] as const) {
    const t = state[role];
    if (t && sameToken(t, token)) return role;
  }
  return null;
}

export interface AccessInput {
  ownerId: string;
  userId: string | null;
  share: ShareState;
  token: string | null;
}

export type AccessDecision =
  | { ok: true; role: BoardRole; via: 'user' | 'token' }
  | { ok: false; reason: 'TOKEN_MISSING' | 'ACCESS_DENIED' | 'INVALID_SHARE_TOKEN' };

/**
 * Who may read a board. With a login and a token the stronger role wins; an invalid token is only
 * an error when the login alone would not grant access (an owner following a stale link of their
 * own board still gets in). Every share link works without login in this product.
 */
export function resolveAccess(input: AccessInput): AccessDecision {
  const userRole: Role = input.userId && input.userId === input.ownerId ? 'owner' : 'none';
  const viaToken: Role = input.token ? (tokenRole(input.share, input.token) ?? 'none') : 'none';
  const role = strongerRole(userRole, viaToken);
  if (role !== 'none') return { ok: true, role, via: role === userRole ? 'user' : 'token' };
  if (input.token) return { ok: false, reason: 'INVALID_SHARE_TOKEN' };
  if (!input.userId) return { ok: false, reason: 'TOKEN_MISSING' };
  return { ok: false, reason: 'ACCESS_DENIED' };
}

/** The strongest role an anonymous link holder gets right now (shown as link_role); null when no link works. */
export function linkRole(state: ShareState): ShareRole | null {
  if (!state.enabled) return null;
  if (state.editor) return 'editor';
  if (state.viewer) return 'viewer';
  if (state.guest) return 'guest';
  return null;
}
