import type { DomainEvent, EventData, EventType } from '@wb/contracts';
import pg from 'pg';
import type { Pool, Queryable } from '@wb/db';
import { newEvent } from './event.ts';
import { fallbackLogger } from './logger.ts';
import type { EventLogger, EventTransport } from './types.ts';

const FAILURE_LOG_EVERY_MS = 30_000;

/**
 * The NOTIFY channel is per schema because every service shares one database (and its NOTIFY
 * namespace) in the embedded mode; a relay must only wake for its own outbox.
 */
const CHANNEL_SQL = `'wb_outbox_' || current_schema()`;

/** Creates `outbox` and `processed_events` in the pool's current schema (search_path). */
export async function ensureEventTables(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Replicas starting together would otherwise race on CREATE ... IF NOT EXISTS (a unique
    // violation in pg_type), so they take turns.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('wb-events:' || current_schema()))`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS outbox (
        id uuid PRIMARY KEY,
        -- created_at is the transaction's start time and ties within a transaction; seq keeps
        -- the order in which the events were written.
        seq bigint GENERATED ALWAYS AS IDENTITY,
        type text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await client.query('CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox (seq) WHERE published_at IS NULL');
    await client.query('CREATE INDEX IF NOT EXISTS outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL');
    await client.query(`
      CREATE TABLE IF NOT EXISTS processed_events (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Writes an event to the outbox with the caller's client, so it commits or rolls back together
 * with the change it describes. `payload` holds the whole envelope, published as is.
 */
export async function enqueueEvent<T extends EventType>(
  client: Queryable,
  type: T,
  data: EventData<T>,
  source: string,
): Promise<DomainEvent<T>> {
  const event = newEvent(type, data, source);
  await client.query('INSERT INTO outbox (id, type, payload, created_at) VALUES ($1, $2, $3, $4)', [
    event.id,
    event.type,
    JSON.stringify(event),
    event.occurredAt,
  ]);
  // Delivered by Postgres only at commit, which is exactly when the row becomes visible.
  await client.query(`SELECT pg_notify(${CHANNEL_SQL}, '')`);
  return event;
}

/**
 * Rows of the pool's outbox not yet published and the age of the oldest (0 when none): what
 * /metrics shows as events_outbox_unpublished and events_outbox_oldest_unpublished_seconds. The
 * partial index outbox_unpublished keeps it cheap however many published rows are retained.
 */
export async function outboxBacklog(pool: Queryable): Promise<{ rows: number; oldestSeconds: number }> {
  const { rows } = await pool.query<{ rows: number; oldest: number }>(
    `SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest
       FROM outbox WHERE published_at IS NULL`,
  );
  return { rows: rows[0]?.rows ?? 0, oldestSeconds: Math.max(0, rows[0]?.oldest ?? 0) };
}

export interface OutboxRelayOptions {
  pool: Pool;
  transport: EventTransport;
  logger?: EventLogger;
  /** Poll interval while NOTIFY is not being heard (listener down) or the last round failed. */
  pollMs?: number;
  /** Poll interval while the NOTIFY listener is up: only a safety net then. */
  listeningPollMs?: number;
  batch?: number;
  /** Published rows are kept this long (for inspection), then deleted. */
  retentionMs?: number;
}

export interface OutboxRelay {
  stop(): Promise<void>;
  /** Publishes everything pending now; rejects if some of it could not be published. */
  flush(): Promise<void>;
}

export function startOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { pool, transport } = opts;
  const logger = opts.logger ?? fallbackLogger;
  const pollMs = opts.pollMs ?? 200;
  const listeningPollMs = opts.listeningPollMs ?? 5_000;
  const batch = opts.batch ?? 100;
  const retentionMs = opts.retentionMs ?? 24 * 3600_000;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;
  let lastCleanup = 0;
  let listener: pg.Client | null = null;
  let listenerRetry: NodeJS.Timeout | null = null;
  let poller: NodeJS.Timeout | null = null;
  let lastRoundFailed = false;
  /** While the database is away every round fails alike: the first failure is logged, then a summary every FAILURE_LOG_EVERY_MS. */
  let failingSince: number | null = null;
  let failures = 0;
  let lastFailureLog = 0;

  /**
   * One batch. The advisory lock lets a single replica publish at a time, which keeps the
   * publish order equal to the write order (SKIP LOCKED alone would let a second replica publish
   * later rows while the first is still busy with earlier ones). SKIP LOCKED still matters for
   * rows someone else holds, e.g. a flush() from another replica waiting for this one.
   * Returns how many rows were published, or -1 when another replica holds the lock.
   */
  async function round(wait: boolean): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (wait) {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('wb-outbox:' || current_schema()))`);
      } else {
        const r = await client.query(
          `SELECT pg_try_advisory_xact_lock(hashtext('wb-outbox:' || current_schema())) AS ok`,
        );
        if (!r.rows[0].ok) {
          await client.query('ROLLBACK');
          return -1;
        }
      }
      const { rows } = await client.query<{ id: string; payload: DomainEvent }>(
        `SELECT id, payload FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      const done: string[] = [];
      let failure: unknown = null;
      for (const row of rows) {
        try {
          await transport.publish(row.payload);
          done.push(row.id);
        } catch (err) {
          // Stop here: publishing later rows first would reorder events.
          failure = err;
          break;
        }
      }
      if (done.length > 0) await client.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [done]);
      await client.query('COMMIT');
      if (failure) throw failure;
      return done.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async function cleanup() {
    if (Date.now() - lastCleanup < Math.min(retentionMs, 60_000)) return;
    lastCleanup = Date.now();
    await pool.query(`DELETE FROM outbox WHERE published_at IS NOT NULL AND published_at < now() - $1 * interval '1 millisecond'`, [
      retentionMs,
    ]);
  }

  /**
   * Rounds until the outbox is drained; never two at once in this process. Resolves with the rows
   * published, or -1 when nothing was published and the last round found the lock held by another
   * (a flush() here, another replica): such a round proves nothing about the broker, so it must not
   * end an outage.
   */
  function kick(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      let contended: boolean;
      try {
        do {
          again = false;
          for (;;) {
            const n = await round(false);
            // The last round decides: one that got the lock and found nothing is a real success.
            contended = n < 0;
            if (n <= 0) break;
            total += n;
            if (n < batch) break;
          }
        } while (again && !stopped);
        if (contended && total === 0) return -1;
        await cleanup();
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  /** A failed round, from a tick or a flush(): retry soon, and log an outage once, then a summary now and then. */
  function noteFailure(err: unknown) {
    const wasFailing = lastRoundFailed;
    lastRoundFailed = true;
    failures++;
    // The poll may be sleeping its long interval (the round came from NOTIFY or flush): retry soon instead.
    if (!wasFailing) schedulePoll();
    const now = Date.now();
    if (failingSince === null) {
      failingSince = lastFailureLog = now;
      logger.warn({ err }, 'outbox relay round failed; will retry');
    } else if (now - lastFailureLog >= FAILURE_LOG_EVERY_MS) {
      lastFailureLog = now;
      logger.warn({ failures, ms: now - failingSince, err: (err as Error)?.message }, 'outbox relay still failing; retrying');
    }
  }

  function tick() {
    kick().then(
      (n) => {
        if (n < 0) return;
        lastRoundFailed = false;
        if (failingSince !== null) {
          logger.info({ failures, ms: Date.now() - failingSince }, 'outbox relay recovered');
          failingSince = null;
          failures = 0;
        }
      },
      (err) => noteFailure(err),
    );
  }

  /**
   * Every write NOTIFYs at commit, so while the listener is up polling is only a safety net; fast
   * polling (several services, four statements a round) cost CPU on every hot path of the embedded mode.
   */
  function schedulePoll() {
    if (stopped) return;
    if (poller) clearTimeout(poller);
    poller = setTimeout(
      () => {
        tick();
        schedulePoll();
      },
      listener && !lastRoundFailed ? listeningPollMs : pollMs,
    );
  }

  /**
   * LISTEN holds a connection for the relay's lifetime, so it gets its own client (same settings
   * as the pool) instead of pinning one of the pool's and leaving listeners on it.
   */
  async function listen() {
    if (stopped) return;
    const client = new pg.Client(pool.options);
    try {
      client.on('error', (err) => {
        logger.warn({ err }, 'outbox listener lost its connection; polling until it is back');
        if (listener === client) listener = null;
        client.end().catch(() => {});
        scheduleListen();
      });
      await client.connect();
      const { rows } = await client.query(`SELECT ${CHANNEL_SQL} AS channel`);
      const channel = rows[0].channel as string;
      client.on('notification', (n) => {
        if (n.channel === channel) tick();
      });
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      if (stopped) {
        await client.end();
        return;
      }
      listener = client;
      tick(); // anything written before LISTEN took effect
    } catch (err) {
      client.end().catch(() => {});
      logger.warn({ err }, 'outbox listener could not start; polling until it can');
      scheduleListen();
    }
  }

  function scheduleListen() {
    if (stopped || listenerRetry) return;
    listenerRetry = setTimeout(() => {
      listenerRetry = null;
      void listen();
    }, 2_000);
  }

  schedulePoll();
  void listen();
  tick();

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      if (poller) clearTimeout(poller);
      if (listenerRetry) clearTimeout(listenerRetry);
      if (listener) {
        const l = listener;
        listener = null;
        await l.end().catch(() => {});
      }
      await running?.catch(() => {});
    },

    async flush() {
      // Wait for an in-flight round first, so rows it is holding are seen as published.
      await running?.catch(() => {});
      for (;;) {
        const n = await round(true).catch((err: unknown) => {
          noteFailure(err);
          throw err;
        });
        if (n < batch) return;
      }
    },
  };
}
