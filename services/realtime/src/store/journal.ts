/**
 * The update log's local journal (UPDATE_LOG_JOURNAL_DIR): the group commit's appends go to an
 * append-only file on this machine's disk, and from there to the document store in the background,
 * a few times a second, one row per board.
 *
 * Why: an append to the store is a round trip to another process. On the embedded mode's machine
 * that process shares the cores with this one, and each commit wakes it (measured at 1,000
 * clients: about a quarter of the server's busy time, and most of the fan-out tail beyond
 * y-websocket's; services/realtime/README.md). A write(2) into the page cache survives any crash
 * of this process, as an append committed with synchronous_commit = off does (which a crash of
 * PostgreSQL itself can still lose), and costs a few microseconds with nobody to wake.
 *
 * What it promises: an update is in the journal (or the store) before anyone sees it; whatever the
 * journal holds reaches the store, at the latest when the service starts again on the same
 * directory (replay, before anything is served). A board is read from the store only after its
 * journaled updates were shipped there, so loading, compaction and catch-up see everything.
 * Shipping that falls behind (a store outage) holds the group commit back past `maxUnshippedBytes`,
 * which pauses the busiest sockets as a slow store does.
 *
 * The journal belongs to one process: a second live process on the same directory is refused. It
 * assumes the directory outlives the process (the embedded mode's data directory; a cluster
 * replica would need a persistent volume of its own, so the cluster leaves it off).
 *
 * File format: segments `seg-<n>.log` of records [u32 body length][u32 crc32 of body][body], body =
 * [u8 kind][u8 board id length][board id][update]; kind 1 = update, 2 = board deleted. A record cut
 * short by a machine crash fails its length or checksum check and ends the replay of its segment.
 */
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from 'pino';
import { mergeOrNull } from '../domain/merge.ts';
import type { DocumentStore } from './types.ts';

const KIND_UPDATE = 1;
const KIND_DELETED = 2;
const HEADER = 8;
/** Shipped per board as one row when their merge stays below this (a store row limit is 16 MiB). */
const MAX_MERGED_BYTES = 1024 * 1024;
/** Entries per round trip when replaying a journal left by a crash. */
const REPLAY_CHUNK = 500;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2_000;
/** Failed shipments a reader of the store waits through before it fails (about 1.5 s of backoff). */
const SHIP_TRIES = 4;
/** Boards with nothing unshipped are forgotten in bulk once this many are known. */
const PRUNE_AT = 4096;

export interface JournalOptions {
  dir: string;
  store: DocumentStore;
  logger: Logger;
  /** How often journaled updates are shipped to the store. */
  shipIntervalMs?: number;
  /** Journaled, not yet shipped bytes above which appends wait (backpressure). */
  maxUnshippedBytes?: number;
  /** fdatasync after each append (UPDATE_LOG_FSYNC): survives a machine crash too. */
  fsync?: boolean;
}

interface Journaled {
  boardId: string;
  update: Uint8Array;
  /** Position in this process's journal (1, 2, …). */
  seq?: number;
}

export class JournalInUse extends Error {}

const segmentName = (n: number) => `seg-${String(n).padStart(12, '0')}.log`;
const SEGMENT = /^seg-(\d{12})\.log$/;

/** Encodes one record (header + body). */
export function encodeRecord(kind: number, boardId: string, update?: Uint8Array): Buffer {
  return encodeRecords([{ kind, boardId, update }]);
}

/** Encodes records one after another into one buffer: one allocation per group commit instead of two per record and a concatenation. */
export function encodeRecords(records: ReadonlyArray<{ kind: number; boardId: string; update?: Uint8Array | undefined }>): Buffer {
  const idLengths = new Array<number>(records.length);
  let total = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const idLength = Buffer.byteLength(r.boardId, 'utf8');
    if (idLength > 255) throw new Error('board id too long for the journal');
    idLengths[i] = idLength;
    total += HEADER + 2 + idLength + (r.update?.byteLength ?? 0);
  }
  const buf = Buffer.allocUnsafe(total);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const idLength = idLengths[i]!;
    const body = at + HEADER;
    const bodyLength = 2 + idLength + (r.update?.byteLength ?? 0);
    buf.writeUInt32LE(bodyLength, at);
    buf[body] = r.kind;
    buf[body + 1] = idLength;
    buf.write(r.boardId, body + 2, 'utf8');
    if (r.update) buf.set(r.update, body + 2 + idLength);
    buf.writeUInt32LE(crc32(buf.subarray(body, body + bodyLength)), at + 4);
    at = body + bodyLength;
  }
  return buf;
}

