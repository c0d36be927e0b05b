import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import type { DomainEvent, EventTransport, EventLogger } from '../src/index.ts';
import { boardCreated, boardDeleted, durableName, memoryLogger, userDeleted, userUpdated, waitFor } from './helpers.ts';

export interface TransportUnderTest {
  transport: EventTransport;
  close(): Promise<void>;
}

/**
 * The behaviour every EventTransport must share, so the embedded mode behaves like production.
 * `factory` gets a logger so tests can see what the transport reports; it is called per test and
 * must start from an empty history.
 */
export function transportContract(name: string, factory: (logger: EventLogger) => Promise<TransportUnderTest>) {
  describe(`EventTransport contract: ${name}`, () => {
    let t: TransportUnderTest;
    let transport: EventTransport;
    let log = memoryLogger();

    // A fresh transport (and, on NATS, an empty stream) per test: a new durable starts from the
    // stream's beginning, so events of earlier tests would otherwise reach it.
    beforeEach(async () => {
      log = memoryLogger();
      t = await factory(log.logger);
      transport = t.transport;
    });
    afterEach(async () => {
      await t?.close();
    });

    it('reports healthy while connected', async () => {
      expect(await transport.healthy()).toBe(true);
    });

    it('delivers each event once, in order, to each of two durables', async () => {
      const a: string[] = [];
      const b: string[] = [];
      const subA = await transport.subscribe({ durable: durableName('a'), types: ['user.deleted'], handler: async (e) => void a.push(e.id) });
      const subB = await transport.subscribe({ durable: durableName('b'), types: ['user.deleted'], handler: async (e) => void b.push(e.id) });
      // The last one is the sentinel: a duplicate of an earlier event would come before it.
      const events = [userDeleted(), userDeleted(), userDeleted(), userDeleted()];
      for (const e of events) await transport.publish(e);
      const sentinel = events.at(-1)!.id;
      await waitFor(() => a.includes(sentinel) && b.includes(sentinel), 10_000, 'both durables');
      expect(a).toEqual(events.map((e) => e.id));
      expect(b).toEqual(events.map((e) => e.id));
      await subA.stop();
      await subB.stop();
    });

    it('delivers the event as parsed data, never inside the publisher call', async () => {
      let got: DomainEvent | null = null;
      let publishing = false;
      let duringPublish = false;
      const sub = await transport.subscribe({
        durable: durableName('async'),
        types: ['board.created'],
        handler: async (e) => {
          duringPublish = publishing;
          got = e;
        },
      });
      const e = boardCreated();
      // "Inside" is the synchronous call: over JetStream the consumer may well get the message
      // before the publish acknowledgement comes back, so the promise may resolve after delivery.
      publishing = true;
      const published = transport.publish(e);
      publishing = false;
      await published;
      await waitFor(() => got !== null);
      expect(duringPublish).toBe(false);
      expect(got).toEqual(e);
      expect(got).not.toBe(e);
      await sub.stop();
    });

    it('filters by type and keeps the order across types', async () => {
      const got: string[] = [];
      const sub = await transport.subscribe({
        durable: durableName('types'),
        types: ['user.deleted', 'board.deleted'],
        handler: async (e) => void got.push(e.type),
      });
      // After the last wanted event a filtered-out one and a wanted sentinel: anything let through
      // by mistake would arrive before the sentinel.
      const sentinel = boardDeleted();
      for (const e of [userUpdated(), userDeleted(), boardCreated(), boardDeleted(), userDeleted(), userUpdated(), sentinel]) {
        await transport.publish(e);
      }
      await waitFor(() => got.length >= 4);
      expect(got).toEqual(['user.deleted', 'board.deleted', 'user.deleted', 'board.deleted']);
      await sub.stop();
    });

    it('redelivers after a throw, following the backoff, then succeeds', async () => {
      const attempts: number[] = [];
      const first = userDeleted();
      const sentinel = userDeleted();
      let sentinelTries = 0;
      const sub = await transport.subscribe({
        durable: durableName('retry'),
        types: ['user.deleted'],
        backoffMs: [150, 400],
        handler: async (e) => {
          if (e.id === sentinel.id) {
            // Fails once too: its retry comes through the same backoff after the first one's success.
            if (++sentinelTries === 1) throw new Error('temporary failure');
            return;
          }
          attempts.push(Date.now());
          if (attempts.length < 3) throw new Error('temporary failure');
        },
      });
      await transport.publish(first);
      await waitFor(() => attempts.length >= 3, 10_000, 'three attempts');
      await transport.publish(sentinel);
      await waitFor(() => sentinelTries === 2, 10_000, 'the sentinel retried');
      expect(attempts).toHaveLength(3);
      expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(140);
      expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(390);
      expect(log.records.some((r) => r.level === 'warn' && r.msg?.includes('retry'))).toBe(true);
      await sub.stop();
    });

    it('keeps later events flowing while one waits for its retry', async () => {
      const got: string[] = [];
      const first = userDeleted();
      const second = userDeleted();
      let failed = false;
      const sub = await transport.subscribe({
        durable: durableName('flow'),
        types: ['user.deleted'],
        backoffMs: [500],
        handler: async (e) => {
          if (e.id === first.id && !failed) {
            failed = true;
            throw new Error('once');
          }
          got.push(e.id);
        },
      });
      await transport.publish(first);
      await transport.publish(second);
      await waitFor(() => got.length >= 2);
      expect(got).toEqual([second.id, first.id]);
      await sub.stop();
    });

    it('gives up after maxDeliver attempts', async () => {
      let attempts = 0;
      const sentinel = userDeleted();
      let sentinelTries = 0;
      const sub = await transport.subscribe({
        durable: durableName('give-up'),
        types: ['user.deleted'],
        maxDeliver: 3,
        backoffMs: [50],
        handler: async (e) => {
          if (e.id === sentinel.id) {
            // Two failed tries and a third that succeeds: a fourth try of the given-up event would
            // have been due (same backoff) before the sentinel's third.
            if (++sentinelTries < 3) throw new Error('temporary failure');
            return;
          }
          attempts += 1;
          throw new Error('permanent failure');
        },
      });
      await transport.publish(userDeleted());
      await waitFor(() => log.records.some((r) => r.level === 'error' && r.msg?.includes('giving up')), 10_000, 'giving up');
      await transport.publish(sentinel);
      await waitFor(() => sentinelTries === 3, 10_000, 'the sentinel delivered on its third try');
      expect(attempts).toBe(3);
      expect(log.records.some((r) => r.level === 'error' && r.msg?.includes('giving up'))).toBe(true);
      await sub.stop();
    });

    it('delivers a duplicate publish of the same event id once', async () => {
      const got: string[] = [];
      const sub = await transport.subscribe({ durable: durableName('dedupe'), types: ['user.deleted'], handler: async (e) => void got.push(e.id) });
      const e = userDeleted();
      await transport.publish(e);
      await transport.publish(e);
      await transport.publish({ ...e });
      const marker = userDeleted();
      await transport.publish(marker);
      await waitFor(() => got.includes(marker.id));
      expect(got).toEqual([e.id, marker.id]);
      await sub.stop();
    });

    it('drops a malformed event without stopping the consumer', async () => {
      const got: string[] = [];
      const sub = await transport.subscribe({ durable: durableName('malformed'), types: ['user.deleted'], handler: async (e) => void got.push(e.id) });
      const bad = { ...userDeleted(), data: { userId: 'not-a-uuid' } } as DomainEvent;
      await transport.publish(bad);
      const good = userDeleted();
      await transport.publish(good);
      // Delivered in order: the good one arriving means the bad one was handled (dropped) before it.
      await waitFor(() => got.length >= 1);
      expect(got).toEqual([good.id]);
      expect(log.records.some((r) => r.level === 'error' && r.msg === 'malformed event dropped')).toBe(true);
      await sub.stop();
    });

    it('stops delivering after stop(), and a returning durable gets what it missed', async () => {
      const durable = durableName('durable');
      const got: string[] = [];
      const handler = async (e: DomainEvent) => void got.push(e.id);
      const sub = await transport.subscribe({ durable, types: ['user.deleted'], handler });
      const before = userDeleted();
      await transport.publish(before);
      await waitFor(() => got.length === 1);
      await sub.stop();

      // Another durable, subscribed all along, gets them: the transport delivered them, not to the stopped one.
      const witness: string[] = [];
      const other = await transport.subscribe({ durable: durableName('witness'), types: ['user.deleted'], handler: async (e) => void witness.push(e.id) });
      const missed = [userDeleted(), userDeleted()];
      for (const e of missed) await transport.publish(e);
      await waitFor(() => missed.every((e) => witness.includes(e.id)), 10_000, 'the witness durable');
      await other.stop();
      expect(got).toEqual([before.id]);

      const again = await transport.subscribe({ durable, types: ['user.deleted'], handler });
      const sentinel = userDeleted();
      await transport.publish(sentinel);
      await waitFor(() => got.includes(sentinel.id), 10_000, 'missed events and the sentinel');
      expect(got).toEqual([before.id, ...missed.map((e) => e.id), sentinel.id]);
      await again.stop();
    });

    it('lets a durable change its types between runs', async () => {
      const durable = durableName('retype');
      const got: string[] = [];
      const handler = async (e: DomainEvent) => void got.push(e.type);
      const one = await transport.subscribe({ durable, types: ['user.deleted'], handler });
      await transport.publish(userDeleted());
      await waitFor(() => got.length === 1);
      await one.stop();
      const two = await transport.subscribe({ durable, types: ['user.deleted', 'board.deleted'], handler, ackWaitMs: 10_000 });
      await transport.publish(boardDeleted());
      await transport.publish(userDeleted());
      await waitFor(() => got.length === 3);
      expect(got).toEqual(['user.deleted', 'board.deleted', 'user.deleted']);
      await two.stop();
    });

    it('stop() waits for the running handler', async () => {
      let finished = false;
      let started = false;
      const sub = await transport.subscribe({
        durable: durableName('stop-wait'),
        types: ['user.deleted'],
        handler: async () => {
          started = true;
          // wait-ok: a handler that stays busy is the behaviour under test (stop() must wait for it)
          await new Promise((r) => setTimeout(r, 300));
          finished = true;
        },
      });
      await transport.publish(userDeleted());
      await waitFor(() => started);
      await sub.stop();
      expect(finished).toBe(true);
    });

    it('counts the events a durable has not handled yet (events_consumer_pending)', async () => {
      const name = durableName('pending');
      expect(await transport.pending!(name)).toBeNull();
      const got: string[] = [];
      const sub = await transport.subscribe({ durable: name, types: ['user.deleted'], handler: async (e) => void got.push(e.id) });
      await sub.stop();
      for (let i = 0; i < 3; i++) await transport.publish(userDeleted());
      await waitFor(async () => (await transport.pending!(name)) === 3, 10_000, 'three pending');
      const again = await transport.subscribe({ durable: name, types: ['user.deleted'], handler: async (e) => void got.push(e.id) });
      await waitFor(() => got.length === 3, 10_000, 'the missed events');
      await waitFor(async () => (await transport.pending!(name)) === 0, 10_000, 'nothing pending');
      await again.stop();
    });

    it('a durable created after publishing still receives earlier events', async () => {
      const e = boardDeleted();
      await transport.publish(e);
      const got: string[] = [];
      const sub = await transport.subscribe({ durable: durableName('late'), types: ['board.deleted'], handler: async (x) => void got.push(x.id) });
      await waitFor(() => got.includes(e.id));
      await sub.stop();
    });
  });
}
