import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import { Awareness } from 'y-protocols/awareness';
import type { Connection } from './connection.ts';
import { withoutUpdateListeners } from './internals.ts';

/** One board held in memory: its document, awareness, and who is connected here. */
export class Room {
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  readonly connections = new Set<Connection>();
  /** Connections of anonymous link visitors (they have a sub-limit, see domain/capacity.ts). */
  anonymous = 0;
  /** HTTP calls (reactions, force-save, export) holding the room open without a socket. */
  holds = 0;
  /** Approximate encoded size, checked against MAX_DOC_BYTES before each update. */
  size = 0;
  loaded = false;
  /** Set while the room is being persisted and dropped; newcomers wait and load a fresh copy. */
  unloading: Promise<void> | null = null;
  ready: Promise<void> = Promise.resolve();
  /** The board was deleted: nothing more is written or sent. */
  discarded = false;
  /** Bytes accepted from clients and waiting for the group commit (counted against MAX_DOC_BYTES). */
  pendingBytes = 0;
  /**
   * Updates accepted from clients and not in `doc` yet (they wait for the store), oldest first: a
   * client's next update may build on them, and the server reads them to judge it.
   */
  readonly accepted = new Set<Uint8Array>();
  /** Document changes to send out at the end of this turn, each with the connection it came from. */
  outgoing: Array<{ update: Uint8Array; origin: unknown }> = [];
  /** Awareness client ids changed this turn, and where the changes came from. */
  awarenessChanged = new Set<number>();
  awarenessOrigins = new Set<unknown>();
  /** The server's 'update' listener on `doc` (detached while a committed batch is applied). */
  onUpdate: ((update: Uint8Array, origin: unknown) => void) | null = null;
  /** Encoded state vector of `doc`, kept until the next change (see stateVector()). */
  private sv: Uint8Array | null = null;

  constructor(readonly boardId: string) {
    // gc stays on: the server never needs deleted content, and it keeps compacted states small.
    this.doc = new Y.Doc({ gc: true });
    this.awareness = new Awareness(this.doc);
    // The server is not a participant; without this every client would see a phantom user.
    this.awareness.setLocalState(null);
  }

  /**
   * The document's state vector, encoded once per change rather than once per incoming update and
   * per admitted socket (a burst of either between two commits shares one).
   */
  stateVector(): Uint8Array {
    return (this.sv ??= Y.encodeStateVector(this.doc));
  }

  /**
   * True when the copy holds nothing of an update whose structs start at `from` (client → first
   * clock): every live client's next update, whose diff against the copy would be itself. A
   * reconnecting client's resend starts below the copy's clock and is diffed.
   */
  holdsNoneOf(from: ReadonlyMap<number, number>): boolean {
    for (const [client, clock] of from) if (Y.getState(this.doc.store, client) > clock) return false;
    return true;
  }

  /**
   * The state vector of `doc` for `clients` only, encoded as Y.encodeStateVector does: what
   * Y.diffUpdate needs to trim an update of those clients. Encoding the whole vector (every client
   * the board ever had, sorted) for each incoming update cost 4.5 % of the server's busy time at
   * 1,000 clients, because every commit changes it.
   */
  stateVectorOf(clients: Iterable<number>): Uint8Array {
    const e = encoding.createEncoder();
    const list = [...clients];
    encoding.writeVarUint(e, list.length);
    for (const client of list) {
      encoding.writeVarUint(e, client);
      encoding.writeVarUint(e, Y.getState(this.doc.store, client));
    }
    return encoding.toUint8Array(e);
  }

  /**
   * Runs `fn` with the server's 'update' listener detached: a caller that already holds the bytes
   * it applies (a committed batch, a relayed one) skips Yjs's encoding and hands them to `onUpdate`.
   */
  withoutUpdateListener<T>(fn: () => T): T {
    return withoutUpdateListeners(this.doc, fn);
  }

  /**
   * The whole document was encoded (loaded, compacted) and is `bytes` long: the size check starts
   * again from the exact figure instead of the sum of the updates since.
   */
  measured(bytes: number): void {
    this.size = bytes;
  }

  /** Called for every change of `doc`. */
  changed(): void {
    this.sv = null;
  }

  get refs(): number {
    return this.connections.size + this.holds;
  }

  destroy(): void {
    this.awareness.destroy();
    this.doc.destroy();
  }
}