/** The records of one segment, up to the first one that is cut short or damaged. */
export function decodeSegment(data: Buffer): { records: Array<{ kind: number; boardId: string; update: Uint8Array }>; damagedAt: number | null } {
  const records: Array<{ kind: number; boardId: string; update: Uint8Array }> = [];
  let at = 0;
  while (at < data.byteLength) {
    if (data.byteLength - at < HEADER) return { records, damagedAt: at };
    const length = data.readUInt32LE(at);
    const end = at + HEADER + length;
    if (length < 2 || end > data.byteLength) return { records, damagedAt: at };
    const body = data.subarray(at + HEADER, end);
    if (crc32(body) !== data.readUInt32LE(at + 4)) return { records, damagedAt: at };
    const idLength = body[1]!;
    if (2 + idLength > body.byteLength) return { records, damagedAt: at };
    records.push({
      kind: body[0]!,
      boardId: body.subarray(2, 2 + idLength).toString('utf8'),
      update: new Uint8Array(body.buffer, body.byteOffset + 2 + idLength, body.byteLength - 2 - idLength),
    });
    at = end;
  }
  return { records, damagedAt: null };
}

/**
 * `store` with its appends journaled locally first. init() takes the directory and replays what
 * a previous process left; close() ships everything and leaves an empty directory.
 */
export class JournaledStore implements DocumentStore {
  private readonly store: DocumentStore;
  private readonly dir: string;
  private readonly shipIntervalMs: number;
  private readonly maxUnshippedBytes: number;
  private fd: number | null = null;
  private segment = 0;
  private segmentBytes = 0;
  /** Segment files this process wrote and has not removed yet, oldest first. */
  private segments: number[] = [];
  /** Journaled, waiting for the next shipment, in journal order. */
  private pending: Journaled[] = [];
  /**
   * Not yet in the store (pending + the shipment on its way), per board. A board that reaches 0
   * keeps its entry (pruned in bulk past PRUNE_AT): deleted and set again at every shipment, the
   * map's table was reallocated over and over, garbage that outlived the young generation.
   */
  private readonly unshippedOf = new Map<string, number>();
  private unshippedTotal = 0;
  /** The last entry journaled, and the last one up to which everything is in the store. */
  private seq = 0;
  private shippedSeq = 0;
  private shipping: Promise<void> | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly deleted = new Set<string>();
  private spaceWaiters: Array<() => void> = [];
  private opened = false;
  private closed = false;

  constructor(private readonly opts: JournalOptions) {
    this.store = opts.store;
    this.dir = path.resolve(opts.dir);
    this.shipIntervalMs = opts.shipIntervalMs ?? 50;
    this.maxUnshippedBytes = opts.maxUnshippedBytes ?? 16 * 1024 * 1024;
  }

  /** Journaled bytes not yet in the store (a metric). */
  unshippedBytes(): number {
    return this.unshippedTotal;
  }

  async init(): Promise<void> {
    await this.store.init();
    mkdirSync(this.dir, { recursive: true });
    this.takeOwnership();
    const segments = readdirSync(this.dir)
      .map((f) => SEGMENT.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    if (segments.length > 0) await this.replay(segments);
    this.segment = (segments.at(-1) ?? 0) + 1;
    this.openSegment();
    this.opened = true;
    this.timer = setInterval(() => this.shipSoon(), this.shipIntervalMs);
    this.timer.unref();
  }

  /**
   * A pid file (pid and, on Linux, the process's start time, so a dead owner's pid reused by another
   * program does not count): a live other process on this directory would ship and delete our segments.
   */
  private takeOwnership(): void {
    const owner = path.join(this.dir, 'owner.pid');
    if (existsSync(owner)) {
      const [pid, started] = readFileSync(owner, 'utf8').trim().split(' ').map(Number);
      if (pid !== undefined && Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid, started)) {
        throw new JournalInUse(`the update log journal ${this.dir} is in use by process ${pid}`);
      }
    }
    writeFileSync(owner, `${process.pid} ${startTime(process.pid) ?? ''}`.trim());
  }

  /** What a previous process journaled and did not ship: into the store before anything is served. */
  private async replay(segments: number[]): Promise<void> {
    const entries: Journaled[] = [];
    const deleted = new Set<string>();
    let damaged = 0;
    for (const n of segments) {
      const { records, damagedAt } = decodeSegment(readFileSync(path.join(this.dir, segmentName(n))));
      if (damagedAt !== null) damaged++;
      for (const r of records) {
        if (r.kind === KIND_DELETED) deleted.add(r.boardId);
        else if (r.kind === KIND_UPDATE) entries.push({ boardId: r.boardId, update: r.update });
      }
    }
    const live = entries.filter((e) => !deleted.has(e.boardId));
    for (let i = 0; i < live.length; i += REPLAY_CHUNK) await this.store.appendMany(live.slice(i, i + REPLAY_CHUNK));
    // Anything to replay means the previous process did not stop cleanly.
    const level = live.length > 0 || damaged > 0 ? 'warn' : 'info';
    this.opts.logger[level]({ segments: segments.length, updates: live.length, damagedSegments: damaged }, 'update log journal replayed into the store');
    for (const n of segments) removeFile(path.join(this.dir, segmentName(n)));
  }

