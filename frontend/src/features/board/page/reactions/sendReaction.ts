/**
 * Toggling a reaction (§9: the same user and emoji removes it, otherwise adds). Editors write to the
 * document themselves; viewers go through the server (realtime message type 100 on the open socket,
 * POST /yjs/reactions when the socket is not open), because the server never applies a read-only
 * client's update.
 */
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { WebsocketProvider } from 'y-websocket';
import type * as Y from 'yjs';
import { toggleReaction } from '@wb/board-model';

export const REACTION_MESSAGE = 100;

interface ReactionResult {
  type: 'reaction-result';
  requestId: number;
  ok: boolean;
  added?: boolean;
  error?: string;
}

const pending = new Map<number, (r: ReactionResult) => void>();
let nextRequestId = 1;

/** Registers the answer handler so the provider routes type-100 frames to us. */
export function installReactionHandler(provider: WebsocketProvider): void {
  provider.messageHandlers[REACTION_MESSAGE] = (_encoder, decoder) => {
    try {
      const r = JSON.parse(decoding.readVarString(decoder)) as ReactionResult;
      pending.get(r.requestId)?.(r);
      pending.delete(r.requestId);
    } catch {
      /* a malformed answer is ignored: the document sync is the truth */
    }
  };
}

export interface ReactionTarget {
  doc: Y.Doc;
  provider: WebsocketProvider;
  boardId: string;
  objectId: string;
  emoji: string;
}

export function toggleOwnReaction(t: ReactionTarget, user: { id: string; name: string }, origin: unknown): boolean {
  return toggleReaction(t.doc, t.objectId, { emoji: t.emoji, userId: user.id, userName: user.name }, origin);
}

/** Resolves with the server's answer; rejects with its error text. */
export function toggleReactionViaServer(
  t: ReactionTarget,
  http: { accessToken: string | null; shareToken: string | null; anonId: string | null },
): Promise<boolean> {
  const ws = t.provider.ws;
  if (ws && ws.readyState === WebSocket.OPEN) {
    const requestId = nextRequestId++;
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, REACTION_MESSAGE);
    encoding.writeVarString(e, JSON.stringify({ type: 'reaction', objectId: t.objectId, emoji: t.emoji, requestId }));
    return new Promise((resolve, reject) => {
      pending.set(requestId, (r) => (r.ok ? resolve(r.added === true) : reject(new Error(r.error ?? 'reaction refused'))));
      ws.send(encoding.toUint8Array(e));
    });
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (http.accessToken) headers.Authorization = `Bearer ${http.accessToken}`;
  if (http.shareToken) headers['X-Share-Token'] = http.shareToken;
  if (http.anonId) headers['X-Anon-Id'] = http.anonId;
  return fetch('/yjs/reactions', {
    method: 'POST',
    headers,
    body: JSON.stringify({ boardId: t.boardId, objectId: t.objectId, emoji: t.emoji }),
  }).then(async (res) => {
    const body = (await res.json().catch(() => ({}))) as { added?: boolean; error?: string };
    if (!res.ok) throw new Error(body.error ?? 'reaction refused');
    return body.added === true;
  });
}
