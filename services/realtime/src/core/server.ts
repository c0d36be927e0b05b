/**
 * The protocol core: accepts sockets, speaks y-websocket (sync, awareness, query-awareness) plus
 * the custom reaction message, keeps rooms in memory, and leaves everything else (auth, storage,
 * fan-out between replicas, metrics) to extensions called in order, as hocuspocus does.
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
import {
  CustomRequest,
  MalformedMessage,
  decodeAwarenessEntries,
  decodeClientMessage,
  encodeAwareness,
  encodeCustom,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  type ReactionResult,
} from '../domain/protocol.ts';
import { applyReaction, type ReactionOutcome } from '../domain/reactions.ts';
import type { RealtimeLimits } from '../config.ts';
import { Connection } from './connection.ts';
import { Room } from './room.ts';
import { Origin, type Extension, type Identity, type UnloadMode } from './types.ts';

const PATH = /^\/yjs\/([\w-]{1,64})\/?$/;
/** One client library instance has one awareness id; a few more allow several tabs sharing a socket. */
const MAX_AWARENESS_IDS_PER_CONNECTION = 8;
/** The provider sends two or three messages on open; more than this before admission is abuse. */
const MAX_EARLY_MESSAGES = 32;

export interface CoreStats {
  bytesIn(n: number): void;
  bytesOut(n: number): void;
  updateIn(): void;
  updatesOut(n: number): void;
  rejected(reason: string): void;
}

const noStats: CoreStats = { bytesIn() {}, bytesOut() {}, updateIn() {}, updatesOut() {}, rejected() {} };

export interface RealtimeServerOptions {
  limits: RealtimeLimits;
  logger: Logger;
  extensions: Extension[];
  stats?: CoreStats;
}

export class RealtimeServer {
  readonly rooms = new Map<string, Room>();
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  private stats: CoreStats;
  private stopping = false;
  readonly extensions: Extension[];

