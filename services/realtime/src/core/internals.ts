/**
 * Every place the server relies on Yjs or ws beyond their documented API, in one module. Each was
 * a measured cost on the hot path (see the comments); each has a fallback or a check, and
 * test/internals.test.ts fails when an upgrade changes what is relied on here. The versions this
 * was written for are pinned in package.json (`~`, patch releases only) and checked by that test:
 * raise them only after its checks pass on the new version.
 */
import * as Y from 'yjs';
import type { WebSocket } from 'ws';

/** The installed versions these helpers were written for (package.json pins the same). */
export const WRITTEN_FOR = { yjs: '13.6.', ws: '8.23.' } as const;

/** Y.Doc's observable internals (lib0 Observable): event name → listeners. */
interface ObservableInternals {
  _observers: Map<string, Set<unknown>>;
}

/**
 * Runs `fn` with the document's 'update' listeners detached, so Yjs does not encode the
 * transaction for them (the caller already holds the bytes it applies). Yjs encodes a transaction
 * when the document has any 'update' listener; the listeners' set is taken out and put back as
 * it is: off() dropped the emptied set and on() made a new one, a set per commit and board that
 * the long-lived document kept alive into the old generation.
 */
export function withoutUpdateListeners<T>(doc: Y.Doc, fn: () => T): T {
  const observers = (doc as unknown as ObservableInternals)._observers;
  const listeners = observers.get('update');
  if (listeners) observers.delete('update');
  try {
    return fn();
  } finally {
    if (listeners) {
      // A listener registered meanwhile went into a new set: keep it too.
      const added = observers.get('update');
      if (added) for (const f of added) listeners.add(f);
      observers.set('update', listeners);
    }
  }
}

/**
 * `message` as one unmasked, final, binary WebSocket frame (RFC 6455 §5.2): built once per fan-out
 * and written to every socket as a single buffer (writeFrameDirect). ws would build a header per socket and hand the
 * kernel two buffers through cork/writev; at 9,000 deliveries a second that was about 5 % of the
 * server's busy time (the write syscall itself stays).
 */
export function binaryFrame(message: Uint8Array): Buffer {
  const n = message.byteLength;
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x82;
  if (head === 2) frame[1] = n;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  frame.set(message, head);
  return frame;
}

/** The parts of ws's socket the pre-framed path reads. */
interface WsInternals {
  _socket?: NodeJS.EventEmitter & { writable: boolean; write(data: Buffer): boolean };
  _sender?: { _state?: number };
}

/** ws's Sender state when nothing is queued in it (no compression, no Blob being read). */
const SENDER_IDLE = 0;

/**
 * Writes an already built WebSocket frame straight to the TCP socket when ws has nothing of its
 * own queued (so frames stay in order); false when it cannot, and the caller sends through ws.
 * ws builds a header per socket and hands the kernel two buffers through cork/writev; at 9,000
 * deliveries a second that was about 5 % of the server's busy time.
 */
export function writeFrameDirect(ws: WebSocket, frame: Buffer): boolean {
  const internals = ws as unknown as WsInternals;
  if (internals._sender?._state !== SENDER_IDLE || !internals._socket?.writable) return false;
  internals._socket.write(frame);
  return true;
}

/** Calls `fn` once the socket under `ws` drains, or on the next turn when there is no socket. */
export function onceDrained(ws: WebSocket, fn: () => void): void {
  const socket = (ws as unknown as WsInternals)._socket;
  if (socket) socket.once('drain', fn);
  else setImmediate(fn);
}

// ---- Yjs structs of a decoded update (Y.decodeUpdate is documented; the fields of its structs are not) ----

/** One struct of a decoded update. */
export type Struct = Y.Item | Y.GC | Y.Skip;

/** The document's item store, where the copy's items are looked up by id. */
export type ItemStore = Y.Doc['store'];

/** How far the copy's history of `client` goes (the next clock it expects). */
export function clockOf(store: ItemStore, client: number): number {
  return Y.getState(store, client);
}

/** The map key an item writes when the update names it (a first write of a field). */
export function keyOf(s: Struct): string | null {
  return (s as Y.Item).parentSub ?? null;
}

/** Whether the update names the item's parent (a root type or a nested type's id). */
export function parentNamed(s: Struct): boolean {
  return (s as Y.Item).parent != null;
}

/**
 * A value that is not typed text nor a deletion and whose parent is not named in the update: its
 * field is known only through a neighbour (an overwrite of an existing field names the previous
 * value, not the field).
 */
export function isUnplacedValue(s: Struct): boolean {
  const item = s as Y.Item;
  return item.parent === null && !(item.content instanceof Y.ContentString) && !(item.content instanceof Y.ContentDeleted);
}

/** The id of the neighbour the item was inserted next to (left, else right), if any. */
export function neighbourOf(s: Struct): Y.ID | null {
  const item = s as Y.Item;
  return item.origin ?? item.rightOrigin ?? null;
}

/** The map key of an item the copy already holds. */
export function storedKeyOf(store: ItemStore, id: Y.ID): string | null {
  return (Y.getItem(store, id) as Y.Item).parentSub ?? null;
}

/** The item's content when it is exactly one plain JSON value; undefined otherwise (binary, a type, several). */
export function singleValueOf(s: Struct): { value: unknown } | undefined {
  const content = (s as Y.Item).content;
  return content instanceof Y.ContentAny && content.arr.length === 1 ? { value: content.arr[0] } : undefined;
}
