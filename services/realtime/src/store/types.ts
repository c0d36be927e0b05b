/**
 * Where board documents live: an append-only log of accepted updates plus a compacted state with
 * a version, and the snapshot history. MongoDB in a cluster, Postgres in the embedded mode; both
 * pass the same contract tests (test/store-contract.test.ts).
 */
export type SnapshotStatus = 'empty' | 'small' | 'normal';

export interface LogEntry {
  id: string;
  update: Uint8Array;
}

export interface StoredDocument {
  /** Compacted state, null when the board was never compacted. */
  state: Uint8Array | null;
  version: number;
  /** sha256 of `state`, to tell whether a new compaction would change anything. */
  hash: string | null;
  /** Accepted updates appended since that state, oldest first. */
  log: LogEntry[];
}

export interface SnapshotRow {
  id: string;
  version: number;
  created_at: string;
  blob_size: number;
  status: SnapshotStatus;
}

export interface NewState {
  /** The version the writer read; the write fails when someone else compacted meanwhile. */
  expectedVersion: number;
  state: Uint8Array;
  hash: string;
  objectsCount: number;
  status: SnapshotStatus;
  /** Log entries the state contains; removed only after the state is safely written. */
  logIds: string[];
}

export interface DocumentStore {
  /** Creates tables or indexes; idempotent. */
  init(): Promise<void>;
  load(boardId: string): Promise<StoredDocument>;
  /** The stored state's version (0 when there is none), read without the state or the log. */
  storedVersion(boardId: string): Promise<number>;
  append(boardId: string, update: Uint8Array): Promise<void>;
  /**
   * Appends log entries of several boards in one round trip (the group commit): all or, after an
   * error, possibly some of them; a retry re-appends, which Yjs replays as a no-op.
   */
  appendMany(entries: ReadonlyArray<{ boardId: string; update: Uint8Array }>): Promise<void>;
  /**
   * Writes a new state (version + 1) and its snapshot row, then deletes the log entries it
   * contains. Returns the new version, or null when `expectedVersion` is stale.
   */
  saveState(boardId: string, s: NewState): Promise<number | null>;
  /** Deletes log entries already contained in the stored state. */
  deleteLog(boardId: string, ids: string[]): Promise<void>;
  listSnapshots(boardId: string): Promise<SnapshotRow[]>;
  deleteEmptySnapshots(boardId: string): Promise<number>;
  deleteBoard(boardId: string): Promise<void>;
  /** Event ids already handled by a consumer (idempotent consumers without a shared SQL pool). */
  isProcessed(consumer: string, eventId: string): Promise<boolean>;
  markProcessed(consumer: string, eventId: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** A journaled store (store/journal.ts): accepted bytes not yet shipped to the store behind it. */
  unshippedBytes?(): number;
}
