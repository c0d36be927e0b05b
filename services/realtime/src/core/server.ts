/**
 * The protocol core: accepts sockets, speaks y-websocket (sync, awareness, query-awareness) plus
 * the custom reaction message, keeps rooms in memory, and leaves everything else (auth, storage,
 * fan-out between replicas, metrics) to extensions called in order, as hocuspocus does.
 *
 * Durable before visible: a client's update is checked, queued for the group commit and applied
 * to the room (and sent to anyone) only once it is in the store. Whatever one room produces in one
 * commit or one event-loop turn goes out as one merged message per connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import * as Y from 'yjs';
import { encodeAwarenessUpdate, applyAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { ERRORS } from '@wb/contracts';
import { CloseCode, CloseError } from '../domain/close-codes.ts';
import { canEdit } from '../domain/roles.ts';
import { admits } from '../domain/capacity.ts';
import { take, type BucketSpec } from '../domain/rate-limit.ts';
import {
  CustomRequest,
  MalformedMessage,
  decodeAwarenessEntries,
  decodeClientMessage,
  encodeAwareness,
  encodeAwarenessEntries,
  encodeCustom,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  type ReactionResult,
} from '../domain/protocol.ts';
import { applyReaction, type ReactionOutcome } from '../domain/reactions.ts';
import { imageSourcesAllowed, readUpdateMeta } from '../domain/update-meta.ts';
import { ANONYMOUS_NAME, stampPresence, type PresenceIdentity } from '../domain/presence.ts';
import type { RealtimeLimits } from '../config.ts';
import { Connection, RealtimeSocket } from './connection.ts';
import { binaryFrame } from './internals.ts';
import { GroupCommit, type CommitWriter } from './group-commit.ts';
import { Room } from './room.ts';
import { Origin, type Extension, type Identity, type UnloadMode } from './types.ts';

const PATH = /^\/yjs\/([\w-]{1,64})\/?$/;
/** One client library instance has one awareness id; a few more allow several tabs sharing a socket. */
const MAX_AWARENESS_IDS_PER_CONNECTION = 8;
/** The provider sends two or three messages on open; past this many the socket is not read until admitted. */
const MAX_EARLY_MESSAGES = 32;
/** An update with no structs and an empty delete set, as Yjs encodes it. */
const isEmptyUpdate = (u: Uint8Array) => u.byteLength === 2 && u[0] === 0 && u[1] === 0;

export interface CoreStats {
  bytesIn(n: number): void;
  bytesOut(n: number): void;
  updateIn(): void;
  updatesOut(n: number): void;
  rejected(reason: string): void;
  durableMs(ms: number): void;
  commitBatch(entries: number, updates: number): void;
  commitFailed(): void;
}

const noStats: CoreStats = {
  bytesIn() {},
  bytesOut() {},
  updateIn() {},
  updatesOut() {},
  rejected() {},
  durableMs() {},
  commitBatch() {},
  commitFailed() {},
};

export interface RealtimeServerOptions {
  limits: RealtimeLimits;
  logger: Logger;
  extensions: Extension[];
  /** Appends accepted updates to the store (one call per group commit); absent = nothing to wait for. */
  write?: CommitWriter;
  stats?: CoreStats;
  /** Sessions ended in auth (the verifier's list): an admission that raced the revocation is refused. */
  isSessionRevoked?: (sid: string) => boolean;
}

export class RealtimeServer {
  readonly rooms = new Map<string, Room>();
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  readonly commits: GroupCommit;
  private stats: CoreStats;
  private stopping = false;
  readonly extensions: Extension[];
  /** Bumped when a board's links are revoked; an admission that raced it is checked again. */
  private readonly revisions = new Map<string, number>();
  /** Rooms with changes or awareness to send at the end of this turn. */
  private readonly toFlush = new Set<Room>();
  private flushScheduled = false;
  private readonly messageRate: BucketSpec;

