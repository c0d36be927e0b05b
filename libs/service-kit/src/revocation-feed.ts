/**
 * Revoked sessions over NATS JetStream, so that auth answers a logout only once every verifier knows
 * it (issue 32 item 6). Polling auth left a token working up to a poll interval after the answer.
 *
 * - Stream `WB_REVOCATIONS` (subject `wb-revocations.sessions`), messages kept somewhat longer than
 *   an access token lives: a process that starts reads every revocation whose tokens may still be
 *   presented, before its first verification.
 * - Each verifier process binds an ephemeral push consumer of its own (explicit acks) and acks a
 *   message only after its list holds the ids and its listeners ran (realtime has closed the sockets).
 * - Auth publishes, then waits until every consumer bound to a live subscription has acked past that
 *   message. The NATS server keeps that membership for us: a process that dies loses its binding as
 *   its connection closes, so it is not waited for; one that is starting reads the message at start.
 *
 * Kept out of the package's main entry (it loads `nats`): exported through `@wb/service-kit/run`.
 */
import {
  AckPolicy,
  consumerOpts,
  createInbox,
  DiscardPolicy,
  JSONCodec,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerInfo,
  type JetStreamManager,
  type JetStreamSubscription,
  type NatsConnection,
} from 'nats';
import type { RevocationFeed } from './revocation.ts';

export const REVOCATION_STREAM = 'WB_REVOCATIONS';
export const REVOCATION_SUBJECT = 'wb-revocations.sessions';
/** What a verifier creates if it comes first; auth sets the real age from its token lifetime. */
const DEFAULT_KEEP_SECONDS = 15 * 60;
/** Beyond the token lifetime: clocks of the signer and the verifiers may differ a little. */
const KEEP_MARGIN_SECONDS = 120;

interface RevocationMessage {
  sessions: string[];
  keepSeconds: number;
}
const codec = JSONCodec<RevocationMessage>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isNotFound(err: unknown): boolean {
  const e = err as { api_error?: { code?: number }; code?: string; message?: string };
  return e?.api_error?.code === 404 || e?.code === '404' || /not found/i.test(e?.message ?? '');
}

/** Creates the stream, or sets its age when auth (who knows the token lifetime) says so. */
export async function ensureRevocationStream(jsm: JetStreamManager, keepSeconds?: number): Promise<void> {
  const maxAge = nanos(((keepSeconds ?? DEFAULT_KEEP_SECONDS) + KEEP_MARGIN_SECONDS) * 1000);
  try {
    const info = await jsm.streams.info(REVOCATION_STREAM);
    if (keepSeconds !== undefined && info.config.max_age < maxAge) {
      await jsm.streams.update(REVOCATION_STREAM, { ...info.config, max_age: maxAge });
    }
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add({
      name: REVOCATION_STREAM,
      subjects: [REVOCATION_SUBJECT],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: maxAge,
      num_replicas: 1,
    });
  } catch (err) {
    // Another process may have created it between our info and add.
    await jsm.streams.info(REVOCATION_STREAM).catch(() => {
      throw err;
    });
  }
}

