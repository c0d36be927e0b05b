import type { ShareRole } from '@wb/contracts';
import { SHARE_ROLES, type ShareState } from './roles.ts';

export type NewToken = () => string;

/** Roles that have a link configured (shown as enabled in the access modal). */
export const configuredRoles = (s: ShareState): ShareRole[] => SHARE_ROLES.filter((r) => s[r] !== null);

/** Roles whose link actually opens the board right now. */
export const workingRoles = (s: ShareState): ShareRole[] => (s.enabled ? configuredRoles(s) : []);

/**
 * Roles whose previously working token no longer works: the link was disabled or rotated, or
 * sharing was switched off. Realtime closes those connections when it hears about them.
 */
export function revokedRoles(before: ShareState, after: ShareState): ShareRole[] {
  return workingRoles(before).filter((r) => !after.enabled || after[r] !== before[r]);
}

export const sameShareState = (a: ShareState, b: ShareState): boolean =>
  a.enabled === b.enabled && SHARE_ROLES.every((r) => a[r] === b[r]);

/**
 * PUT /sharing: the master switch. Switching off keeps the role links (they stop working at once);
 * switching on again revives the same links, as the access modal still shows them. Switching on with
 * no role link at all enables the viewer link, so "on" always means a link that works.
 */
export function setSharing(s: ShareState, enabled: boolean, newToken: NewToken): ShareState {
  if (!enabled) return { ...s, enabled: false };
  const next = { ...s, enabled: true };
  if (configuredRoles(next).length === 0) next.viewer = newToken();
  return next;
}

/**
 * POST /multiple-links: listed roles are enabled (an existing link is kept unless `rotate`), the
 * others disabled. The master switch is left as it is: the modal has its own toggle for it.
 */
export function setRoleLinks(s: ShareState, enabledRoles: readonly ShareRole[], rotate: boolean, newToken: NewToken): ShareState {
  const next: ShareState = { ...s };
  for (const role of SHARE_ROLES) {
    if (!enabledRoles.includes(role)) next[role] = null;
    else if (rotate || next[role] === null) next[role] = newToken();
  }
  return next;
}

/** The single-link API (`POST /link`, `/link/rotate`) manages the viewer link. */
export const SINGLE_LINK_ROLE: ShareRole = 'viewer';

/**
 * POST /link {enabled}: on = sharing on with a viewer link (kept if it exists); off = the viewer link
 * is disabled, and sharing goes off when no other role link remains.
 */
export function setSingleLink(s: ShareState, enabled: boolean, newToken: NewToken): ShareState {
  if (enabled) return { ...s, enabled: true, [SINGLE_LINK_ROLE]: s[SINGLE_LINK_ROLE] ?? newToken() };
  const next: ShareState = { ...s, [SINGLE_LINK_ROLE]: null };
  if (configuredRoles(next).length === 0) next.enabled = false;
  return next;
}

/** POST /link/rotate: a new viewer link (the old one dies at once); it also switches the link on. */
export const rotateSingleLink = (s: ShareState, newToken: NewToken): ShareState => ({
  ...s,
  enabled: true,
  [SINGLE_LINK_ROLE]: newToken(),
});
