/**
 * Durable before visible: every update this replica accepts waits here until it is in the store,
 * and only then goes out to other clients and other replicas. Whatever arrived while the previous
 * write was in flight (or within `windowMs` of the first one) is written in ONE round trip, one
 * merged entry per board, so the store sees a few writes per second however many clients type.
 *
 * The queue is bounded: past `maxPendingBytes` the server is told to pause reading from the
 * sockets that fill it (backpressure), and resumes them once the store caught up.
 */
import * as Y from 'yjs';
import type { Logger } from 'pino';
import type { Room } from './room.ts';
import { perRoom } from './room-state.ts';

/** A single log entry must stay well below the 16 MiB BSON limit. */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;
const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 2_000;

export interface CommitWriter {
  (entries: Array<{ boardId: string; update: Uint8Array }>): Promise<void>;
}

export interface GroupCommitOptions {
  write: CommitWriter;
  /** How long the first update of a batch waits for company when a write could start. */
  windowMs: number;
  /**
   * Writes on their way at once (default 1). With 2, what arrives during a write starts its own
   * instead of waiting for the one in flight; batches are still shown strictly in acceptance order.
   */
  maxInFlight?: number;
  /** Queued bytes (waiting + in flight) above which the sources are paused. */
  maxPendingBytes: number;
  logger: Logger;
  /** The batch of one board is durable: fan it out. `updates` are in arrival order. */
  onDurable(room: Room, updates: Uint8Array[], origins: unknown[], merged: Uint8Array): void;
  /**
   * Called for each board of the batch once every board of it was fanned out (onDurable): bring
   * the in-memory copy up to date. Waiters on the board (afterDurable) run after this.
   */
  afterFanOut?(room: Room, updates: Uint8Array[], origins: unknown[], merged: Uint8Array): void;
  onPressure(paused: boolean): void;
  observe?: { durableMs(ms: number): void; batch(entries: number, updates: number): void; failed(): void };
}

interface Entry {
  room: Room;
  update: Uint8Array;
  origin: unknown;
  at: number;
}

