/**
 * Persistence: loading a board (state + log) and compaction into a new state + snapshot
 * periodically, when the last user leaves, on force-save and on shutdown. Appending accepted
 * updates to the log is the core's group commit (core/group-commit.ts), which runs before
 * anything is shown to anyone.
 */
import * as Y from 'yjs';
import type { Logger } from 'pino';
import { countObjects } from '@wb/board-model';
import type { DocumentStore, StoredDocument } from '../store/types.ts';
import { snapshotStatus, stateHash } from '../domain/snapshots.ts';
import type { Room } from '../core/room.ts';
import { perRoom } from '../core/room-state.ts';
import { Origin, type Extension, type UnloadMode } from '../core/types.ts';

export interface CompactResult {
  duplicate: boolean;
  objectsCount: number;
  version: number;
}

export interface PersistenceOptions {
  store: DocumentStore;
  logger: Logger;
  compactIntervalMs: number;
  /** Called after a compaction wrote a new version (board.saved). */
  onSaved?(boardId: string, version: number, objectsCount: number): Promise<void>;
}

/** What persistence knows of one loaded board. */
interface BoardState {
  /** Stored version this copy is known to contain. */
  version: number;
  /** Changed since the last compaction. */
  dirty: boolean;
  /** When this dirty copy is due for compaction (spread over the interval, see compactDue). */
  compactAt: number | null;
  /** The stored version a periodic compaction last found written by another replica. */
  peerVersionSeen: number | null;
}

export class Persistence implements Extension {
  readonly name = 'persistence';
  private readonly board = perRoom<BoardState>(() => ({ version: 0, dirty: false, compactAt: null, peerVersionSeen: null }));
  /** One flush or compaction at a time per board, in order. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private compactTimer: NodeJS.Timeout | null = null;
  private ticking = false;
  private rooms: () => Iterable<Room> = () => [];

  constructor(private readonly opts: PersistenceOptions) {}

  start(rooms: () => Iterable<Room>): void {
    this.rooms = rooms;
    // Ticks often and compacts only the boards that are due (see compactDue). Every 3 s (a tenth of
    // the default interval), each tick compacted the ten-odd boards that fell due since the last one
    // back to back, and their synchronous parts (reading the log, encoding the state) held the
    // fan-out of everyone else for tens of ms every 3 s: at 1,000 clients that burst made the p99.
    const tickMs = Math.min(250, Math.max(100, this.opts.compactIntervalMs / 10));
    this.compactTimer = setInterval(() => {
      if (this.ticking) return; // the last tick's compactions are still on their way
      this.ticking = true;
      void this.compactDue().finally(() => (this.ticking = false));
    }, tickMs);
    this.compactTimer.unref();
  }

  async onLoadDocument(room: Room): Promise<void> {
    const stored = await this.opts.store.load(room.boardId);
    // Nobody is connected to a board while it loads (sockets join once it is ready and get it by
    // sync). With the update listener attached Yjs encoded the whole board once more, and the server
    // queued that to the sockets admitted right after: the first client received the board twice,
    // 18 MB decoded again seconds after opening a board of 50,000 objects.
    room.withoutUpdateListener(() => this.applyStored(room, stored, undefined));
    room.changed();
    const board = this.board(room);
    board.version = stored.version;
    room.measured(Y.encodeStateAsUpdate(room.doc).byteLength);
    // A leftover log (a crash before compaction) is folded into a state at the next chance.
    board.dirty = stored.log.length > 0;
  }

  onChange(room: Room, _update: Uint8Array, origin: unknown): void {
    if (origin !== Origin.LOAD) this.board(room).dirty = true;
  }

  /** Whether the copy holds changes not yet folded into a stored state. */
  isDirty(room: Room): boolean {
    return this.board(room).dirty;
  }

  /**
   * Reads the store again and applies what this copy lacks: everything any replica made durable
   * is in the stored state + log, so a replica that was cut off from the relay (NATS outage)
   * catches up from the store even when the replica that accepted those updates is gone. What is
   * new goes out to this replica's clients like any other change of the copy.
   */
  async catchUp(room: Room): Promise<void> {
    await this.serial(room.boardId, async () => {
      if (!room.loaded || room.unloading || room.doc.isDestroyed) return;
      const stored = await this.opts.store.load(room.boardId);
      if (room.doc.isDestroyed) return;
      const board = this.board(room);
      this.applyStored(room, stored, board.version);
      // The stored state was applied, so the next compaction compares against this version.
      if (stored.state) board.version = stored.version;
    });
  }

  /** catchUp for every loaded board; one board's failure does not stop the others. */
  async catchUpAll(): Promise<void> {
    for (const room of [...this.rooms()]) {
      await this.catchUp(room).catch((err) => this.opts.logger.warn({ err, boardId: room.boardId }, 'catching up from the store failed'));
    }
  }

