import { WebSocket } from 'ws';
import { CloseCode, CloseReason } from '../domain/close-codes.ts';
import type { Identity } from './types.ts';
import type { Room } from './room.ts';

/** A slow reader holding this much unsent data is cut off instead of growing the heap. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

let nextId = 1;

export class Connection {
  /** Marks this object as a transaction origin (see isLocalChange). */
  readonly isConnection = true;
  readonly id = nextId++;
  identity: Identity | null = null;
  room: Room | null = null;
  /** Awareness client ids this connection introduced; removed when it drops. */
  readonly awarenessIds = new Set<number>();
  closed = false;

  constructor(
    readonly ws: WebSocket,
    readonly boardId: string,
    private readonly onSent: (bytes: number) => void,
  ) {}

  send(data: Uint8Array): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(CloseCode.INTERNAL_ERROR, 'too slow to keep up');
      return;
    }
    this.ws.send(data, { binary: true });
    this.onSent(data.byteLength);
  }

  close(code: CloseCode, reason: string = CloseReason[code]): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.ws.close(code, reason.slice(0, 120));
    } catch {
      this.ws.terminate();
    }
    // A peer that never answers the close handshake must not hold the socket forever.
    setTimeout(() => this.ws.terminate(), 5_000).unref();
  }
}
