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

export { eventually } from '@wb/testkit';

export function addSticky(doc: Y.Doc, id: string, text: string) {
  const m = new Y.Map<unknown>();
  doc.transact(() => {
    doc.getMap('objects').set(id, m);
    for (const [k, v] of Object.entries({ id, type: 'sticky', x: 0, y: 0, width: 120, height: 120, text, zIndex: 1 })) m.set(k, v);
  });
}

export const call = (base: string, method: string, path: string, opts: { token?: string; body?: unknown; share?: string } = {}) =>
  callJson(base, method, path, opts);
