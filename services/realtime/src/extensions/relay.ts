/**
 * Fan-out between replicas over core NATS (no JetStream: at-most-once, lowest latency; what the
 * relay misses is still in the store and in the clients' copies, which sync on reconnect).
 *
 * Per loaded board:
 *   rt.board.<id>.u     durable document updates, one merged message per group commit
 *                                                   [replica, sentAt, update]
 *   rt.board.<id>.a     awareness updates           [replica, sentAt, update]
 *   rt.board.<id>.c     control (recheck access, deleted, reset, revoke), JSON
 *   rt.board.<id>.sync  request with a state vector → the diff and all awareness states; only
 *                       replicas that finished loading subscribe, so "no responders" is instant.
 */
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { Msg, NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Room } from '../core/room.ts';
import { Origin, type Extension } from '../core/types.ts';
import { mergeOrNull } from '../domain/merge.ts';

const SYNC_TIMEOUT_MS = 500;

export const ControlMessage = z.object({
  action: z.enum(['recheck', 'deleted', 'reset', 'revoke']),
  /** revoke: the share tokens that died; absent = every link of the board. */
  tokens: z.array(z.string().max(256)).max(16).optional(),
  /**
   * The sending replica, which has applied the action itself. Optional, so replicas of the
   * version before it (which applied their own message when NATS echoed it) still understand.
   */
  from: z.string().max(256).optional(),
});
export type ControlMessage = z.infer<typeof ControlMessage>;

const subject = (boardId: string, kind: 'u' | 'a' | 'c' | 'sync') => `rt.board.${boardId}.${kind}`;

/** `sender`: the replica's id in UTF-8, written as lib0 writes a var string. */
function frame(sender: Uint8Array, payload: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint8Array(e, sender);
  // Sub-millisecond where the clocks are one (replicas on one machine); across machines skew dominates anyway.
  encoding.writeFloat64(e, performance.timeOrigin + performance.now());
  encoding.writeVarUint8Array(e, payload);
  return encoding.toUint8Array(e);
}

/**
 * The sender's id is read as the bytes it was written as (a var string is a var byte array of its
 * UTF-8) and compared as bytes: decoding it to a string for every relayed message only to compare
 * it with our own showed in the profile of a replica.
 */