  async beforeUnloadDocument(room: Room, mode: UnloadMode): Promise<void> {
    if (mode === 'compact' && this.board(room).dirty) await this.compact(room);
  }

  async onDestroy(): Promise<void> {
    if (this.compactTimer) clearInterval(this.compactTimer);
  }

  /**
   * The stored state and log applied to the copy in one LOAD transaction. `known` is the stored
   * version the copy already contains (its state is then skipped); undefined for an empty copy.
   */
  private applyStored(room: Room, stored: StoredDocument, known: number | undefined): void {
    Y.transact(
      room.doc,
      () => {
        if (stored.state && stored.version !== known) Y.applyUpdate(room.doc, stored.state, Origin.LOAD);
        for (const e of stored.log) applyLogged(room, e.update, this.opts.logger);
      },
      Origin.LOAD,
    );
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

  /**
   * A dirty board is compacted 0.5 to 1.5 intervals after it was first seen dirty, at a random point:
   * compacting every dirty board in one burst each interval stalled the event loop for all of them at
   * once (a p99 spike every 30 s), and replicas holding the same boards compacted them together.
   *
   * A periodic compaction also gives way to another replica that compacted the board since this one
   * last looked (the stored version moved and is not the one this copy holds): that state already
   * folds in the log this replica wrote until then, so with N replicas on a board the store gets
   * about one new state per interval instead of N, and each replica saves the apply-encode-hash
   * steps that block its event loop. If that replica stops compacting (it left, or crashed), the
   * version stays where it was seen and this one compacts at its next turn.
   */
  private async compactDue(): Promise<void> {
    const now = Date.now();
    for (const room of [...this.rooms()]) {
      const board = this.board(room);
      if (!board.dirty || !room.loaded || room.unloading) {
        board.compactAt = null;
        continue;
      }
      if (board.compactAt === null) {
        board.compactAt = now + this.opts.compactIntervalMs * (0.5 + Math.random());
        continue;
      }
      if (board.compactAt > now) continue;
      board.compactAt = null;
      await this.compactUnlessPeerDid(room).catch((err) => this.opts.logger.error({ err, boardId: room.boardId }, 'compaction failed'));
    }
  }

  /**
   * Folds the stored state, the log and this replica's copy into a new state. The log entries
   * read here are applied to the in-memory copy first, so the new state contains every entry it
   * deletes even when another replica wrote them and the relay missed them.
   */
  async compact(room: Room): Promise<CompactResult> {
    return (await this.fold(room, false))!;
  }

  /** compact(), or null when another replica compacted the board since this one last looked. */
  compactUnlessPeerDid(room: Room): Promise<CompactResult | null> {
    return this.fold(room, true);
  }

  private fold(room: Room, yieldToPeers: boolean): Promise<CompactResult | null> {
    return this.serial(room.boardId, async () => {
      const board = this.board(room);
      if (yieldToPeers) {
        // The version alone: reading the state and the log only to give way was most of what it saved.
        const version = await this.opts.store.storedVersion(room.boardId);
        if (version !== board.version && version !== board.peerVersionSeen) {
          board.peerVersionSeen = version;
          return null; // still dirty: due again within the next interval
        }
      }
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.opts.store.load(room.boardId);
        this.applyStored(room, stored, board.version);
        board.dirty = false;
        const state = Y.encodeStateAsUpdate(room.doc);
        const hash = stateHash(state);
        const objectsCount = countObjects(room.doc);
        room.measured(state.byteLength);
        if (hash === stored.hash) {
          await this.opts.store.deleteLog(room.boardId, stored.log.map((e) => e.id));
          board.version = stored.version;
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
        if (version === null) {
          // Another replica compacted meanwhile. A periodic turn leaves the board to it (its state
          // holds the log it read; what came after stays in the log, and this copy stays dirty).
          if (!yieldToPeers) continue; // read again
          board.dirty = true;
          return null;
        }
        board.version = version;
        await this.opts.onSaved?.(room.boardId, version, objectsCount).catch((err) =>
          this.opts.logger.warn({ err, boardId: room.boardId }, 'publishing board.saved failed'),
        );
        return { duplicate: false, objectsCount, version };
      }
      board.dirty = true;
      throw new Error(`compaction of ${room.boardId} lost the race 5 times`);
    });
  }
}

/**
 * A log entry passed the checks before it was written; should Yjs still refuse one, the rest of
 * the board must load rather than the whole board becoming unreadable.
 */
function applyLogged(room: Room, update: Uint8Array, logger: Logger): void {
  try {
    Y.applyUpdate(room.doc, update, Origin.LOAD);
  } catch (err) {
    logger.error({ err, boardId: room.boardId }, 'a logged update failed to apply; skipped');
  }
}
