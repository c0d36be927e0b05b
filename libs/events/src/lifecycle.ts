import type { Pool } from '@wb/db';
import { fallbackLogger } from './logger.ts';
import { ensureEventTables, startOutboxRelay, type OutboxRelay } from './outbox.ts';
import type { EventLogger, EventTransport, Subscription } from './types.ts';

export interface ServiceEventsOptions {
  pool: Pool;
  transport: EventTransport;
  logger?: EventLogger;
  /** The service writes events to its outbox (a relay publishes them). */
  publishes: boolean;
  /** Each starts one consumer; called on start, in order. */
  consumers?: Array<() => Promise<Subscription>>;
}

export interface ServiceEvents {
  /** After the service's migrations: event tables, the outbox relay, the consumers. */
  start(): Promise<void>;
  /** Consumers first (no new work), then what the outbox still holds is published, then the relay stops. */
  stop(): Promise<void>;
  /** Publishes everything pending now (tests and shutdown). */
  flush(): Promise<void>;
}

/** The event side of a service's start and stop, the same in every service that has one. */
export function serviceEvents(opts: ServiceEventsOptions): ServiceEvents {
  const logger = opts.logger ?? fallbackLogger;
  let relay: OutboxRelay | null = null;
  let subs: Subscription[] = [];
  return {
    async start() {
      await ensureEventTables(opts.pool);
      if (opts.publishes) relay = startOutboxRelay({ pool: opts.pool, transport: opts.transport, logger });
      for (const start of opts.consumers ?? []) subs.push(await start());
    },
    async stop() {
      await Promise.all(subs.map((s) => s.stop().catch((err) => logger.warn({ err }, 'consumer stop failed'))));
      subs = [];
      if (relay) {
        await relay.flush().catch((err) => logger.warn({ err }, 'outbox flush on stop failed'));
        await relay.stop();
        relay = null;
      }
    },
    async flush() {
      await relay?.flush();
    },
  };
}
