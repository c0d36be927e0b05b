import { outboxBacklog, type EventTransport } from '@wb/events';
import type { Queryable } from '@wb/db';
import client from 'prom-client';

export interface EventMetricsSources {
  /** The service's own schema, when it writes events to an outbox. */
  outbox?: Queryable;
  transport?: EventTransport;
  /** Its durable consumers (the topology manifest's needs.nats.consumers). */
  consumers?: readonly string[];
}

/**
 * The event side's backlog as gauges read at scrape time: the outbox rows the relay has yet to
 * publish (a broker outage or a stuck relay shows here first) and, per durable consumer, the events
 * it has yet to finish (a failing or slow handler). The alerts EventsOutboxBacklog and
 * EventsConsumerLag (charts/whiteboard/files/rules.json) read them.
 */
export function eventMetrics(registry: client.Registry, sources: EventMetricsSources): void {
  const registers = [registry];
  const { outbox, transport, consumers = [] } = sources;
  if (outbox) {
    // One query per scrape for both gauges: the second collect() reuses the first's answer.
    let last: Promise<{ rows: number; oldestSeconds: number } | null> | null = null;
    const read = () => (last ??= outboxBacklog(outbox).catch(() => null).finally(() => setTimeout(() => (last = null), 0)));
    new client.Gauge({
      name: 'events_outbox_unpublished',
      help: 'Outbox rows written and not yet published to the event broker',
      registers,
      async collect() {
        const b = await read();
        if (b) this.set(b.rows);
      },
    });
    new client.Gauge({
      name: 'events_outbox_oldest_unpublished_seconds',
      help: 'Age of the oldest outbox row not yet published (0 when none)',
      registers,
      async collect() {
        const b = await read();
        if (b) this.set(b.oldestSeconds);
      },
    });
  }
  if (transport?.pending && consumers.length) {
    const pending = transport.pending.bind(transport);
    new client.Gauge({
      name: 'events_consumer_pending',
      help: 'Events a durable consumer has not finished yet (undelivered or unacknowledged)',
      labelNames: ['consumer'] as const,
      registers,
      async collect() {
        const counts = await Promise.all(consumers.map((c) => pending(c).catch(() => null)));
        consumers.forEach((c, i) => {
          const n = counts[i];
          if (n !== null && n !== undefined) this.set({ consumer: c }, n);
        });
      },
    });
  }
}