  private openSegment(): void {
    this.fd = openSync(path.join(this.dir, segmentName(this.segment)), 'a');
    this.segments.push(this.segment);
    this.segmentBytes = 0;
  }

  async appendMany(entries: ReadonlyArray<{ boardId: string; update: Uint8Array }>): Promise<void> {
    if (entries.length === 0) return;
    if (!this.opened || this.closed) throw new Error('the update log journal is not open');
    // One write per group commit; an error (disk full) fails the commit, which retries.
    this.write(encodeRecords(entries.map((e) => ({ kind: KIND_UPDATE, boardId: e.boardId, update: e.update }))));
    for (const e of entries) {
      this.pending.push({ boardId: e.boardId, update: e.update, seq: ++this.seq });
      this.unshippedOf.set(e.boardId, (this.unshippedOf.get(e.boardId) ?? 0) + 1);
      this.unshippedTotal += e.update.byteLength;
    }
    if (this.unshippedTotal > this.maxUnshippedBytes) {
      // Durable already; shown once the store has caught up (the group commit queues meanwhile).
      this.shipSoon();
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
    }
  }

  /**
   * Synchronous: a copy into the page cache is shorter than a hop through libuv's thread pool. A
   * record written in part would end the replay of its segment there, so after an error the segment
   * is cut back to its last whole record (or, if that fails too, a fresh one is opened next time).
   */
  private write(buf: Buffer): void {
    if (this.fd === null) this.rotate();
    const fd = this.fd!;
    try {
      writeAll(fd, buf);
      if (this.opts.fsync) fdatasyncSync(fd);
    } catch (err) {
      try {
        ftruncateSync(fd, this.segmentBytes);
      } catch {
        this.closeSegment();
      }
      throw err;
    }
    this.segmentBytes += buf.byteLength;
  }

  async append(boardId: string, update: Uint8Array): Promise<void> {
    await this.appendMany([{ boardId, update }]);
  }

  private shipSoon(): void {
    if (this.shipping || this.pending.length === 0 || this.closed) return;
    void this.ship().catch(() => {});
  }