  constructor(private readonly opts: RealtimeServerOptions) {
    this.extensions = opts.extensions;
    this.stats = opts.stats ?? noStats;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.limits.maxMessageBytes, perMessageDeflate: false });
  }

  setStats(stats: CoreStats): void {
    this.stats = stats;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match || this.stopping) {
      socket.end(match ? 'HTTP/1.1 503 Service Unavailable\r\n\r\n' : 'HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    const boardId = match[1]!;
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.onSocket(ws, req, boardId, url.searchParams));
  }

  private async onSocket(ws: WebSocket, req: IncomingMessage, boardId: string, params: URLSearchParams): Promise<void> {
    const conn = new Connection(ws, boardId, (n) => this.stats.bytesOut(n));
    this.connections.add(conn);
    // ws answers an oversized frame by closing with 1009 itself; the limit has its own code here.
    const nativeClose = ws.close.bind(ws);
    ws.close = (code?: number, reason?: string | Buffer) =>
      code === 1009 ? nativeClose(CloseCode.MESSAGE_TOO_BIG, 'message too big') : nativeClose(code, reason);
    // The provider sends sync step 1 and its awareness right after opening, before auth finishes.
    const early: RawData[] = [];
    let ready = false;
    ws.on('message', (data) => {
      if (ready) return this.onMessage(conn, data);
      // A client that floods before it is even admitted is not a y-websocket client.
      if (early.length >= MAX_EARLY_MESSAGES) conn.close(CloseCode.MALFORMED_MESSAGE, 'too many messages before auth');
      else early.push(data);
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      conn.closed = true;
      this.connections.delete(conn);
      if (conn.room) this.leave(conn.room, conn);
    });

    let room: Room | undefined;
    try {
      const identity = await this.authenticate({ boardId, params, request: req });
      if (conn.closed) return;
      conn.identity = identity;
      room = await this.acquire(boardId);
      if (conn.closed) return;
      if (room.connections.size >= this.opts.limits.maxConnectionsPerBoard) throw new CloseError(CloseCode.TOO_MANY_CONNECTIONS);
      for (const ext of this.extensions) ext.onConnect?.({ room, connection: conn });
      room.connections.add(conn);
      conn.room = room;
    } catch (err) {
      if (room) this.release(room);
      room = undefined;
      this.refuse(conn, err);
      return;
    } finally {
      if (room) this.release(room);
    }

    if (canEdit(conn.identity.role)) conn.send(encodeSyncStep1(Y.encodeStateVector(room.doc)));
    if (room.awareness.getStates().size > 0) {
      conn.send(encodeAwareness(encodeAwarenessUpdate(room.awareness, [...room.awareness.getStates().keys()])));
    }
    ready = true;
    for (const data of early.splice(0)) this.onMessage(conn, data);
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
        throw err;
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
    if (conn.awarenessIds.size > 0) removeAwarenessStates(room.awareness, [...conn.awarenessIds], null);
    for (const ext of this.extensions) ext.onDisconnect?.({ room, connection: conn });
    this.maybeUnload(room);
  }

  private maybeUnload(room: Room): void {
    if (room.refs > 0 || room.unloading || this.stopping || this.rooms.get(room.boardId) !== room) return;
    room.unloading = this.unload(room);
  }

  private async unload(room: Room, mode: UnloadMode = 'compact'): Promise<void> {
    try {
      for (const ext of this.extensions) await ext.beforeUnloadDocument?.(room, mode);
    } catch (err) {
      this.opts.logger.error({ err, boardId: room.boardId }, 'persisting before unload failed');
    } finally {
      if (this.rooms.get(room.boardId) === room) this.rooms.delete(room.boardId);
      for (const ext of this.extensions) ext.afterUnloadDocument?.(room);
      room.destroy();
    }
  }

  private attach(room: Room): void {
    let deferred: Array<[Uint8Array, unknown]> | null = null;
    room.doc.on('update', (update: Uint8Array, origin: unknown) => {
      // While a client's update is being applied its effects are held back: if applying throws
      // halfway, nothing of it reaches other clients, the log or other replicas.
      if (deferred && origin === room.ext.get('core:applying')) deferred.push([update, origin]);
      else this.dispatchUpdate(room, update, origin);
    });
    room.ext.set('core:defer', {
      begin: () => (deferred = []),
      commit: () => {
        const list = deferred ?? [];
        deferred = null;
        for (const [u, o] of list) this.dispatchUpdate(room, u, o);
      },
      abort: () => (deferred = null),
    });
    room.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        if (origin instanceof Connection) {
          for (const id of [...added, ...updated]) origin.awarenessIds.add(id);
          for (const id of removed) origin.awarenessIds.delete(id);
        }
        const changed = [...added, ...updated, ...removed];
        const update = encodeAwarenessUpdate(room.awareness, changed);
        const msg = encodeAwareness(update);
        for (const c of room.connections) if (c !== origin) c.send(msg);
        for (const ext of this.extensions) ext.onAwarenessUpdate?.(room, update, origin);
      },
    );
  }

  private dispatchUpdate(room: Room, update: Uint8Array, origin: unknown): void {
    room.size += update.byteLength;
    if (origin !== Origin.LOAD) room.dirty = true;
    const msg = encodeUpdate(update);
    let sent = 0;
    for (const c of room.connections) {
      if (c === origin) continue;
      c.send(msg);
      sent++;
    }
    this.stats.updatesOut(sent);
    for (const ext of this.extensions) {
      try {
        ext.onChange?.(room, update, origin);
      } catch (err) {
        this.opts.logger.error({ err, ext: ext.name, boardId: room.boardId }, 'onChange failed');
      }
    }
  }

  // ---- messages ----

  private onMessage(conn: Connection, raw: RawData): void {
    if (conn.closed || !conn.room || !conn.identity) return;
    const data = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
    this.stats.bytesIn(data.byteLength);
    try {
      this.handle(conn, conn.room, conn.identity, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
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
        this.applyClientUpdate(room, conn, msg.update);
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
        conn.send(encodeCustom(result));
        return;
      }
    }
  }

  /** Applies a reaction on the user's behalf; shared by the socket message and POST /yjs/reactions. */
  react(room: Room, who: Identity, req: { objectId: string; emoji: string }): ReactionOutcome {
    return applyReaction(room.doc, who, req, Origin.SERVER);
  }

  private applyClientUpdate(room: Room, conn: Connection, update: Uint8Array): void {
    if (room.size + update.byteLength > this.opts.limits.maxDocBytes) throw new CloseError(CloseCode.DOCUMENT_TOO_LARGE);
    try {
      // Decodes every struct and the delete set without touching the document.
      Y.parseUpdateMeta(update);
    } catch (err) {
      throw new MalformedMessage(`invalid update: ${(err as Error).message}`);
    }
    const defer = room.ext.get('core:defer') as { begin(): void; commit(): void; abort(): void };
    room.ext.set('core:applying', conn);
    defer.begin();
    try {
      Y.applyUpdate(room.doc, update, conn);
    } catch (err) {
      defer.abort();
      room.ext.delete('core:applying');
      // The in-memory copy may hold half of the update: drop it and reload what was persisted.
      this.opts.logger.warn({ boardId: room.boardId, err: (err as Error).message }, 'update failed to apply; reloading board');
      conn.close(CloseCode.MALFORMED_MESSAGE);
      void this.resetRoom(room.boardId, { persist: false });
      return;
    }
    room.ext.delete('core:applying');
    defer.commit();
  }

  private applyClientAwareness(room: Room, conn: Connection, update: Uint8Array): void {
    const entries = decodeAwarenessEntries(update);
    for (const e of entries) {
      if (conn.awarenessIds.has(e.clientId)) continue;
      const owner = [...room.connections].find((c) => c !== conn && c.awarenessIds.has(e.clientId));
      // Nobody may speak for another connection's participant (fake cursors, fake departures).
      if (owner || conn.awarenessIds.size >= MAX_AWARENESS_IDS_PER_CONNECTION) {
        this.stats.rejected('awareness-foreign');
        return;
      }
    }
    applyAwarenessUpdate(room.awareness, update, conn);
  }

  // ---- operations used by extensions and routes ----

  connectionsOf(boardId: string): Connection[] {
    return [...(this.rooms.get(boardId)?.connections ?? [])];
  }

  closeBoard(boardId: string, code: CloseCode, reason?: string): void {
    for (const c of this.connectionsOf(boardId)) c.close(code, reason);
  }

  /**
   * Drops the in-memory copy so the next user loads the persisted state, and tells connected
   * clients to reconnect (they resync on reconnect). `persist: false` skips compaction of a copy
   * that is suspected to be damaged; updates already accepted are still flushed.
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

function outcomeToResult(o: ReactionOutcome): Omit<ReactionResult, 'type' | 'requestId'> {
  if (o.ok) return { ok: true, added: o.added };
  return { ok: false, code: o.code, error: ERRORS[o.code].message };
}
