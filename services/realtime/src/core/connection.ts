import * as Y from 'yjs';
import { WebSocket, type RawData } from 'ws';
import { CloseCode, CloseReason } from '../domain/close-codes.ts';
import { encodeUpdate } from '../domain/protocol.ts';
import type { Identity } from './types.ts';
import type { Room } from './room.ts';

/** Above this much unsent data a reader counts as slow: updates wait and go out merged. */
const SLOW_BYTES = 512 * 1024;
/** A reader this far behind (socket buffer or merged backlog) is cut off and resyncs on reconnect. */
export const MAX_LAG_BYTES = 8 * 1024 * 1024;

let nextId = 1;
const SEND_BINARY = { binary: true } as const;
/** ws's Sender state when nothing is queued in it (no compression, no Blob being read). */
const SENDER_IDLE = 0;

/**
 * `message` as one unmasked, final, binary WebSocket frame (RFC 6455 §5.2): built once per fan-out
 * and written to every socket as a single buffer. ws would build a header per socket and hand the
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

/** The parts of ws's socket the pre-framed path reads; checked on every send. */
interface WsInternals {
  _socket?: { writable: boolean; write(data: Buffer): boolean };
  _sender?: { _state?: number };
}

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
      const internals = this.ws as unknown as WsInternals;
      // Straight to the TCP socket only while ws has nothing of its own queued, so frames stay in
      // order; anything else (or a ws without these fields) goes through ws.send.
      if (frame && internals._sender?._state === SENDER_IDLE && internals._socket?.writable) internals._socket.write(frame);
      else this.ws.send(data, SEND_BINARY);
      return data.byteLength;
    }
    if (this.backlog === null) {
      this.backlog = [];
      this.backlogBytes = 0;
      const socket = (this.ws as unknown as { _socket?: NodeJS.EventEmitter })._socket;
      if (socket) socket.once('drain', () => this.drainBacklog());
      else setImmediate(() => this.drainBacklog());
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