export class GroupCommit {
  private queue: Entry[] = [];
  /** Writes on their way to the store, in the order their updates were accepted. */
  private flights: Flight[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private pressured = false;
  private readonly maxInFlight: number;
  private readonly waiters = new Map<Room, Array<() => void>>();
  private idleWaiters: Array<() => void> = [];
  /** Updates of each room queued or in flight (0: everything it accepted is durable). */
  private readonly counts = perRoom(() => ({ uncommitted: 0 }));

  constructor(private readonly opts: GroupCommitOptions) {
    this.maxInFlight = Math.max(1, opts.maxInFlight ?? 1);
  }

  add(room: Room, update: Uint8Array, origin: unknown): void {
    this.queue.push({ room, update, origin, at: performance.now() });
    this.pendingBytes += update.byteLength;
    // Counted in a per-room object made once: a map of rooms set and emptied at every commit
    // reallocated its table again and again, garbage that outlived the young generation with the map.
    this.counts(room).uncommitted++;
    if (!this.pressured && this.pendingBytes > this.opts.maxPendingBytes) {
      this.pressured = true;
      this.opts.onPressure(true);
    }
    if (!this.timer && this.flights.length < this.maxInFlight) {
      // 0: whatever arrives in this event-loop turn (setTimeout would round 0 up to 1 ms).
      this.timer = this.opts.windowMs > 0 ? setTimeout(this.kick, this.opts.windowMs) : setImmediate(this.kick);
    }
  }

  /** Bytes accepted and not yet durable. */
  get backlogBytes(): number {
    return this.pendingBytes;
  }

  get paused(): boolean {
    return this.pressured;
  }

  /** Age in ms of the oldest update not yet durable (0 when everything is). */
  lagMs(): number {
    const first = this.flights[0]?.batch[0] ?? this.queue[0];
    return first ? performance.now() - first.at : 0;
  }

  /** Runs `fn` once everything this room accepted so far is durable (at once if it already is). */
  afterDurable(room: Room, fn: () => void): void {
    if (this.counts(room).uncommitted === 0) return fn();
    const list = this.waiters.get(room);
    if (list) list.push(fn);
    else this.waiters.set(room, [fn]);
  }

  settled(room: Room): Promise<void> {
    return new Promise((resolve) => this.afterDurable(room, resolve));
  }

  /** The board was deleted: its queued updates are not written (nor anything sent). */
  discard(room: Room): void {
    let dropped = 0;
    this.queue = this.queue.filter((e) => {
      if (e.room !== room) return true;
      this.pendingBytes -= e.update.byteLength;
      dropped++;
      return false;
    });
    if (dropped === 0) return;
    this.settle(room, dropped);
  }

  /**
   * Forgets the queued (not yet written) updates that came from `origin`, e.g. a socket whose
   * link was just revoked, and returns them. Updates already in flight stay: they were accepted
   * before the revocation.
   */
  dropFrom(origin: unknown): Uint8Array[] {
    const dropped: Uint8Array[] = [];
    const rooms = new Map<Room, number>();
    this.queue = this.queue.filter((e) => {
      if (e.origin !== origin) return true;
      dropped.push(e.update);
      this.pendingBytes -= e.update.byteLength;
      rooms.set(e.room, (rooms.get(e.room) ?? 0) + 1);
      return false;
    });
    for (const [room, n] of rooms) this.settle(room, n);
    return dropped;
  }

  /** Writes whatever is queued now; resolves when nothing is queued or in flight. */
  async drain(): Promise<void> {
    this.cancelTimer();
    this.startWrites();
    if (this.flights.length === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private cancelTimer(): void {
    if (!this.timer) return;
    if (this.opts.windowMs > 0) clearTimeout(this.timer as NodeJS.Timeout);
    else clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = null;
  }

  private readonly kick = (): void => {
    this.timer = null;
    this.startWrites();
  };

  /** Takes the queue as one batch and starts writing it, while fewer than maxInFlight writes are out. */
  private startWrites(): void {
    if (this.queue.length === 0 || this.flights.length >= this.maxInFlight) return;
    const batch = this.queue;
    this.queue = [];
    const flight: Flight = { batch, groups: groupByRoom(batch), entries: 0, done: false, failures: 0 };
    this.flights.push(flight);
    this.attempt(flight);
  }

  /** One write of the flight, one merged entry per board; a failure tries the same flight again. */
  private attempt(flight: Flight): void {
    const entries: Array<{ boardId: string; update: Uint8Array }> = [];
    for (const [room, g] of flight.groups) {
      if (room.discarded) continue;
      g.merged ??= g.updates.length === 1 ? g.updates[0]! : Y.mergeUpdates(g.updates);
      if (g.merged.byteLength <= MAX_ENTRY_BYTES) entries.push({ boardId: room.boardId, update: g.merged });
      else for (const u of g.updates) entries.push({ boardId: room.boardId, update: u });
    }
    flight.entries = entries.length;
    let written: Promise<void>;
    try {
      written = this.opts.write(entries);
    } catch (err) {
      written = Promise.reject(err);
    }
    written.then(
      () => this.written(flight),
      (err: unknown) => {
        // Nothing of this batch was shown to anyone, nor anything accepted after it: it is tried
        // again where it stands. The store may hold part of it already; Yjs replays a repeated
        // entry as a no-op.
        this.opts.observe?.failed();
        this.opts.logger.error({ err, entries: flight.entries }, 'group commit failed; retrying');
        flight.failures++;
        const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** flight.failures);
        setTimeout(() => this.attempt(flight), delay);
      },
    );
  }

  private written(flight: Flight): void {
    flight.done = true;
    // What queued during this write starts on its way to the store before anything is fanned out:
    // the round trip and the fan-out's CPU overlap instead of adding up.
    const head = this.flights[0] === flight;
    if (head) this.flights.shift();
    this.startWrites();
    if (!head) return; // shown once every batch accepted before it is durable too
    this.durable(flight);
    while (this.flights[0]?.done) this.durable(this.flights.shift()!);
    if (this.flights.length === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** The batch is in the store: account for it and show it. */
  private durable({ batch, groups, entries }: Flight): void {
    const now = performance.now();
    this.opts.observe?.batch(entries, batch.length);
    for (const e of batch) {
      this.pendingBytes -= e.update.byteLength;
      this.opts.observe?.durableMs(now - e.at);
    }
    // Every board's fan-out first: a board late in a large batch no longer waits for the copies of
    // the boards before it to be updated (Yjs integrating each update), only for their sends.
    for (const [room, g] of groups) {
      if (room.discarded) continue;
      try {
        this.opts.onDurable(room, g.updates, g.origins, g.merged!);
      } catch (err) {
        this.opts.logger.error({ err, boardId: room.boardId }, 'fan-out after commit failed');
      }
    }
    for (const [room, g] of groups) {
      if (!room.discarded && this.opts.afterFanOut) {
        try {
          this.opts.afterFanOut(room, g.updates, g.origins, g.merged!);
        } catch (err) {
          this.opts.logger.error({ err, boardId: room.boardId }, 'applying a commit to the copy failed');
        }
      }
      this.settle(room, g.updates.length);
    }
    if (this.pressured && this.pendingBytes <= this.opts.maxPendingBytes / 2) {
      this.pressured = false;
      this.opts.onPressure(false);
    }
  }

  /** `n` of the room's updates are durable or dropped; its waiters run once none is left. */
  private settle(room: Room, n: number): void {
    const counts = this.counts(room);
    counts.uncommitted -= n;
    if (counts.uncommitted <= 0) this.close(room);
  }

  private close(room: Room): void {
    this.counts(room).uncommitted = 0;
    const list = this.waiters.get(room);
    if (!list) return;
    this.waiters.delete(room);
    for (const fn of list) fn();
  }
}

interface Flight {
  batch: Entry[];
  groups: Map<Room, Group>;
  entries: number;
  done: boolean;
  failures: number;
}

interface Group {
  updates: Uint8Array[];
  origins: unknown[];
  merged?: Uint8Array;
}

function groupByRoom(batch: Entry[]): Map<Room, Group> {
  const groups = new Map<Room, Group>();
  for (const e of batch) {
    let g = groups.get(e.room);
    if (!g) groups.set(e.room, (g = { updates: [], origins: [] }));
    g.updates.push(e.update);
    g.origins.push(e.origin);
  }
  return groups;
}