/** A verifier's feed: every revocation since the stream's start, then each one as it is published. */
export function natsRevocationFeed(
  connection: () => Promise<NatsConnection | undefined>,
  opts: { onError?: (err: unknown) => void; startTimeoutMs?: number } = {},
): RevocationFeed {
  let sub: JetStreamSubscription | undefined;
  const bind = async (deliver: (sids: string[], keepMs: number) => void): Promise<JetStreamSubscription> => {
    const nc = await connection();
    if (!nc) throw new Error('revocation feed: no NATS connection');
    const jsm = await nc.jetstreamManager();
    await ensureRevocationStream(jsm);
    const o = consumerOpts();
    o.deliverAll();
    o.ackExplicit();
    o.manualAck();
    o.deliverTo(createInbox());
    // A consumer without a subscriber (its process gone) is removed after this; auth skips it at once anyway.
    o.inactiveEphemeralThreshold(60_000);
    const s = await nc.jetstream().subscribe(REVOCATION_SUBJECT, o);
    void (async () => {
      for await (const m of s) {
        try {
          const d = codec.decode(m.data);
          if (Array.isArray(d.sessions)) deliver(d.sessions.filter((x) => typeof x === 'string'), Number(d.keepSeconds) * 1000 || DEFAULT_KEEP_SECONDS * 1000);
        } catch (err) {
          opts.onError?.(err);
        }
        m.ack();
      }
    })();
    // Caught up once everything the stream held when the consumer was made is delivered and acked.
    try {
      for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
        const info = await s.consumerInfo();
        if (info.num_pending === 0 && info.num_ack_pending === 0) return s;
        await sleep(wait);
      }
    } catch (err) {
      s.unsubscribe();
      throw err;
    }
  };
  return {
    async start(deliver) {
      // NATS out of reach must not hold every first verification forever: the verifier answers
      // "try again" (503 / close 4500) and the next call binds anew.
      const attempt = bind(deliver);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('revocation feed: NATS did not answer in time')), opts.startTimeoutMs ?? 5_000);
      });
      try {
        sub = await Promise.race([attempt, timeout]);
      } catch (err) {
        void attempt.then((late) => late.unsubscribe(), () => {});
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    stop() {
      sub?.unsubscribe();
      sub = undefined;
    },
  };
}

export interface RevocationPublisher {
  /**
   * Publishes revoked sessions and resolves once every live verifier has acknowledged them, or after
   * `waitMs` (a verifier alive but stuck): `complete` says which.
   */
  publish(sessions: readonly string[]): Promise<{ complete: boolean; waitedMs: number; behind: string[] }>;
}

export async function natsRevocationPublisher(nc: NatsConnection, opts: { keepSeconds: number; waitMs?: number }): Promise<RevocationPublisher> {
  const jsm = await nc.jetstreamManager();
  await ensureRevocationStream(jsm, opts.keepSeconds);
  const js = nc.jetstream();
  const waitMs = opts.waitMs ?? 3_000;
  // A burst of logouts shares one consumer listing at a time instead of one each. A listing is only
  // trusted by a publish that finished before it was requested: an older one may lack a consumer
  // created since, which must be waited for.
  let generation = 0;
  let current: { generation: number; list: Promise<ConsumerInfo[]> } | undefined;
  const listing = async (after: number): Promise<ConsumerInfo[]> => {
    for (;;) {
      if (current && current.generation > after) return current.list;
      if (current) {
        await current.list.catch(() => undefined);
        continue;
      }
      const mine = { generation: ++generation, list: listConsumers(jsm) };
      current = mine;
      void mine.list.catch(() => undefined).finally(() => {
        if (current === mine) current = undefined;
      });
    }
  };
  return {
    async publish(sessions) {
      const started = performance.now();
      if (sessions.length === 0) return { complete: true, waitedMs: 0, behind: [] };
      const { seq } = await js.publish(REVOCATION_SUBJECT, codec.encode({ sessions: [...sessions], keepSeconds: opts.keepSeconds }));
      for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
        const behind: string[] = [];
        for (const ci of await listing(generation)) {
          if (ci.push_bound && ci.config.ack_policy === AckPolicy.Explicit && ci.ack_floor.stream_seq < seq) behind.push(ci.name);
        }
        const waitedMs = performance.now() - started;
        if (behind.length === 0) return { complete: true, waitedMs, behind };
        if (waitedMs >= waitMs) return { complete: false, waitedMs, behind };
        await sleep(wait);
      }
    },
  };
}

async function listConsumers(jsm: JetStreamManager): Promise<ConsumerInfo[]> {
  const all: ConsumerInfo[] = [];
  for await (const ci of jsm.consumers.list(REVOCATION_STREAM)) all.push(ci);
  return all;
}