function unframe(data: Uint8Array): { sender: Uint8Array; sentAt: number; payload: Uint8Array } {
  const d = decoding.createDecoder(data);
  return { sender: decoding.readVarUint8Array(d), sentAt: decoding.readFloat64(d), payload: decoding.readVarUint8Array(d) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface RelayOptions {
  nc: NatsConnection;
  replicaId: string;
  logger: Logger;
  onControl(boardId: string, msg: ControlMessage): void;
  /** publish → receive delay of each relayed message, in seconds. */
  observeLag?(seconds: number): void;
  /** Limits applied to relayed updates like to a client's. */
  maxDocBytes: number;
  /**
   * After a reconnect, before asking the peers: bring every loaded board up to the store (the
   * durable log), so what was relayed during the outage is not lost with a peer that is gone.
   */
  catchUp?(): Promise<void>;
}

/**
 * The connection should not echo (service-kit connects with noEcho): a replica's own messages are
 * still recognised by the sender id and dropped, so a connection that echoes is only slower.
 */
export class Relay implements Extension {
  readonly name = 'relay';
  private readonly subs = new Map<string, Subscription[]>();
  private readonly rooms = new Map<string, Room>();
  /** Relayed updates per board waiting for the end of this NATS read, applied in one transaction. */
  private readonly inbox = new Map<Room, Uint8Array[]>();
  /** This replica's id as it appears in its frames. */
  private readonly self: Uint8Array;

  constructor(private readonly opts: RelayOptions) {
    this.self = new TextEncoder().encode(opts.replicaId);
    void this.watchReconnects();
  }

  /**
   * Core NATS is at-most-once: whatever was published while this replica was cut off from the
   * server is gone. After a reconnect every loaded board first reads the store, which holds every
   * update any replica accepted (durable before relayed), then asks the others for what it still
   * lacks (updates durable after that read) and for their awareness; they ask it too. So each
   * replica's clients catch up without reconnecting, even when the replica that accepted the
   * missed updates is gone.
   */
  private async watchReconnects(): Promise<void> {
    for await (const s of this.opts.nc.status()) {
      if (s.type !== 'reconnect') continue;
      this.opts.logger.info({ boards: this.rooms.size }, 'relay reconnected; catching up');
      void this.opts.catchUp?.().catch((err) => this.opts.logger.warn({ err }, 'catching up from the store failed'));
      // The peers' subscriptions come back when they reconnect too, so ask again a little later.
      for (const delay of [0, 1_000, 3_000]) {
        setTimeout(() => {
          for (const room of this.rooms.values()) void this.syncFromPeers(room);
        }, delay).unref();
      }
    }
  }

  /** Runs before the store is read: updates relayed meanwhile are applied, Yjs orders them. */
  async onLoadDocument(room: Room): Promise<void> {
    const { nc } = this.opts;
    const id = room.boardId;
    const subs = [
      nc.subscribe(subject(id, 'u'), { callback: (err, msg) => !err && this.onUpdate(room, msg) }),
      nc.subscribe(subject(id, 'a'), { callback: (err, msg) => !err && this.onAwareness(room, msg) }),
      nc.subscribe(subject(id, 'c'), { callback: (err, msg) => !err && this.onControlMsg(id, msg) }),
    ];
    this.subs.set(id, subs);
    // Make sure the server knows the subscriptions before anyone publishes for this board.
    await nc.flush();
  }

  /** Asks replicas holding the board for what they hold beyond this copy, then answers them too. */
  async afterLoadDocument(room: Room): Promise<void> {
    await this.syncFromPeers(room);
    const syncSub = this.opts.nc.subscribe(subject(room.boardId, 'sync'), { callback: (err, msg) => !err && this.onSyncRequest(room, msg) });
    this.subs.get(room.boardId)?.push(syncSub);
    this.rooms.set(room.boardId, room);
  }

  private async syncFromPeers(room: Room): Promise<void> {
    const { nc } = this.opts;
    try {
      const reply = await nc.request(subject(room.boardId, 'sync'), frame(this.self, Y.encodeStateVector(room.doc)), {
        timeout: SYNC_TIMEOUT_MS,
      });
      const d = decoding.createDecoder(reply.data);
      const diff = decoding.readVarUint8Array(d);
      const awareness = decoding.readVarUint8Array(d);
      if (room.doc.isDestroyed) return;
      Y.applyUpdate(room.doc, diff, Origin.RELAY);
      applyAwarenessUpdate(room.awareness, awareness, Origin.RELAY);
    } catch (err) {
      // No other replica holds the board (503 no responders) or it did not answer in time.
      const code = (err as { code?: string }).code;
      if (code !== '503' && code !== 'TIMEOUT') this.opts.logger.warn({ err, boardId: room.boardId }, 'sync request failed');
    }
  }

  /** One message per board per group commit: everything this replica made durable in it, merged. */
  afterCommit(room: Room, merged: Uint8Array): void {
    this.opts.nc.publish(subject(room.boardId, 'u'), frame(this.self, merged));
  }

  /** Called once per turn with the board's coalesced awareness changes. */
  onAwarenessUpdate(room: Room, update: Uint8Array, origin: unknown): void {
    if (origin === Origin.RELAY) return;
    this.opts.nc.publish(subject(room.boardId, 'a'), frame(this.self, update));
  }

  afterUnloadDocument(room: Room): void {
    for (const s of this.subs.get(room.boardId) ?? []) s.unsubscribe();
    this.subs.delete(room.boardId);
    if (this.rooms.get(room.boardId) === room) this.rooms.delete(room.boardId);
  }

  /** Sends a control message to every other replica holding the board; the caller applies it here. */
  control(boardId: string, msg: ControlMessage): void {
    const framed: ControlMessage = { ...msg, from: this.opts.replicaId };
    this.opts.nc.publish(subject(boardId, 'c'), new TextEncoder().encode(JSON.stringify(framed)));
  }

  async onDestroy(): Promise<void> {
    for (const subs of this.subs.values()) for (const s of subs) s.unsubscribe();
    this.subs.clear();
    await this.opts.nc.flush().catch(() => {});
  }

  private receive(msg: Msg): Uint8Array | null {
    try {
      const { sender, sentAt, payload } = unframe(msg.data);
      if (sameBytes(sender, this.self)) return null;
      this.opts.observeLag?.(Math.max(0, performance.timeOrigin + performance.now() - sentAt) / 1000);
      return payload;
    } catch (err) {
      this.opts.logger.warn({ err, subject: msg.subject }, 'malformed relay message');
      return null;
    }
  }

  /**
   * One NATS read often carries several messages of one board (several peers, several commits);
   * they are applied together once the read is parsed, in one Yjs transaction.
   */
  private onUpdate(room: Room, msg: Msg): void {
    const update = this.receive(msg);
    if (!update || room.size + update.byteLength > this.opts.maxDocBytes * 2) return;
    const waiting = this.inbox.get(room);
    if (waiting) return void waiting.push(update);
    this.inbox.set(room, [update]);
    queueMicrotask(() => this.applyInbox(room));
  }

  /**
   * The relayed updates are applied with the server's 'update' listener detached and handed to it
   * afterwards as they came (merged when several), as the core does for a committed batch.
   */
  private applyInbox(room: Room): void {
    const updates = this.inbox.get(room) ?? [];
    this.inbox.delete(room);
    if (room.doc.isDestroyed) return;
    const applied: Uint8Array[] = [];
    room.withoutUpdateListener(() =>
      Y.transact(
        room.doc,
        () => {
          for (const u of updates) {
            try {
              Y.applyUpdate(room.doc, u, Origin.RELAY);
              applied.push(u);
            } catch (err) {
              // One bad message must not keep the others of the batch out.
              this.opts.logger.warn({ err, boardId: room.boardId }, 'relayed update failed to apply');
            }
          }
        },
        Origin.RELAY,
      ),
    );
    const listener = room.onUpdate;
    if (!listener || applied.length === 0) return;
    const merged = mergeOrNull(applied);
    if (merged) listener(merged, Origin.RELAY);
    else for (const u of applied) listener(u, Origin.RELAY);
  }

  private onAwareness(room: Room, msg: Msg): void {
    const update = this.receive(msg);
    if (!update) return;
    try {
      applyAwarenessUpdate(room.awareness, update, Origin.RELAY);
    } catch (err) {
      this.opts.logger.warn({ err, boardId: room.boardId }, 'relayed awareness failed to apply');
    }
  }

  private onControlMsg(boardId: string, msg: Msg): void {
    try {
      const control = ControlMessage.parse(JSON.parse(new TextDecoder().decode(msg.data)));
      if (control.from !== this.opts.replicaId) this.opts.onControl(boardId, control);
    } catch (err) {
      this.opts.logger.warn({ err, boardId }, 'malformed control message');
    }
  }

  private onSyncRequest(room: Room, msg: Msg): void {
    try {
      const { sender, payload } = unframe(msg.data);
      if (sameBytes(sender, this.self) || !room.loaded || !msg.reply) return;
      const e = encoding.createEncoder();
      encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(room.doc, payload));
      encoding.writeVarUint8Array(e, encodeAwarenessUpdate(room.awareness, [...room.awareness.getStates().keys()]));
      msg.respond(encoding.toUint8Array(e));
    } catch (err) {
      this.opts.logger.warn({ err, boardId: room.boardId }, 'sync request handling failed');
    }
  }
}
