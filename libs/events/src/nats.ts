import {
  AckPolicy,
  connect,
  DeliverPolicy,
  DiscardPolicy,
  Events,
  nanos,
  RetentionPolicy,
  StorageType,
  StringCodec,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { parseEvent, subjectOf, type DomainEvent } from '@wb/contracts';
import { backoffDelay, fallbackLogger } from './logger.ts';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_DELIVER,
  type EventLogger,
  type EventTransport,
  type SubscribeOptions,
  type Subscription,
} from './types.ts';

export interface NatsTransportOptions {
  servers: string | string[];
  stream?: string;
  logger?: EventLogger;
  /** Connection name shown by the server (`nats server report connections`). */
  name?: string;
  /** Only used when the stream is created; an existing stream's settings are left to operators. */
  replicas?: number;
  /** How long events stay in the stream: the longest a durable may be away without losing any. */
  maxAgeMs?: number;
  duplicateWindowMs?: number;
  reconnectTimeWaitMs?: number;
  publishTimeoutMs?: number;
}

const sc = StringCodec();

export async function createNatsTransport(opts: NatsTransportOptions): Promise<EventTransport> {
  const stream = opts.stream ?? 'WB_EVENTS';
  const logger = opts.logger ?? fallbackLogger;
  const nc = await connect({
    servers: opts.servers,
    name: opts.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: opts.reconnectTimeWaitMs ?? 1_000,
    // A pod may start before NATS is reachable; waiting beats crash-looping.
    waitOnFirstConnect: true,
  });
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) {
        connected = false;
        logger.warn({ server: s.data }, 'NATS connection lost; reconnecting');
      } else if (s.type === Events.Reconnect) {
        connected = true;
        logger.info({ server: s.data }, 'NATS reconnected');
      }
    }
  })().catch(() => {});

  const jsm = await nc.jetstreamManager();
  await ensureStream(jsm, stream, opts);
  const js = nc.jetstream();
  const subs = new Set<Subscription>();
  let closed = false;

  return {
    async publish(event) {
      if (closed) throw new Error('event transport is closed');
      // msgID becomes the Nats-Msg-Id header: the stream drops a repeat within the duplicate window,
      // which is what makes the outbox relay's "publish, then mark" safe to retry.
      await js.publish(subjectOf(event.type), sc.encode(JSON.stringify(event)), {
        msgID: event.id,
        timeout: opts.publishTimeoutMs ?? 5_000,
      });
    },

    async subscribe(sub) {
      if (closed) throw new Error('event transport is closed');
      await ensureConsumer(jsm, stream, sub);
      const s = startConsumerLoop(nc, stream, sub, logger, () => subs.delete(s));
      subs.add(s);
      return s;
    },

    async pending(durable) {
      if (closed) return null;
      const info = await jsm.consumers.info(stream, durable).catch(() => null);
      return info ? info.num_pending + info.num_ack_pending : null;
    },

    async healthy() {
      return !closed && connected && !nc.isClosed();
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...subs].map((s) => s.stop()));
      // close() flushes what is buffered, so the last acks reach the server.
      await nc.close();
    },
  };
}

function isNotFound(err: unknown): boolean {
  const e = err as { api_error?: { code?: number }; code?: string; message?: string };
  return e?.api_error?.code === 404 || e?.code === '404' || /not found/i.test(e?.message ?? '');
}

async function ensureStream(jsm: JetStreamManager, stream: string, opts: NatsTransportOptions): Promise<void> {
  try {
    const info = await jsm.streams.info(stream);
    if (!info.config.subjects?.includes('wb.>')) {
      await jsm.streams.update(stream, { ...info.config, subjects: [...(info.config.subjects ?? []), 'wb.>'] });
    }
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add({
      name: stream,
      subjects: ['wb.>'],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(opts.maxAgeMs ?? 7 * 24 * 3600_000),
      duplicate_window: nanos(opts.duplicateWindowMs ?? 120_000),
      num_replicas: opts.replicas ?? 1,
    });
  } catch (err) {
    // Another replica may have created it between our info and add.
    await jsm.streams.info(stream).catch(() => {
      throw err;
    });
  }
}

/**
 * One JetStream consumer per durable, always filtering on `wb.>`; types are filtered here (events
 * of other types are acked unseen, by subject, without parsing). Why not on the server:
 * - NATS 2.9 allows a single filter_subject per consumer, and one consumer per type would lose
 *   the order between types (a `user.deleted` handled before the `user.registered` it follows),
 *   while a durable's order is part of the contract;
 * - filtering on `wb.<type>` when there is one type would make the filter change when a service
 *   adds a type, and 2.9 accepts that update but does not wake the consumer for subjects added
 *   by it (tested: the new type's events wait for the next pull expiry). A fixed filter means a
 *   durable's types can change between deploys without touching the consumer.
 * The cost is that every durable sees every event, which is small at this platform's event rates.
 */
