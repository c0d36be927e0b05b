/**
 * Persistence: every update this replica accepts is queued and appended to the log within
 * FLUSH_INTERVAL_MS (one merged entry per board per flush); documents are compacted into a new
 * state + snapshot periodically, when the last user leaves, on force-save and on shutdown.
 */
import * as Y from 'yjs';
import type { Logger } from 'pino';
import { countObjects } from '@wb/board-model';
import type { DocumentStore } from '../store/types.ts';
import { snapshotStatus, stateHash } from '../domain/snapshots.ts';
import type { Room } from '../core/room.ts';
import { Origin, isLocalChange, type Extension, type UnloadMode } from '../core/types.ts';

/** A batch above this is split: a single log entry must stay well below the 16 MiB BSON limit. */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

export interface CompactResult {
  duplicate: boolean;
  objectsCount: number;
  version: number;
}

interface Pending {
  updates: Uint8Array[];
  bytes: number;
  oldest: number;
}

export interface PersistenceOptions {
  store: DocumentStore;
  logger: Logger;
  flushIntervalMs: number;
  compactIntervalMs: number;
  /** Called after a compaction wrote a new version (board.saved). */
  onSaved?(boardId: string, version: number, objectsCount: number): Promise<void>;
}

export class Persistence implements Extension {
  readonly name = 'persistence';
  private readonly pending = new Map<string, Pending>();
  /** One flush or compaction at a time per board, in order. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private flushTimer: NodeJS.Timeout | null = null;
  private compactTimer: NodeJS.Timeout | null = null;
  private rooms: () => Iterable<Room> = () => [];

  constructor(private readonly opts: PersistenceOptions) {}

  start(rooms: () => Iterable<Room>): void {
    this.rooms = rooms;
    this.flushTimer = setInterval(() => void this.flushAll(), this.opts.flushIntervalMs);
    this.compactTimer = setInterval(() => void this.compactDirty(), this.opts.compactIntervalMs);
    this.flushTimer.unref();
    this.compactTimer.unref();
  }

  /** Age of the oldest accepted update not yet in the log, in ms (0 when all are flushed). */
  lagMs(): number {
    let oldest = Infinity;
    for (const p of this.pending.values()) oldest = Math.min(oldest, p.oldest);
    return oldest === Infinity ? 0 : Date.now() - oldest;
  }

  async onLoadDocument(room: Room): Promise<void> {
    const stored = await this.opts.store.load(room.boardId);
    Y.transact(
      room.doc,
      () => {
        if (stored.state) Y.applyUpdate(room.doc, stored.state, Origin.LOAD);
        for (const entry of stored.log) Y.applyUpdate(room.doc, entry.update, Origin.LOAD);
      },
      Origin.LOAD,
    );
    room.version = stored.version;
    room.size = Y.encodeStateAsUpdate(room.doc).byteLength;
    // A leftover log (a crash before compaction) is folded into a state at the next chance.
    room.dirty = stored.log.length > 0;
  }

  onChange(room: Room, update: Uint8Array, origin: unknown): void {
    if (!isLocalChange(origin)) return;
    let p = this.pending.get(room.boardId);
    if (!p) this.pending.set(room.boardId, (p = { updates: [], bytes: 0, oldest: Date.now() }));
    p.updates.push(update);
    p.bytes += update.byteLength;
  }

  async beforeUnloadDocument(room: Room, mode: UnloadMode): Promise<void> {
    if (mode === 'discard') {
      this.pending.delete(room.boardId);
      return;
    }
    await this.flush(room.boardId);
    if (mode === 'compact' && room.dirty) await this.compact(room);
  }

  async onDestroy(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.compactTimer) clearInterval(this.compactTimer);
    await this.flushAll();
  }

  private serial<T>(boardId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(boardId) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    this.chains.set(boardId, next);
    void next.finally(() => {
      if (this.chains.get(boardId) === next) this.chains.delete(boardId);
    }).catch(() => {});
    return next;
  }

  async flushAll(): Promise<void> {
    await Promise.allSettled([...this.pending.keys()].map((id) => this.flush(id)));
  }

  flush(boardId: string): Promise<void> {
    return this.serial(boardId, async () => {
      const p = this.pending.get(boardId);
      if (!p) return;
      this.pending.delete(boardId);
      try {
        let batch: Uint8Array[] = [];
        let bytes = 0;
        const write = async () => {
          if (batch.length === 0) return;
          await this.opts.store.append(boardId, batch.length === 1 ? batch[0]! : Y.mergeUpdates(batch));
          batch = [];
          bytes = 0;
        };
        for (const u of p.updates) {
          if (bytes + u.byteLength > MAX_ENTRY_BYTES) await write();
          batch.push(u);
          bytes += u.byteLength;
        }
        await write();
      } catch (err) {
        // The store is unreachable: keep the updates and retry next tick. Entries of this batch
        // that did get written are written again, which Yjs treats as a no-op on replay.
        const newer = this.pending.get(boardId);
        this.pending.set(boardId, {
          updates: [...p.updates, ...(newer?.updates ?? [])],
          bytes: p.bytes + (newer?.bytes ?? 0),
          oldest: p.oldest,
        });
        this.opts.logger.error({ err, boardId }, 'flushing updates failed; will retry');
        throw err;
      }
    });
  }

  private async compactDirty(): Promise<void> {
    for (const room of [...this.rooms()]) {
      if (!room.dirty || !room.loaded || room.unloading) continue;
      await this.compact(room).catch((err) => this.opts.logger.error({ err, boardId: room.boardId }, 'compaction failed'));
    }
  }

  /**
   * Folds the stored state, the log and this replica's copy into a new state. The log entries
   * read here are applied to the in-memory copy first, so the new state contains every entry it
   * deletes even when another replica wrote them and the relay missed them.
   */
  async compact(room: Room): Promise<CompactResult> {
    await this.flush(room.boardId).catch(() => {});
    return this.serial(room.boardId, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.opts.store.load(room.boardId);
        Y.transact(
          room.doc,
          () => {
            if (stored.state && stored.version !== room.version) Y.applyUpdate(room.doc, stored.state, Origin.LOAD);
            for (const e of stored.log) Y.applyUpdate(room.doc, e.update, Origin.LOAD);
          },
          Origin.LOAD,
        );
        room.dirty = false;
        const state = Y.encodeStateAsUpdate(room.doc);
        const hash = stateHash(state);
        const objectsCount = countObjects(room.doc);
        room.size = state.byteLength;
        if (hash === stored.hash) {
          await this.opts.store.deleteLog(room.boardId, stored.log.map((e) => e.id));
          room.version = stored.version;
          return { duplicate: true, objectsCount, version: stored.version };
        }
        const version = await this.opts.store.saveState(room.boardId, {
          expectedVersion: stored.version,
          state,
          hash,
          objectsCount,
          status: snapshotStatus(objectsCount, state.byteLength),
          logIds: stored.log.map((e) => e.id),
        });
        if (version === null) continue; // another replica compacted meanwhile: read again
        room.version = version;
        await this.opts.onSaved?.(room.boardId, version, objectsCount).catch((err) =>
          this.opts.logger.warn({ err, boardId: room.boardId }, 'publishing board.saved failed'),
        );
        return { duplicate: false, objectsCount, version };
      }
      room.dirty = true;
      throw new Error(`compaction of ${room.boardId} lost the race 5 times`);
    });
  }
}
