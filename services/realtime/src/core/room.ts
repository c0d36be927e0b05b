import * as Y from 'yjs';
import { Awareness } from 'y-protocols/awareness';
import type { Connection } from './connection.ts';

/** One board held in memory: its document, awareness, and who is connected here. */
export class Room {
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  readonly connections = new Set<Connection>();
  /** HTTP calls (reactions, force-save, export) holding the room open without a socket. */
  holds = 0;
  /** Approximate encoded size, checked against MAX_DOC_BYTES before each update. */
  size = 0;
  /** Stored version this copy is known to contain. */
  version = 0;
  /** Changed since the last compaction. */
  dirty = false;
  loaded = false;
  /** Set while the room is being persisted and dropped; newcomers wait and load a fresh copy. */
  unloading: Promise<void> | null = null;
  ready: Promise<void> = Promise.resolve();
  /** Free-form per-extension state, keyed by extension name. */
  readonly ext = new Map<string, unknown>();

  constructor(readonly boardId: string) {
    // gc stays on: the server never needs deleted content, and it keeps compacted states small.
    this.doc = new Y.Doc({ gc: true });
    this.awareness = new Awareness(this.doc);
    // The server is not a participant; without this every client would see a phantom user.
    this.awareness.setLocalState(null);
  }

  get refs(): number {
    return this.connections.size + this.holds;
  }

  destroy(): void {
    this.awareness.destroy();
    this.doc.destroy();
  }
}