function consumerConfig(sub: SubscribeOptions): Partial<ConsumerConfig> {
  return {
    durable_name: sub.durable,
    ack_policy: AckPolicy.Explicit,
    // A durable created after some events were published still gets them (no start-up races).
    deliver_policy: DeliverPolicy.All,
    filter_subject: 'wb.>',
    max_deliver: sub.maxDeliver ?? DEFAULT_MAX_DELIVER,
    ack_wait: nanos(sub.ackWaitMs ?? 30_000),
  };
}

async function ensureConsumer(jsm: JetStreamManager, stream: string, sub: SubscribeOptions): Promise<void> {
  const want = consumerConfig(sub);
  let existing: ConsumerConfig | null = null;
  try {
    existing = (await jsm.consumers.info(stream, sub.durable)).config;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (!existing) {
    try {
      await jsm.consumers.add(stream, want);
      return;
    } catch (err) {
      existing = (await jsm.consumers.info(stream, sub.durable).catch(() => Promise.reject(err))).config;
    }
  }
  if (
    existing.filter_subject !== want.filter_subject ||
    existing.max_deliver !== want.max_deliver ||
    existing.ack_wait !== want.ack_wait
  ) {
    // The consumer keeps its position; only how it filters and retries changes.
    await jsm.consumers.update(stream, sub.durable, {
      filter_subject: want.filter_subject,
      max_deliver: want.max_deliver,
      ack_wait: want.ack_wait,
    });
  }
}

function startConsumerLoop(
  nc: NatsConnection,
  stream: string,
  sub: SubscribeOptions,
  logger: EventLogger,
  onStopped: () => void,
): Subscription {
  const types = new Set<string>(sub.types);
  const maxDeliver = sub.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoff = sub.backoffMs ?? DEFAULT_BACKOFF_MS;
  const js = nc.jetstream();
  let stopping = false;
  let messages: ConsumerMessages | null = null;
  let wake: (() => void) | null = null;

  async function handle(m: JsMsg): Promise<void> {
    if (!types.has(m.subject.slice('wb.'.length))) {
      m.ack();
      return;
    }
    let event: DomainEvent;
    try {
      event = parseEvent(JSON.parse(sc.decode(m.data)));
      if (subjectOf(event.type) !== m.subject) throw new Error(`event type ${event.type} sent on ${m.subject}`);
    } catch (err) {
      // Redelivering cannot fix a malformed message; term() drops it for good.
      logger.error({ err, durable: sub.durable, subject: m.subject, seq: m.seq }, 'malformed event dropped');
      m.term();
      return;
    }
    try {
      await sub.handler(event);
      m.ack();
    } catch (err) {
      const deliveries = m.info.deliveryCount;
      if (deliveries >= maxDeliver) {
        logger.error({ err, durable: sub.durable, eventId: event.id, type: event.type, deliveries }, 'event handler failed, giving up');
        m.term();
      } else {
        const delay = backoffDelay(backoff, deliveries);
        logger.warn({ err, durable: sub.durable, eventId: event.id, type: event.type, deliveries, delay }, 'event handler failed, will retry');
        m.nak(delay);
      }
    }
  }

  const loop = (async () => {
    while (!stopping) {
      try {
        const consumer = await js.consumers.get(stream, sub.durable);
        // One message in flight: events are handled one at a time anyway, and a bigger buffer
        // would only let buffered messages use up their ack_wait before the handler sees them.
        messages = await consumer.consume({ max_messages: 1 });
        if (stopping) messages.stop();
        for await (const m of messages) {
          // Already pulled but we are leaving: hand it back now instead of after ack_wait.
          if (stopping) m.nak();
          else await handle(m);
        }
        if (!stopping) throw new Error('consumer message stream ended');
      } catch (err) {
        if (stopping || nc.isClosed()) break;
        logger.warn({ err, durable: sub.durable }, 'event consumer failed; restarting');
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 1_000);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        wake = null;
      }
      if (nc.isClosed()) break;
    }
  })();

  return {
    async stop() {
      if (!stopping) {
        stopping = true;
        messages?.stop();
        wake?.();
      }
      await loop;
      onStopped();
    },
  };
}
