import * as Y from 'yjs';
import { WebSocket, type RawData } from 'ws';
import { CloseCode, CloseReason } from '../domain/close-codes.ts';
import { encodeUpdate } from '../domain/protocol.ts';
import type { Identity } from './types.ts';
import type { Room } from './room.ts';
import { onceDrained, writeFrameDirect } from './internals.ts';

/** Above this much unsent data a reader counts as slow: updates wait and go out merged. */
const SLOW_BYTES = 512 * 1024;
/** A reader this far behind (socket buffer or merged backlog) is cut off and resyncs on reconnect. */
export const MAX_LAG_BYTES = 8 * 1024 * 1024;

let nextId = 1;
const SEND_BINARY = { binary: true } as const;

/**
 * ws's socket with the one field the core needs: its connection. The close override lives on
 * the prototype (not a closure per socket) and gives the size limit its own code, because ws
 * answers an oversized frame with 1009 itself.
 */
export class RealtimeSocket extends WebSocket {
  conn: Connection | null = null;
  server: { onRaw(conn: Connection, data: RawData): void; onClosed(conn: Connection): void } | null = null;

  override close(code?: number, reason?: string | Buffer): void {
    if (code === 1009) super.close(CloseCode.MESSAGE_TOO_BIG, CloseReason[CloseCode.MESSAGE_TOO_BIG]);
    else super.close(code, reason);
  }
}

/**
 * One client socket. Idle connections are the common case, so everything beyond the socket and
 * the identity is created only when first needed (awareness ids, early messages, backlog).
 */
export class Connection {
  /** Marks this object as a transaction origin (see isLocalChange). */
  readonly isConnection = true;
  readonly id = nextId++;
  identity: Identity | null = null;
  room: Room | null = null;
  /** Awareness client ids this connection introduced; removed when it drops. */
  awarenessIds: Set<number> | null = null;
  /** Messages that arrived before admission finished (the provider talks first). */
  early: Buffer[] | null = null;
  /** Updates held back while the socket is slow, sent as one merged update when it drains. */
  private backlog: Uint8Array[] | null = null;
  private backlogBytes = 0;
  /** Updates accepted from this socket and not yet durable. */
  pending = 0;
  paused = false;
  closed = false;
  /** Message rate bucket (domain/rate-limit.ts), kept inline: two numbers, no object per socket. */
  tokens = Number.POSITIVE_INFINITY;
  at = 0;

  constructor(
    readonly ws: RealtimeSocket,
    readonly boardId: string,
  ) {}

  /** Returns the bytes handed to the socket (0 when nothing was sent). */
  send(data: Uint8Array): number {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return 0;
    if (this.ws.bufferedAmount > MAX_LAG_BYTES) {
      this.close(CloseCode.TOO_SLOW);
      return 0;
    }
    this.ws.send(data, SEND_BINARY);
    return data.byteLength;
  }

  /**
   * A document update: straight out when the reader keeps up; otherwise merged with whatever
   * else is waiting, so a slow reader costs one catch-up message instead of a growing queue.
   */
  sendUpdate(update: Uint8Array, message: Uint8Array | null = null, frame: Buffer | null = null): number {
    if (this.closed) return 0;
    if (this.backlog === null && this.ws.bufferedAmount <= SLOW_BYTES) {
      // Well under the lag limit: no second check. `message` is the update already encoded and
      // `frame` the same as a WebSocket frame, shared by every connection that gets this update.
      if (this.ws.readyState !== WebSocket.OPEN) return 0;
      const data = message ?? encodeUpdate(update);
      if (!frame || !writeFrameDirect(this.ws, frame)) this.ws.send(data, SEND_BINARY);
      return data.byteLength;
    }
    if (this.backlog === null) {
      this.backlog = [];
      this.backlogBytes = 0;
      onceDrained(this.ws, () => this.drainBacklog());
    }
    this.backlog.push(update);
    this.backlogBytes += update.byteLength;
    if (this.backlog.length > 16) {
      const merged = Y.mergeUpdates(this.backlog);
      this.backlog = [merged];
      this.backlogBytes = merged.byteLength;
    }
    if (this.backlogBytes > MAX_LAG_BYTES) this.close(CloseCode.TOO_SLOW);
    return 0;
  }

  private drainBacklog(): void {
    const list = this.backlog;
    this.backlog = null;
    if (!list || list.length === 0 || this.closed) return;
    this.send(encodeUpdate(list.length === 1 ? list[0]! : Y.mergeUpdates(list)));
  }

  pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    this.ws.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (!this.closed) this.ws.resume();
  }

  close(code: CloseCode, reason: string = CloseReason[code]): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = null;
    try {
      this.ws.close(code, reason.slice(0, 120));
    } catch {
      this.ws.terminate();
    }
    // A peer that never answers the close handshake must not hold the socket forever.
    setTimeout(terminate, 5_000, this.ws).unref();
  }
}

function terminate(ws: WebSocket): void {
  ws.terminate();
}
