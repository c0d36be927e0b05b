/**
 * Who an awareness state says it is, decided by the server (issue 32 item 4: a guest published the
 * owner's id, name and colour and was shown as the owner). The identity fields of every state a
 * connection publishes are overwritten with the connection's own; the rest (cursor, selection)
 * stays the client's. Pure.
 */
import { participantColor } from '@wb/board-model';

/**
 * The name of a link visitor who did not sign in (reactions, presence). The spec names no text for
 * it; the board page's participants list uses the same word (frontend texts.ts `guest`).
 */
export const ANONYMOUS_NAME = 'Гость';

export interface PresenceIdentity {
  id: string;
  name: string;
}

/** `state` with `user` = {id, name, color} of `who`; a state that is not an object becomes one. */
export function stampPresence(state: unknown, who: PresenceIdentity): unknown {
  if (state === null) return null; // the client left: nothing to stamp
  const base = typeof state === 'object' && !Array.isArray(state) ? (state as Record<string, unknown>) : {};
  const user = base.user && typeof base.user === 'object' && !Array.isArray(base.user) ? (base.user as Record<string, unknown>) : {};
  return { ...base, user: { ...user, id: who.id, name: who.name, color: participantColor(who.id) } };
}
