import { z } from 'zod';
import { env, serviceConfig } from '@wb/service-kit';

/** The options createRealtimeService takes; limitsFromConfig (below) maps the environment onto them. */
export interface RealtimeLimits {
  flushIntervalMs: number;
  compactIntervalMs: number;
  maxMessageBytes: number;
  maxDocBytes: number;
  maxConnectionsPerBoard: number;
  maxAnonymousPerBoard: number;
  ownerReserve: number;
  groupCommitMs: number;
  groupCommitFlights: number;
  maxPendingBytes: number;
  messagesPerSecond: number;
  messageBurst: number;
  /** How long an access answer serves further sockets (every known change of access forgets it). */
  admissionCacheMs: number;
}

/** The one place each default is written: the environment schema below takes its defaults from here. */
export const DEFAULT_LIMITS: RealtimeLimits = {
  flushIntervalMs: 100,
  compactIntervalMs: 30_000,
  maxMessageBytes: 1024 * 1024,
  maxDocBytes: 20 * 1024 * 1024,
  maxConnectionsPerBoard: 200,
  maxAnonymousPerBoard: 150,
  ownerReserve: 20,
  groupCommitMs: 0,
  groupCommitFlights: 2,
  maxPendingBytes: 8 * 1024 * 1024,
  messagesPerSecond: 300,
  messageBurst: 600,
  admissionCacheMs: 10_000,
};

/**
 * The environment of the realtime service, parsed once at start. Without MONGO_URL documents live
 * in PostgreSQL (DATABASE_URL, the embedded mode); without NATS_URL it is a single replica with no
 * relay and in-process events.
 */
export const RealtimeConfigSchema = serviceConfig(3004, {
  MONGO_URL: env.optionalString(),
  MONGO_DB: z.string().min(1).default('whiteboard_realtime'),
  BOARDS_INTERNAL_URL: env.url(),
  AUTH_JWKS_URL: env.url(),
  FLUSH_INTERVAL_MS: env.int(DEFAULT_LIMITS.flushIntervalMs, { min: 1 }),
  COMPACT_INTERVAL_MS: env.int(DEFAULT_LIMITS.compactIntervalMs, { min: 1 }),
  MAX_MESSAGE_BYTES: env.int(DEFAULT_LIMITS.maxMessageBytes, { min: 1024 }),
  MAX_DOC_BYTES: env.int(DEFAULT_LIMITS.maxDocBytes, { min: 1024 }),
  MAX_CONNECTIONS_PER_BOARD: env.int(DEFAULT_LIMITS.maxConnectionsPerBoard, { min: 1 }),
  /** Anonymous link visitors' share of a board; the rest is kept for signed-in users. */
  MAX_ANONYMOUS_PER_BOARD: env.int(DEFAULT_LIMITS.maxAnonymousPerBoard, { min: 0 }),
  /** The owner's extra connections above a full board. */
  OWNER_RESERVE: env.int(DEFAULT_LIMITS.ownerReserve, { min: 1 }),
  /**
   * Group commit: how long the first update waits for others before the store round trip. 0 (the
   * same event-loop turn) measured best: batches form by themselves while a write is in flight, as
   * with PostgreSQL's own commit_delay = 0, and a wait only adds to every update's latency.
   */
  GROUP_COMMIT_MS: env.number(DEFAULT_LIMITS.groupCommitMs, { min: 0 }),
  /**
   * Group commits on their way to the store at once. 2: an update that arrives during a write starts
   * the next one instead of waiting for it (still shown only after everything accepted before it).
   */
  GROUP_COMMIT_FLIGHTS: env.int(DEFAULT_LIMITS.groupCommitFlights, { min: 1, max: 8 }),
  /**
   * Whether an update waits for the store's disk flush (PostgreSQL synchronous_commit, MongoDB
   * journal) before anyone sees it. Off: it waits for the store's commit, which survives any crash
   * of this service; a crash of the database server itself may lose its last ~0.2–0.6 s, which the
   * authors' providers send again on reconnect. Measured: fan-out p50 3.0 → 2.0 ms (docs/decisions.md).
   */
  UPDATE_LOG_FSYNC: env.bool(false),
  /**
   * A directory for the update log's local journal (store/journal.ts): the group commit appends
   * there, and the journal ships to the store in the background; replayed on the next start. Set
   * by the embedded mode (its data directory); unset, every commit is a round trip to the store.
   * One directory per process, on a disk that outlives it.
   */
  UPDATE_LOG_JOURNAL_DIR: z.string().min(1).optional(),
  /** Accepted, not yet durable bytes above which the busiest sockets stop being read. */
  MAX_PENDING_BYTES: env.int(DEFAULT_LIMITS.maxPendingBytes, { min: 1024 }),
  MESSAGES_PER_SECOND: env.int(DEFAULT_LIMITS.messagesPerSecond, { min: 1 }),
  MESSAGE_BURST: env.int(DEFAULT_LIMITS.messageBurst, { min: 1 }),
  /** Largest board image upload (src/images). */
  IMAGE_MAX_BYTES: env.int(10 * 1024 * 1024, { min: 1024 }),
  /**
   * The key of signed image URLs (domain/image-urls.ts), at least 32 characters. Unset: derived from
   * INTERNAL_TOKEN (shared by every replica; generated per start in the embedded mode).
   */
  IMAGE_URL_SECRET: z.string().min(32).optional(),
  REPLICA_ID: z.string().regex(/^[\w-]{1,64}$/).optional(),
});
export type RealtimeConfig = z.infer<typeof RealtimeConfigSchema>;

export function limitsFromConfig(e: RealtimeConfig): RealtimeLimits {
  return {
    flushIntervalMs: e.FLUSH_INTERVAL_MS,
    compactIntervalMs: e.COMPACT_INTERVAL_MS,
    maxMessageBytes: e.MAX_MESSAGE_BYTES,
    maxDocBytes: e.MAX_DOC_BYTES,
    maxConnectionsPerBoard: e.MAX_CONNECTIONS_PER_BOARD,
    maxAnonymousPerBoard: e.MAX_ANONYMOUS_PER_BOARD,
    ownerReserve: e.OWNER_RESERVE,
    groupCommitMs: e.GROUP_COMMIT_MS,
    groupCommitFlights: e.GROUP_COMMIT_FLIGHTS,
    maxPendingBytes: e.MAX_PENDING_BYTES,
    messagesPerSecond: e.MESSAGES_PER_SECOND,
    messageBurst: e.MESSAGE_BURST,
    admissionCacheMs: DEFAULT_LIMITS.admissionCacheMs,
  };
}
