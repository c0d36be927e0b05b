import { z } from 'zod';
import { env } from '@wb/service-kit';

const ms = (def: number) => z.coerce.number().int().min(1).default(def);
const bytes = (def: number) => z.coerce.number().int().min(1024).default(def);

/** The environment of the realtime service, parsed once at start. */
export const RealtimeEnv = z.object({
  PORT: env.port(3004),
  LOG_LEVEL: env.logLevel(),
  /** Absent: documents live in Postgres (the single-process embedded mode). */
  MONGO_URL: z.string().min(1).optional(),
  MONGO_DB: z.string().min(1).default('whiteboard_realtime'),
  DATABASE_URL: z.string().min(1).optional(),
  /** Absent: a single replica, no relay between replicas, events in-process. */
  NATS_URL: z.string().min(1).optional(),
  BOARDS_INTERNAL_URL: env.url(),
  AUTH_JWKS_URL: env.url(),
  FLUSH_INTERVAL_MS: ms(100),
  COMPACT_INTERVAL_MS: ms(30_000),
  MAX_MESSAGE_BYTES: bytes(1024 * 1024),
  MAX_DOC_BYTES: bytes(20 * 1024 * 1024),
  MAX_CONNECTIONS_PER_BOARD: z.coerce.number().int().min(1).default(200),
  REPLICA_ID: z.string().regex(/^[\w-]{1,64}$/).optional(),
});
export type RealtimeEnv = z.infer<typeof RealtimeEnv>;

/** The options createRealtimeService takes; main.ts maps the environment onto them. */
export interface RealtimeLimits {
  flushIntervalMs: number;
  compactIntervalMs: number;
  maxMessageBytes: number;
  maxDocBytes: number;
  maxConnectionsPerBoard: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  flushIntervalMs: 100,
  compactIntervalMs: 30_000,
  maxMessageBytes: 1024 * 1024,
  maxDocBytes: 20 * 1024 * 1024,
  maxConnectionsPerBoard: 200,
};

export function limitsFromEnv(e: RealtimeEnv): RealtimeLimits {
  return {
    flushIntervalMs: e.FLUSH_INTERVAL_MS,
    compactIntervalMs: e.COMPACT_INTERVAL_MS,
    maxMessageBytes: e.MAX_MESSAGE_BYTES,
    maxDocBytes: e.MAX_DOC_BYTES,
    maxConnectionsPerBoard: e.MAX_CONNECTIONS_PER_BOARD,
  };
}
