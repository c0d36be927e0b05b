import type { DomainEvent, EventType } from '@wb/contracts';

export type { DomainEvent, EventType };

/** The one event interface; NATS JetStream in production, in-process in the embedded mode. */
export interface EventTransport {
  /** Publishes an already-built event (id = dedupe key, sent as Nats-Msg-Id). */
  publish(event: DomainEvent): Promise<void>;
  /**
   * A durable consumer: every event of `types` is delivered to `handler` at least once. A throw
   * (or a crash before the ack) redelivers it later with backoff, up to `maxDeliver` times.
   */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /**
   * Events a durable has yet to finish (not delivered, or delivered and not acked; on NATS also those
   * of other types it will skip); null when the durable does not exist (yet). What /metrics shows as
   * events_consumer_pending.
   */
  pending?(durable: string): Promise<number | null>;
  /** Liveness of the connection, for /ready. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** Durable consumer name, unique per consuming service and purpose, e.g. 'boards-users'. */
  durable: string;
  types: EventType[];
  handler: (event: DomainEvent) => Promise<void>;
  maxDeliver?: number;
  /** Delay before each redelivery, in ms; the last value repeats. */
  backoffMs?: number[];
  /** How long a delivery may run before it counts as failed and is redelivered. */
  ackWaitMs?: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

export const DEFAULT_BACKOFF_MS = [200, 1_000, 5_000, 15_000, 60_000];
export const DEFAULT_MAX_DELIVER = 20;

/** The subset of a pino logger the transports use, so callers can pass their service logger. */
export interface EventLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
