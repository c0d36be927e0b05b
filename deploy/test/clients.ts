import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import WebSocket from 'ws';
import { callJson } from '@wb/testkit';

/** A stock y-websocket client, as the SPA uses it, with the close events it received. */
export function yClient(wsBase: string, boardId: string, token: string) {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(wsBase, boardId, doc, {
    params: { token },
    WebSocketPolyfill: WebSocket as never,
    maxBackoffTime: 200,
    // Providers of one board in one process would otherwise exchange updates over BroadcastChannel,
    // bypassing the server: a test would see edits the server never had.
    disableBc: true,
  });
  const closes: number[] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push(event.code);
  });
  return { doc, provider, closes, objects: () => doc.getMap('objects') };
}

import { eventually } from '@wb/testkit';
export { eventually };

export function addSticky(doc: Y.Doc, id: string, text: string) {
  const m = new Y.Map<unknown>();
  doc.transact(() => {
    doc.getMap('objects').set(id, m);
    for (const [k, v] of Object.entries({ id, type: 'sticky', x: 0, y: 0, width: 120, height: 120, text, zIndex: 1 })) m.set(k, v);
  });
}

/** A client that writes stickies whose ids start with `prefix`. */
export type TypingClient = ReturnType<typeof yClient> & { prefix: string; timer?: NodeJS.Timeout };

/** Ids of stickies a client did not write itself: it can only have them from the server. */
export const receivedBy = (c: TypingClient) => [...c.objects().keys()].filter((k) => !k.startsWith(c.prefix));

/**
 * Three clients on the board, each adding a sticky (id `r<round>c<i>-<n>`, its text the id) every
 * `everyMs`; resolves once each has received `atLeast` of this round's stickies from the others.
 */
export async function startTyping(
  wsBase: string,
  boardId: string,
  token: string,
  round: number,
  o: { everyMs: number; atLeast: number; /** each client is pushed here at once, for the test's cleanup */ clients: TypingClient[] },
): Promise<TypingClient[]> {
  const editors: TypingClient[] = [0, 1, 2].map((i) => ({ ...yClient(wsBase, boardId, token), prefix: `r${round}c${i}-` }));
  o.clients.push(...editors);
  await eventually(() => editors.every((c) => c.provider.synced), 15_000, 'clients to sync');
  let n = 0;
  for (const c of editors) {
    c.timer = setInterval(() => {
      const id = `${c.prefix}${n++}`;
      addSticky(c.doc, id, id);
    }, o.everyMs);
  }
  await eventually(
    () => editors.every((c) => receivedBy(c).filter((k) => k.startsWith(`r${round}`)).length >= o.atLeast),
    15_000,
    'edits to flow',
  );
  return editors;
}

/**
 * Stops the typing and destroys the clients before a restart (a reconnecting client would send back
 * what the server lost); adds what they had received from each other to `received`.
 */
export function stopTyping(editors: TypingClient[], received: Set<string>): void {
  for (const c of editors) {
    clearInterval(c.timer);
    c.provider.destroy();
    for (const k of receivedBy(c)) received.add(k);
  }
}

export const call = (base: string, method: string, path: string, opts: { token?: string; body?: unknown; share?: string } = {}) =>
  callJson(base, method, path, opts);