  constructor(private readonly opts: RealtimeServerOptions) {
    this.extensions = opts.extensions;
    this.stats = opts.stats ?? noStats;
    this.messageRate = { perSecond: opts.limits.messagesPerSecond, burst: opts.limits.messageBurst };
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: opts.limits.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
      WebSocket: RealtimeSocket,
    });
    const write = opts.write ?? (async () => {});
    this.commits = new GroupCommit({
      write,
      windowMs: opts.limits.groupCommitMs,
      maxInFlight: opts.limits.groupCommitFlights,
      maxPendingBytes: opts.limits.maxPendingBytes,
      logger: opts.logger,
      onDurable: (room, updates, origins, merged) => this.onDurable(room, updates, origins, merged),
      afterFanOut: (room, updates, origins, merged) => this.applyDurable(room, updates, origins, merged),
      onPressure: (paused) => this.onPressure(paused),
      observe: {
        durableMs: (ms) => this.stats.durableMs(ms),
        batch: (e, u) => this.stats.commitBatch(e, u),
        failed: () => this.stats.commitFailed(),
      },
    });
  }

  setStats(stats: CoreStats): void {
    this.stats = stats;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get pausedCount(): number {
    let n = 0;
    for (const c of this.connections) if (c.paused) n++;
    return n;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match || this.stopping) {
      socket.end(match ? 'HTTP/1.1 503 Service Unavailable\r\n\r\n' : 'HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    const boardId = match[1]!;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws as RealtimeSocket, req, boardId, url.searchParams));
  }

  private onSocket(ws: RealtimeSocket, req: IncomingMessage, boardId: string, params: URLSearchParams): void {
    const conn = new Connection(ws, boardId);
    ws.conn = conn;
    this.connections.add(conn);
    ws.server = this;
    ws.on('message', onWsMessage);
    ws.on('error', ignore);
    ws.on('close', onWsClose);
    void this.admit(conn, req, params);
  }

  /** Token, access, capacity; then the room. Runs once per socket and keeps nothing of the request. */
  private async admit(conn: Connection, req: IncomingMessage, params: URLSearchParams): Promise<void> {
    const boardId = conn.boardId;
    let room: Room | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const revision = this.revisions.get(boardId) ?? 0;
        const identity = await this.authenticate({ boardId, params, request: req });
        if (conn.closed) return;
        // Links revoked while this was being decided: decide again with fresh answers.
        if ((this.revisions.get(boardId) ?? 0) !== revision && attempt < 3) continue;
        // Revoked while boards was asked: closeSessions could not see this socket yet (no identity).
        if (identity.sessionId && this.opts.isSessionRevoked?.(identity.sessionId)) throw new CloseError(CloseCode.UNAUTHORIZED);
        conn.identity = identity;
        break;
      }
      room = await this.acquire(boardId);
      if (conn.closed) return;
      const who = conn.identity!;
      const occupancy = { total: room.connections.size, anonymous: room.anonymous };
      const limits = this.opts.limits;
      const capacity = { perBoard: limits.maxConnectionsPerBoard, anonymousPerBoard: limits.maxAnonymousPerBoard, ownerReserve: limits.ownerReserve };
      if (!admits(occupancy, capacity, { owner: who.role === 'owner', signedIn: who.userId !== null })) {
        throw new CloseError(CloseCode.TOO_MANY_CONNECTIONS);
      }
      for (const ext of this.extensions) ext.onConnect?.({ room, connection: conn });
      room.connections.add(conn);
      if (who.userId === null) room.anonymous++;
      conn.room = room;
    } catch (err) {
      if (room) this.release(room);
      room = undefined;
      this.refuse(conn, err);
      return;
    } finally {
      if (room) this.release(room);
    }

    if (canEdit(conn.identity!.role)) conn.send(encodeSyncStep1(room.stateVector()));
    if (room.awareness.getStates().size > 0) {
      conn.send(encodeAwareness(encodeAwarenessUpdate(room.awareness, [...room.awareness.getStates().keys()])));
    }
    const early = conn.early;
    conn.early = null;
    if (early) for (const data of early) this.onRaw(conn, data);
    if (early && early.length >= MAX_EARLY_MESSAGES && !conn.paused) conn.ws.resume();
  }

  private refuse(conn: Connection, err: unknown): void {
    if (err instanceof CloseError) {
      this.stats.rejected(String(err.code));
      conn.close(err.code, err.message);
    } else {
      this.opts.logger.error({ err, boardId: conn.boardId }, 'connection setup failed');
      this.stats.rejected(String(CloseCode.INTERNAL_ERROR));
      conn.close(CloseCode.INTERNAL_ERROR);
    }
  }

  async authenticate(ctx: { boardId: string; params: URLSearchParams; request: IncomingMessage }): Promise<Identity> {
    for (const ext of this.extensions) {
      const identity = await ext.onAuthenticate?.(ctx);
      if (identity) return identity;
    }
    throw new CloseError(CloseCode.UNAUTHORIZED);
  }

  // ---- rooms ----

  /** Runs `fn` with the board loaded (from memory, the store, or another replica). */
  async withRoom<T>(boardId: string, fn: (room: Room) => Promise<T> | T): Promise<T> {
    const room = await this.acquire(boardId);
    try {
      return await fn(room);
    } finally {
      this.release(room);
    }
  }

  private async acquire(boardId: string): Promise<Room> {
    for (;;) {
      if (this.stopping) throw new CloseError(CloseCode.SHUTTING_DOWN);
      let room = this.rooms.get(boardId);
      if (room?.unloading) {
        await room.unloading.catch(() => {});
        continue;
      }
      if (!room) {
        room = new Room(boardId);
        this.rooms.set(boardId, room);
        this.attach(room);
        room.ready = this.load(room);
      }
      room.holds++;
      try {
        await room.ready;
      } catch (err) {
        room.holds--;
        if (this.rooms.get(boardId) === room) {
          this.rooms.delete(boardId);
          room.destroy();
        }
        if (err instanceof CloseError) throw err;
        this.opts.logger.warn({ err, boardId }, 'loading the board failed');
        throw new CloseError(CloseCode.STORE_UNAVAILABLE);
      }
      return room;
    }
  }

  private async load(room: Room): Promise<void> {
    for (const ext of this.extensions) await ext.onLoadDocument?.(room);
    room.loaded = true;
    for (const ext of this.extensions) await ext.afterLoadDocument?.(room);
  }

  private release(room: Room): void {
    room.holds--;
    this.maybeUnload(room);
  }

  private leave(room: Room, conn: Connection): void {
    if (!room.connections.delete(conn)) return;
    if (conn.identity?.userId === null) room.anonymous--;
    if (conn.awarenessIds && conn.awarenessIds.size > 0) removeAwarenessStates(room.awareness, [...conn.awarenessIds], null);
    for (const ext of this.extensions) ext.onDisconnect?.({ room, connection: conn });
    this.maybeUnload(room);
  }

  private maybeUnload(room: Room): void {
    if (room.refs > 0 || room.unloading || this.stopping || this.rooms.get(room.boardId) !== room) return;
    room.unloading = this.unload(room);
  }

  private async unload(room: Room, mode: UnloadMode = 'compact'): Promise<void> {
    try {
      if (mode === 'discard') {
        room.discarded = true;
        this.commits.discard(room);
        room.accepted.clear();
      } else {
        // Everything accepted reaches the store (and the copy) before the copy is compacted.
        await this.commits.settled(room);
      }
      for (const ext of this.extensions) await ext.beforeUnloadDocument?.(room, mode);
    } catch (err) {
      this.opts.logger.error({ err, boardId: room.boardId }, 'persisting before unload failed');
    } finally {
      if (this.rooms.get(room.boardId) === room) this.rooms.delete(room.boardId);
      for (const ext of this.extensions) ext.afterUnloadDocument?.(room);
      this.toFlush.delete(room);
      room.destroy();
    }
  }

  private attach(room: Room): void {
    room.onUpdate = (update: Uint8Array, origin: unknown) => this.onDocUpdate(room, update, origin);
    room.doc.on('update', room.onUpdate);
    room.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        if (origin instanceof Connection) {
          const ids = (origin.awarenessIds ??= new Set());
          for (const id of added) ids.add(id);
          for (const id of updated) ids.add(id);
          for (const id of removed) ids.delete(id);
        }
        for (const id of added) room.awarenessChanged.add(id);
        for (const id of updated) room.awarenessChanged.add(id);
        for (const id of removed) room.awarenessChanged.add(id);
        room.awarenessOrigins.add(origin);
        this.scheduleFlush(room);
      },
    );
  }

  /** Every change of the in-memory copy; all of them are durable already except reactions. */
  private onDocUpdate(room: Room, update: Uint8Array, origin: unknown): void {
    room.changed();
    // A commit is counted by onDurable, update by update: its merge also holds the reactions,
    // which were counted when they were applied.
    if (origin !== Origin.COMMITTED) room.size += update.byteLength;
    if (origin === Origin.SERVER) {
      // A reaction is applied at once (its outcome is the answer) and shown once it is durable.
      this.commits.add(room, update, origin);
    } else if (origin === Origin.RELAY) {
      // Another replica's commit, durable already and merged per NATS read: out at once, like a
      // commit of this replica's own. Waiting for the end of the turn put every socket read and
      // commit of the rest of the turn before it (the replicas' tail).
      room.outgoing.push({ update, origin });
      this.flushOutgoing(room);
    } else if (origin !== Origin.COMMITTED) {
      // Committed client updates are queued and flushed by onDurable; the rest at the end of the turn.
      room.outgoing.push({ update, origin });
      this.scheduleFlush(room);
    }
    for (const ext of this.extensions) {
      try {
        ext.onChange?.(room, update, origin);
      } catch (err) {
        this.opts.logger.error({ err, ext: ext.name, boardId: room.boardId }, 'onChange failed');
      }
    }
  }

  /**
   * One group commit made these updates of `room` durable: out to every connection (as ONE merged
   * message) and to the other replicas at once. The copy is brought up to date afterwards
   * (applyDurable), once every board of the commit is sent: nothing reads the copy in between.
   */
  private onDurable(room: Room, updates: Uint8Array[], origins: unknown[], merged: Uint8Array): void {
    // Nothing else waiting to go out: what goes out is exactly this batch, merged once already.
    const alone = room.outgoing.length === 0;
    for (let i = 0; i < updates.length; i++) room.outgoing.push({ update: updates[i]!, origin: origins[i] });
    this.flushOutgoing(room, alone ? merged : null);
    for (const ext of this.extensions) {
      try {
        ext.afterCommit?.(room, merged);
      } catch (err) {
        this.opts.logger.error({ err, ext: ext.name, boardId: room.boardId }, 'afterCommit failed');
      }
    }
  }

  /**
   * The clients' updates of one commit into the copy, in ONE transaction (one state-vector pass,
   * one observer run, one update event per board and commit instead of per update).
   */
  private applyDurable(room: Room, updates: Uint8Array[], origins: unknown[], merged: Uint8Array): void {
    let failed: Connection | null = null;
    // What changed is `merged`, encoded already: the listener is detached so Yjs does not encode the
    // transaction again (about 9 % of the server's allocations at 1,000 clients); onDocUpdate gets
    // `merged` instead.
    try {
      room.withoutUpdateListener(() =>
        Y.transact(
          room.doc,
          () => {
            for (let i = 0; i < updates.length; i++) {
              const origin = origins[i];
              // A reaction was applied when it was made (its outcome was the answer).
              if (origin === Origin.SERVER) continue;
              const update = updates[i]!;
              const conn = origin as Connection;
              conn.pending--;
              room.pendingBytes -= update.byteLength;
              room.accepted.delete(update);
              failed = conn;
              Y.applyUpdate(room.doc, update, Origin.COMMITTED);
              failed = null;
              room.size += update.byteLength;
            }
          },
          Origin.COMMITTED,
        ),
      );
    } catch (err) {
      // Checked before it was queued, so this is a Yjs-level surprise: reload what is stored.
      this.opts.logger.warn({ boardId: room.boardId, err: (err as Error).message }, 'update failed to apply; reloading board');
      (failed as Connection | null)?.close(CloseCode.MALFORMED_MESSAGE);
      void this.resetRoom(room.boardId, { persist: false });
      return;
    }
    this.onDocUpdate(room, merged, Origin.COMMITTED);
  }

  private onPressure(paused: boolean): void {
    if (paused) {
      // The sockets that filled the queue stop being read; TCP pushes back on their clients.
      for (const c of this.connections) if (c.pending > 0) c.pause();
    } else {
      for (const c of this.connections) c.resume();
    }
  }

  private scheduleFlush(room: Room): void {
    this.toFlush.add(room);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const rooms = [...this.toFlush];
      this.toFlush.clear();
      for (const r of rooms) {
        this.flushOutgoing(r);
        this.flushAwareness(r);
      }
    });
  }

  /**
   * Sends what the room produced as ONE merged update, framed once, to every connection. A
   * connection that produced all of it gets nothing; one that produced part of it gets the whole
   * (its own part applies as a no-op), as Hocuspocus and y-websocket send everything to everyone.
   * Merging a copy without each sender's own part cost one mergeUpdates per sender per batch,
   * most of the fan-out's CPU when every client of a board types.
   */
  private flushOutgoing(room: Room, merged: Uint8Array | null = null): void {
    const out = room.outgoing;
    if (out.length === 0) return;
    room.outgoing = [];
    const own = new Map<unknown, number>();
    for (const o of out) own.set(o.origin, (own.get(o.origin) ?? 0) + 1);
    let message: Uint8Array | null = null;
    let frame: Buffer | null = null;
    let all: Uint8Array | null = merged;
    let sent = 0;
    let bytes = 0;
    for (const c of room.connections) {
      if (own.get(c) === out.length) continue;
      all ??= out.length === 1 ? out[0]!.update : Y.mergeUpdates(out.map((o) => o.update));
      message ??= encodeUpdate(all);
      frame ??= binaryFrame(message);
      bytes += c.sendUpdate(all, message, frame);
      sent++;
    }
    this.stats.updatesOut(sent);
    this.stats.bytesOut(bytes);
  }

  private flushAwareness(room: Room): void {
    if (room.awarenessChanged.size === 0 || room.doc.isDestroyed) return;
    const ids = [...room.awarenessChanged];
    const origins = room.awarenessOrigins;
    room.awarenessChanged = new Set();
    room.awarenessOrigins = new Set();
    const update = encodeAwarenessUpdate(room.awareness, ids);
    const msg = encodeAwareness(update);
    // A single sender does not get its own state back; with several, everyone gets everything. Alone
    // on the board it does: the client's renewal every 15 s is then the only thing the server sends
    // it, and y-websocket drops a socket that heard nothing for 30 s (a lone user reconnected every
    // 30 s, and what it sent meanwhile came back as one sync message, refused past MAX_MESSAGE_BYTES).
    const only = origins.size === 1 && room.connections.size > 1 ? [...origins][0] : undefined;
    let bytes = 0;
    for (const c of room.connections) if (c !== only) bytes += c.send(msg);
    this.stats.bytesOut(bytes);
    const origin = origins.size === 1 ? only : origins.has(Origin.RELAY) && origins.size === 1 ? Origin.RELAY : null;
    for (const ext of this.extensions) ext.onAwarenessUpdate?.(room, update, origin);
  }

  // ---- messages ----

  /** @internal called by the shared socket listeners below */
  onClosed(conn: Connection): void {
    conn.closed = true;
    this.connections.delete(conn);
    if (conn.room) this.leave(conn.room, conn);
  }

  /** @internal called by the shared socket listeners below */
  onRaw(conn: Connection, raw: RawData): void {
    if (conn.closed) return;
    const data = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
    if (!conn.room) {
      // The provider sends sync step 1 and its awareness right after opening, before admission ends.
      // A slow admission (busy boards service, a large board loading) stops reading the socket
      // rather than buffering without bound or refusing a client that merely kept typing.
      const early = (conn.early ??= []);
      early.push(data);
      if (early.length >= MAX_EARLY_MESSAGES) conn.ws.pause();
      return;
    }
    if (!take(conn, this.messageRate, performance.now())) {
      this.stats.rejected(String(CloseCode.RATE_LIMITED));
      conn.close(CloseCode.RATE_LIMITED);
      return;
    }
    this.stats.bytesIn(data.byteLength);
    try {
      this.handle(conn, conn.room, conn.identity!, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    } catch (err) {
      if (err instanceof CloseError) {
        this.stats.rejected(String(err.code));
        conn.close(err.code, err.message);
      } else if (err instanceof MalformedMessage) {
        this.stats.rejected(String(CloseCode.MALFORMED_MESSAGE));
        this.opts.logger.warn({ boardId: conn.boardId, conn: conn.id, reason: err.message }, 'malformed message');
        conn.close(CloseCode.MALFORMED_MESSAGE);
      } else {
        this.opts.logger.error({ err, boardId: conn.boardId }, 'message handling failed');
        conn.close(CloseCode.INTERNAL_ERROR);
      }
    }
  }

  private handle(conn: Connection, room: Room, who: Identity, data: Uint8Array): void {
    const msg = decodeClientMessage(data);
    switch (msg.type) {
      case 'sync-step1': {
        let sv: Uint8Array;
        try {
          Y.decodeStateVector(msg.stateVector);
          sv = msg.stateVector;
        } catch (err) {
          throw new MalformedMessage(`bad state vector: ${(err as Error).message}`);
        }
        conn.send(encodeSyncStep2(Y.encodeStateAsUpdate(room.doc, sv)));
        return;
      }
      case 'sync-update':
        this.stats.updateIn();
        if (!canEdit(who.role)) {
          // Read-only clients still answer sync step 1 with their local state; it is dropped here.
          this.stats.rejected('read-only');
          return;
        }
        this.acceptClientUpdate(room, conn, msg.update);
        return;
      case 'awareness':
        this.applyClientAwareness(room, conn, msg.update);
        return;
      case 'query-awareness':
        conn.send(encodeAwareness(encodeAwarenessUpdate(room.awareness, [...room.awareness.getStates().keys()])));
        return;
      case 'auth':
        return;
      case 'custom': {
        let json: unknown;
        try {
          json = JSON.parse(msg.json);
        } catch {
          throw new MalformedMessage('custom message is not JSON');
        }
        const parsed = CustomRequest.safeParse(json);
        if (!parsed.success) {
          conn.send(encodeCustom({ type: 'reaction-result', ok: false, code: 'VALIDATION_ERROR', error: ERRORS.VALIDATION_ERROR.message }));
          return;
        }
        const outcome = this.react(room, who, parsed.data);
        const result: ReactionResult = { type: 'reaction-result', requestId: parsed.data.requestId, ...outcomeToResult(outcome) };
        // The answer follows the change itself, which waits for the store.
        this.commits.afterDurable(room, () => conn.send(encodeCustom(result)));
        return;
      }
    }
  }

  /** Applies a reaction on the user's behalf; shared by the socket message and POST /yjs/reactions. */
  react(room: Room, who: Identity, req: { objectId: string; emoji: string }): ReactionOutcome | { ok: false; code: 'RATE_LIMITED' } {
    for (const ext of this.extensions) {
      if (ext.allowReaction && !ext.allowReaction(who)) return { ok: false, code: 'RATE_LIMITED' };
    }
    return applyReaction(room.doc, who, req, Origin.SERVER);
  }

  private acceptClientUpdate(room: Room, conn: Connection, update: Uint8Array): void {
    if (room.size + room.pendingBytes + update.byteLength > this.opts.limits.maxDocBytes) throw new CloseError(CloseCode.DOCUMENT_TOO_LARGE);
    let fresh: Uint8Array;
    try {
      // Decodes every struct and the delete set without touching the document. An update the copy
      // holds nothing of (a live client's next edit) is taken as it is; otherwise only what the copy
      // lacks is kept (a reconnecting client resends everything it has). Diffing every update, to
      // find nothing to trim, cost about 4 % of the server's busy time at 1,000 clients.
      const meta = readUpdateMeta(update);
      const { from, empty } = meta;
      if (empty) return;
      // An image source other than the board's own store or a small data URL (a tracking pixel every
      // viewer's browser would fetch): refused like a viewer's write, dropped unseen.
      if (meta.values && !imageSourcesAllowed(meta, room.boardId, room.doc.store, room.accepted)) {
        this.stats.rejected('image-src');
        return;
      }
      fresh = room.holdsNoneOf(from) ? update : Y.diffUpdate(update, room.stateVectorOf(from.keys()));
    } catch (err) {
      throw new MalformedMessage(`invalid update: ${(err as Error).message}`);
    }
    if (isEmptyUpdate(fresh)) return;
    conn.pending++;
    room.pendingBytes += fresh.byteLength;
    room.accepted.add(fresh);
    this.commits.add(room, fresh, conn);
    if (this.commits.paused) conn.pause();
  }

  /**
   * A client's awareness, as the server will show it: only states of the clientIDs this connection
   * owns (first come; nobody may speak for another connection's participant: fake cursors, fake
   * departures), each with the identity fields set from the connection, never from the client.
   */
  private applyClientAwareness(room: Room, conn: Connection, update: Uint8Array): void {
    const entries = decodeAwarenessEntries(update);
    const owned = conn.awarenessIds;
    let claimed = owned?.size ?? 0;
    const kept: typeof entries = [];
    for (const e of entries) {
      if (!owned?.has(e.clientId)) {
        let foreign = false;
        for (const c of room.connections) if (c !== conn && c.awarenessIds?.has(e.clientId)) foreign = true;
        if (foreign || claimed >= MAX_AWARENESS_IDS_PER_CONNECTION) {
          this.stats.rejected('awareness-foreign');
          continue;
        }
        claimed++;
      }
      e.state = stampPresence(e.state, presenceOf(conn.identity!));
      kept.push(e);
    }
    if (kept.length > 0) applyAwarenessUpdate(room.awareness, encodeAwarenessEntries(kept), conn);
  }

  // ---- operations used by extensions and routes ----

  connectionsOf(boardId: string): Connection[] {
    return [...(this.rooms.get(boardId)?.connections ?? [])];
  }

  closeBoard(boardId: string, code: CloseCode, reason?: string): void {
    for (const c of this.connectionsOf(boardId)) c.close(code, reason);
  }

  /** Resolves once everything the board accepted so far is durable. */
  settled(room: Room): Promise<void> {
    return this.commits.settled(room);
  }

  /**
   * Share links died (rotated, disabled, sharing off): their sockets are closed and whatever they
   * sent that is not durable yet is dropped, before this returns. `tokens` null = every link.
   * Admissions running meanwhile see the new revision and ask again.
   */
  revokeLinks(boardId: string, tokens: ReadonlySet<string> | null): number {
    this.revisions.set(boardId, (this.revisions.get(boardId) ?? 0) + 1);
    let closed = 0;
    for (const c of this.connections) {
      const who = c.identity;
      if (c.boardId !== boardId || !who?.shareToken || who.role === 'owner') continue;
      if (tokens && !tokens.has(who.shareToken)) continue;
      this.dropAccepted(c);
      c.close(CloseCode.ACCESS_REVOKED);
      closed++;
    }
    return closed;
  }

  /**
   * Sessions ended in auth (logout, password change): their sockets close with 4401 at once, and
   * what they sent that is not durable yet is dropped, as for revoked links.
   */
  closeSessions(sessionIds: ReadonlySet<string>): number {
    let closed = 0;
    for (const c of this.connections) {
      const sid = c.identity?.sessionId;
      if (!sid || !sessionIds.has(sid)) continue;
      this.dropAccepted(c);
      c.close(CloseCode.UNAUTHORIZED);
      closed++;
    }
    return closed;
  }

  /** What the connection sent that is not durable yet is forgotten (its link or session died). */
  private dropAccepted(c: Connection): void {
    const dropped = this.commits.dropFrom(c);
    const room = c.room;
    if (room) {
      for (const u of dropped) {
        room.pendingBytes -= u.byteLength;
        room.accepted.delete(u);
      }
    }
    c.pending = 0;
  }

  /**
   * Drops the in-memory copy so the next user loads the persisted state, and tells connected
   * clients to reconnect (they resync on reconnect). `persist: false` skips compaction of a copy
   * that is suspected to be damaged; updates already accepted are still written.
   */
  async resetRoom(boardId: string, opts: { persist: boolean } = { persist: true }): Promise<void> {
    const room = this.rooms.get(boardId);
    if (!room) return;
    if (room.unloading) return room.unloading;
    this.closeBoard(boardId, CloseCode.RESYNC);
    room.unloading = this.unload(room, opts.persist ? 'compact' : 'flush');
    await room.unloading;
  }

  /** Board deleted: everyone leaves, nothing is persisted any more. */
  async dropRoom(boardId: string, code: CloseCode, reason?: string): Promise<void> {
    const room = this.rooms.get(boardId);
    this.closeBoard(boardId, code, reason);
    if (!room || room.unloading) return;
    room.unloading = this.unload(room, 'discard');
    await room.unloading;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const c of this.connections) c.close(CloseCode.SHUTTING_DOWN);
    await this.commits.drain();
    const pending: Promise<void>[] = [];
    for (const room of [...this.rooms.values()]) {
      pending.push(room.unloading ?? (room.unloading = this.unload(room)));
    }
    await Promise.allSettled(pending);
    for (const ext of this.extensions) await ext.onDestroy?.();
    this.wss.close();
    for (const c of this.connections) c.ws.terminate();
  }
}

// Socket listeners shared by every socket: no closures per connection.
function ignore(): void {}
function onWsMessage(this: WebSocket, data: RawData): void {
  const ws = this as RealtimeSocket;
  if (ws.conn && ws.server) ws.server.onRaw(ws.conn, data);
}
function onWsClose(this: WebSocket): void {
  const ws = this as RealtimeSocket;
  if (ws.conn && ws.server) ws.server.onClosed(ws.conn);
}

/** Presence identity of a connection: the user, or 'Гость' under its pseudonym for a link visitor. */
function presenceOf(who: Identity): PresenceIdentity {
  return who.userId === null ? { id: who.reactorId, name: ANONYMOUS_NAME } : { id: who.userId, name: who.userName };
}

function outcomeToResult(o: ReactionOutcome | { ok: false; code: 'RATE_LIMITED' }): Omit<ReactionResult, 'type' | 'requestId'> {
  if (o.ok) return { ok: true, added: o.added };
  return { ok: false, code: o.code, error: ERRORS[o.code].message };
}