  /**
   * Sends everything journaled so far to the store in one round trip (one row per board where the
   * merge is small) and then deletes the segments that held only shipped records. One at a time;
   * a failure puts the batch back in front and waits before the next try.
   */
  private ship(): Promise<void> {
    if (this.shipping) return this.shipping;
    const run = async () => {
      // Records from here on go to a new segment; every segment before it is shipped with this batch.
      const upTo = this.segmentBytes > 0 || this.fd === null ? this.rotate() : this.segment;
      const batch = this.pending;
      this.pending = [];
      try {
        await this.store.appendMany(mergePerBoard(batch.filter((e) => !this.deleted.has(e.boardId))));
      } catch (err) {
        this.pending = batch.concat(this.pending);
        this.failures++;
        this.opts.logger.warn({ err, updates: batch.length, unshippedBytes: this.unshippedTotal }, 'shipping the update log journal to the store failed; retrying');
        await sleep(Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (this.failures - 1)));
        throw err;
      }
      this.failures = 0;
      this.shippedSeq = this.pending.length === 0 ? this.seq : Math.max(this.shippedSeq, batch.at(-1)?.seq ?? 0);
      for (const e of batch) {
        this.unshippedTotal -= e.update.byteLength;
        this.unshippedOf.set(e.boardId, Math.max(0, (this.unshippedOf.get(e.boardId) ?? 1) - 1));
      }
      if (this.unshippedOf.size > PRUNE_AT) for (const [b, n] of this.unshippedOf) if (n === 0) this.unshippedOf.delete(b);
      // Every record before `upTo` was in this batch (or in one that failed and came back into it).
      this.removeSegmentsBefore(upTo);
      if (this.unshippedTotal <= this.maxUnshippedBytes / 2) for (const w of this.spaceWaiters.splice(0)) w();
    };
    const p = run().finally(() => {
      this.shipping = null;
    });
    this.shipping = p;
    return p;
  }

  /** Closes the current segment and opens the next; returns the new segment's number. */
  private rotate(): number {
    this.closeSegment();
    this.segment++;
    this.openSegment();
    return this.segment;
  }

  private closeSegment(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch {
      // Nothing more can be written to it either way.
    }
  }

  private removeSegmentsBefore(n: number): void {
    while (this.segments.length > 0 && this.segments[0]! < n) removeFile(path.join(this.dir, segmentName(this.segments.shift()!)));
  }

  /**
   * Resolves once every update of `boardId` journaled so far is in the store. Waits for what was
   * journaled before the call only (at most the shipment on its way and one more), so a board that
   * keeps being edited does not keep its reader waiting.
   */
  private async shipped(boardId: string): Promise<void> {
    if (!this.unshippedOf.get(boardId)) return;
    const target = this.seq;
    // A few tries (each failed one waits its backoff, 0.1 s doubling): a store that has just come
    // back (a restarted database) must not fail the compaction at shutdown that covers what a crash of
    // the database itself lost.
    for (let failed = 0; this.shippedSeq < target && (this.shipping || this.pending.length > 0); ) {
      await this.ship().catch(() => {});
      if (this.failures > 0 && this.shippedSeq < target && ++failed >= SHIP_TRIES) {
        throw new Error('the store is not reachable; journaled updates wait');
      }
    }
  }

  async load(boardId: string) {
    await this.shipped(boardId);
    return this.store.load(boardId);
  }

  async deleteBoard(boardId: string): Promise<void> {
    this.deleted.add(boardId);
    try {
      // Without it a replay would bring back the board's updates that were journaled, not shipped.
      if (this.opened && !this.closed) this.write(encodeRecord(KIND_DELETED, boardId));
    } catch (err) {
      this.opts.logger.warn({ err, boardId }, 'journaling a board deletion failed');
    }
    this.pending = this.pending.filter((e) => {
      if (e.boardId !== boardId) return true;
      this.unshippedTotal -= e.update.byteLength;
      return false;
    });
    // Nobody waits for this board's rows any more; a shipment on its way accounts for its own.
    this.unshippedOf.delete(boardId);
    // That shipment may still add rows of this board: the deletion comes after it.
    await this.shipping?.catch(() => {});
    await this.store.deleteBoard(boardId);
  }

  saveState: DocumentStore['saveState'] = (boardId, s) => this.store.saveState(boardId, s);
  // Only saveState moves the version, straight through: the journaled appends do not touch it.
  storedVersion: DocumentStore['storedVersion'] = (boardId) => this.store.storedVersion(boardId);
  deleteLog: DocumentStore['deleteLog'] = (boardId, ids) => this.store.deleteLog(boardId, ids);
  listSnapshots: DocumentStore['listSnapshots'] = (boardId) => this.store.listSnapshots(boardId);
  deleteEmptySnapshots: DocumentStore['deleteEmptySnapshots'] = (boardId) => this.store.deleteEmptySnapshots(boardId);
  isProcessed: DocumentStore['isProcessed'] = (consumer, eventId) => this.store.isProcessed(consumer, eventId);
  markProcessed: DocumentStore['markProcessed'] = (consumer, eventId) => this.store.markProcessed(consumer, eventId);
  ping: DocumentStore['ping'] = () => this.store.ping();

  /**
   * Ships what is left (a few tries) and releases the directory. Whatever cannot be shipped stays
   * in the journal for the next start.
   */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (let attempt = 0; attempt < 5 && (this.pending.length > 0 || this.shipping); attempt++) {
      await this.ship().catch(() => {});
    }
    this.closed = true;
    for (const w of this.spaceWaiters.splice(0)) w();
    this.closeSegment();
    if (this.pending.length === 0 && this.unshippedTotal === 0) this.removeSegmentsBefore(Number.MAX_SAFE_INTEGER);
    else this.opts.logger.warn({ unshippedBytes: this.unshippedTotal }, 'journaled updates left for the next start');
    removeFile(path.join(this.dir, 'owner.pid'));
    await this.store.close();
  }
}

/** unlink(2) alone, a missing file being fine: rmSync({ force }) lstat()s first, and segments go 20 times a second. */
function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let at = 0;
  while (at < buf.byteLength) at += writeSync(fd, buf, at, buf.byteLength - at);
}

function isAlive(pid: number, started: number | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTime(pid);
  return started === undefined || Number.isNaN(started) || now === null || now === started;
}

/** Linux: when the process started, in clock ticks since boot (/proc/<pid>/stat, field 22). */
function startTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** One row per board (in first-seen order) where the merge stays small; otherwise each as it came. */
function mergePerBoard(batch: Journaled[]): Journaled[] {
  const byBoard = new Map<string, Uint8Array[]>();
  for (const e of batch) {
    const list = byBoard.get(e.boardId);
    if (list) list.push(e.update);
    else byBoard.set(e.boardId, [e.update]);
  }
  const out: Journaled[] = [];
  for (const [boardId, updates] of byBoard) {
    const merged = updates.reduce((n, u) => n + u.byteLength, 0) <= MAX_MERGED_BYTES ? mergeOrNull(updates) : null;
    if (merged) out.push({ boardId, update: merged });
    else for (const update of updates) out.push({ boardId, update });
  }
  return out;
}
