/**
 * Awareness (§3 "Awareness state": user, cursor, selection) and the participants list. Pure.
 */
import { participantColor, pluralParticipants } from '@wb/board-model';
import { SPEC } from './texts.ts';

/** §6: the temporary presence of a link visitor until the real user is known. */
export const LOADING_PRESENCE_NAME = SPEC.loadingPresence;

export interface PresenceUser {
  id: string;
  name: string;
  color: string;
}
export interface PresenceState {
  user: PresenceUser;
  cursor: { x: number; y: number } | null;
  selection: string[];
}

/** Cursor updates go out at most this often: smooth enough with interpolation, light on the wire. */
export const CURSOR_THROTTLE_MS = 40;

/** A stable colour per user from the 10-colour palette (§9), the same in every browser. */
export const colorFor = (userId: string): string => participantColor(userId);

function isPresence(v: unknown): v is PresenceState {
  if (!v || typeof v !== 'object') return false;
  const u = (v as { user?: unknown }).user;
  return !!u && typeof u === 'object' && typeof (u as PresenceUser).id === 'string' && typeof (u as PresenceUser).name === 'string';
}

export interface Participant extends PresenceUser {
  clientIds: number[];
  self: boolean;
}

/** One row per user (two tabs of one user are one participant), the current user first. */
export function participantsOf(states: Map<number, unknown>, selfClientId: number): Participant[] {
  const byUser = new Map<string, Participant>();
  for (const [clientId, raw] of states) {
    if (!isPresence(raw)) continue;
    const row = byUser.get(raw.user.id);
    if (row) {
      row.clientIds.push(clientId);
      row.self ||= clientId === selfClientId;
      // The temporary 'Загрузка...' presence gives way to the real name as soon as one tab has it.
      if (row.name === LOADING_PRESENCE_NAME) row.name = raw.user.name;
    } else {
      byUser.set(raw.user.id, { ...raw.user, clientIds: [clientId], self: clientId === selfClientId });
    }
  }
  return [...byUser.values()].sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name, 'ru'));
}

export interface RemoteCursor {
  clientId: number;
  name: string;
  color: string;
  x: number;
  y: number;
}

export function remoteCursors(states: Map<number, unknown>, selfClientId: number): RemoteCursor[] {
  const out: RemoteCursor[] = [];
  for (const [clientId, raw] of states) {
    if (clientId === selfClientId || !isPresence(raw) || !raw.cursor) continue;
    out.push({ clientId, name: raw.user.name, color: raw.user.color, x: raw.cursor.x, y: raw.cursor.y });
  }
  return out;
}

/** Objects others have selected, with the colour to outline them in (first selector wins). */
export function remoteSelections(states: Map<number, unknown>, selfClientId: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const [clientId, raw] of states) {
    if (clientId === selfClientId || !isPresence(raw)) continue;
    for (const id of raw.selection ?? []) if (!out.has(id)) out.set(id, raw.user.color);
  }
  return out;
}

export const participantsLabel = (n: number): string => `${n} ${pluralParticipants(n)}`;
