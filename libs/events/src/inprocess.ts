import { parseEvent } from '@wb/contracts';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_DELIVER,
  type DomainEvent,
  type EventLogger,
  type EventTransport,
  type SubscribeOptions,
  type Subscription,
} from './types.ts';
import { backoffDelay, fallbackLogger } from './logger.ts';

export interface InProcessTransportOptions {
  logger?: EventLogger;
  /** Same role as the JetStream duplicate window. */
  dedupeWindowMs?: number;
  /** Like the stream's limits: how much history a durable created later still receives. */
  retainEvents?: number;
  retainMs?: number;
  /** Default ack wait, as on NATS. */
  ackWaitMs?: number;
}

interface Delivery {
  /** Serialised, as on the wire, so handlers never share (or mutate) the publisher's objects. */
  json: string;
  type: string;
  id: string;
  deliveries: number;
  notBefore: number;
}

interface Durable {
  name: string;
  types: Set<string>;
  handler: SubscribeOptions['handler'];
  maxDeliver: number;
  backoffMs: number[];
  ackWaitMs: number;
  queue: Delivery[];
  active: boolean;
  busy: Promise<void> | null;
  /** Cancels the pending wake-up (an immediate or a timeout). */
  timer: (() => void) | null;
  /** Bumped on every subscribe, so a stale subscription's stop() cannot stop its successor. */
  generation: number;
}

interface Logged {
  json: string;
  type: string;
  id: string;
  at: number;
}

/**
 * The embedded mode's stand-in for JetStream, with the same observable contract: durables survive
 * stop()/subscribe() (they are keyed by name and keep collecting events while stopped), a new
 * durable starts from the retained history (DeliverPolicy.All), delivery is asynchronous and one
 * event at a time per durable, and a failed event is retried after its backoff while later events
 * keep flowing — exactly what a NAK with delay does on NATS.
 */
export function createInProcessTransport(opts: InProcessTransportOptions = {}): EventTransport {
  const logger = opts.logger ?? fallbackLogger;
  const dedupeWindowMs = opts.dedupeWindowMs ?? 120_000;
  const retainEvents = opts.retainEvents ?? 10_000;
  const retainMs = opts.retainMs ?? 24 * 3600_000;
  const defaultAckWait = opts.ackWaitMs ?? 30_000;

  const durables = new Map<string, Durable>();
  const seen = new Map<string, number>();
  const history: Logged[] = [];
  let closed = false;

  function prune(now: number) {
    for (const [id, at] of seen) {
      if (now - at <= dedupeWindowMs) break; // Map keeps insertion order, so the rest are newer
      seen.delete(id);
    }
    while (history.length > retainEvents || (history.length > 0 && now - history[0].at > retainMs)) history.shift();
  }

  function schedule(d: Durable) {
    if (!d.active || d.busy || closed) return;
    cancel(d);
    if (d.queue.length === 0) return;
    const earliest = d.queue.reduce((min, q) => Math.min(min, q.notBefore), Infinity);
    const wait = Math.max(0, earliest - Date.now());
    // setImmediate even when due: a handler must never run inside the publisher's call stack.
    if (wait === 0) {
      const h = setImmediate(() => pump(d));
      d.timer = () => clearImmediate(h);
    } else {
      const h = setTimeout(() => pump(d), wait);
      d.timer = () => clearTimeout(h);
    }
  }

  function cancel(d: Durable) {
    d.timer?.();
    d.timer = null;
  }

  function pump(d: Durable) {
    d.timer = null;
    if (!d.active || d.busy || closed) return;
    const now = Date.now();
    // First ready entry in queue order: publish order for first deliveries, retries once due.
    const idx = d.queue.findIndex((q) => q.notBefore <= now);
    if (idx < 0) return schedule(d);
    const item = d.queue[idx];
    if (!d.types.has(item.type)) {
      // The durable's types changed since this was queued; NATS would ack and skip it too.
      d.queue.splice(idx, 1);
      return schedule(d);
    }
    d.busy = deliver(d, item).finally(() => {
      d.busy = null;
      schedule(d);
    });
  }

  async function deliver(d: Durable, item: Delivery) {
    item.deliveries += 1;
    let event: DomainEvent;
    try {
      event = parseEvent(JSON.parse(item.json));
    } catch (err) {
      logger.error({ err, durable: d.name, eventId: item.id }, 'malformed event dropped');
      remove(d, item);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      // ack_wait: a hung handler must not block the durable forever; the event is retried instead.
      await Promise.race([
        d.handler(event),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`handler exceeded ack wait ${d.ackWaitMs} ms`)), d.ackWaitMs);
        }),
      ]);
      remove(d, item);
    } catch (err) {
      if (item.deliveries >= d.maxDeliver) {
        logger.error({ err, durable: d.name, eventId: item.id, type: item.type, deliveries: item.deliveries }, 'event handler failed, giving up');
        remove(d, item);
      } else {
        const delay = backoffDelay(d.backoffMs, item.deliveries);
        logger.warn({ err, durable: d.name, eventId: item.id, type: item.type, deliveries: item.deliveries, delay }, 'event handler failed, will retry');
        item.notBefore = Date.now() + delay;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  function remove(d: Durable, item: Delivery) {
    const i = d.queue.indexOf(item);
    if (i >= 0) d.queue.splice(i, 1);
  }

  return {
    async publish(event) {
      if (closed) throw new Error('event transport is closed');
      const now = Date.now();
      prune(now);
      if (seen.has(event.id)) return;
      seen.set(event.id, now);
      const json = JSON.stringify(event);
      history.push({ json, type: event.type, id: event.id, at: now });
      for (const d of durables.values()) {
        if (!d.types.has(event.type)) continue;
        d.queue.push({ json, type: event.type, id: event.id, deliveries: 0, notBefore: now });
        schedule(d);
      }
    },

    async pending(durable) {
      return durables.get(durable)?.queue.length ?? null;
    },

    async subscribe(sub) {
      if (closed) throw new Error('event transport is closed');
      let d = durables.get(sub.durable);
      if (d?.active) throw new Error(`durable ${sub.durable} already has an active subscriber`);
      if (!d) {
        d = {
          name: sub.durable,
          types: new Set(),
          handler: sub.handler,
          maxDeliver: 0,
          backoffMs: [],
          ackWaitMs: 0,
          queue: [],
          active: false,
          busy: null,
          timer: null,
          generation: 0,
        };
        const types = new Set<string>(sub.types);
        prune(Date.now());
        d.queue = history
          .filter((h) => types.has(h.type))
          .map((h) => ({ json: h.json, type: h.type, id: h.id, deliveries: 0, notBefore: 0 }));
        durables.set(sub.durable, d);
      }
      d.types = new Set(sub.types);
      d.handler = sub.handler;
      d.maxDeliver = sub.maxDeliver ?? DEFAULT_MAX_DELIVER;
      d.backoffMs = sub.backoffMs ?? DEFAULT_BACKOFF_MS;
      d.ackWaitMs = sub.ackWaitMs ?? defaultAckWait;
      d.active = true;
      const generation = ++d.generation;
      const durable = d;
      schedule(durable);
      return {
        async stop() {
          if (durable.generation !== generation || !durable.active) return;
          durable.active = false;
          cancel(durable);
          // Once stop() resolves, no handler of this subscription is running.
          await durable.busy;
        },
      } satisfies Subscription;
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      const running: Promise<void>[] = [];
      for (const d of durables.values()) {
        d.active = false;
        cancel(d);
        if (d.busy) running.push(d.busy);
      }
      await Promise.allSettled(running);
    },
  };
}
