import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, pingDatabase, withTransaction, type Pool } from '@wb/db';
import type { DocumentStore, NewState, SnapshotRow, StoredDocument } from './types.ts';

export const REALTIME_SCHEMA = 'realtime';
const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export interface PostgresStoreOptions {
  /**
   * Whether the group commit's append waits for PostgreSQL's WAL flush to disk (synchronous_commit).
   * Off (the default, UPDATE_LOG_FSYNC): the append is committed, readable by every replica and safe
   * from any crash of ours before anything is shown, and on disk within PostgreSQL's
   * wal_writer_delay (200 ms; at most three times that). See docs/decisions.md.
   */
  fsync?: boolean;
}

/** The embedded mode's store: schema `realtime`, written in transactions (Postgres has them). */
export function createPostgresStore(pool: Pool, opts: PostgresStoreOptions = {}): DocumentStore {
  // set_config(..., true) lasts for this statement's own transaction only: every other write of the
  // service (compaction, snapshots, images) keeps the session's synchronous commit.
  const nowait = opts.fsync ? '' : `, (SELECT set_config('synchronous_commit', 'off', true)) AS unflushed`;
  const suffix = opts.fsync ? '' : '_nowait';
  // The updates travel as bytea in binary (node-postgres sends a Buffer parameter as is): as a
  // bytea[] they were spelled out in hex inside an array literal, which took the client about a
  // quarter more CPU per append and PostgreSQL the parsing back. Most group commits carry one
  // board, so that case has a statement of its own. Its FROM is there for `nowait` to join onto.
  const appendOne = {
    name: `realtime_append_one${suffix}`,
    text: `INSERT INTO board_updates (board_id, update) SELECT $1::text, $2::bytea FROM (SELECT 1) AS one${nowait}`,
  };
  // Several: the updates back to back in one bytea, each cut out by its offset and length; unnest
  // keeps the order of ids.
  const appendMany = {
    name: `realtime_append_many${suffix}`,
    text: `INSERT INTO board_updates (board_id, update)
           SELECT u.board_id, substring($2::bytea FROM u.start FOR u.length)
           FROM unnest($1::text[], $3::int[], $4::int[]) AS u(board_id, start, length)${nowait}`,
  };
  const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return {
    async init() {
      await migrate(pool, { schema: REALTIME_SCHEMA, dir: MIGRATIONS });
    },

    async load(boardId): Promise<StoredDocument> {
      // One snapshot of both tables, so a compaction in between cannot make the log look empty.
      return withTransaction(pool, async (c) => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const doc = await c.query('SELECT state, version, hash FROM board_documents WHERE board_id = $1', [boardId]);
        const log = await c.query('SELECT id, update FROM board_updates WHERE board_id = $1 ORDER BY id', [boardId]);
        const row = doc.rows[0];
        return {
          state: row ? bytes(row.state) : null,
          version: row?.version ?? 0,
          hash: row?.hash ?? null,
          log: log.rows.map((r) => ({ id: String(r.id), update: bytes(r.update) })),
        };
      });
    },

    async storedVersion(boardId) {
      const { rows } = await pool.query('SELECT version FROM board_documents WHERE board_id = $1', [boardId]);
      return rows[0]?.version ?? 0;
    },

    async append(boardId, update) {
      await pool.query('INSERT INTO board_updates (board_id, update) VALUES ($1, $2)', [boardId, Buffer.from(update)]);
    },

    async appendMany(entries) {
      // One statement, one round trip, one commit. Named: every group commit runs one of the two,
      // so each connection parses and plans them once.
      if (entries.length === 0) return;
      if (entries.length === 1) {
        await pool.query({ ...appendOne, values: [entries[0]!.boardId, asBuffer(entries[0]!.update)] });
        return;
      }
      const starts: number[] = [];
      const lengths: number[] = [];
      let at = 1; // substring() counts from 1
      for (const e of entries) {
        starts.push(at);
        lengths.push(e.update.byteLength);
        at += e.update.byteLength;
      }
      const bytes = Buffer.concat(entries.map((e) => e.update));
      await pool.query({ ...appendMany, values: [entries.map((e) => e.boardId), bytes, starts, lengths] });
    },

    async saveState(boardId, s: NewState) {
      return withTransaction(pool, async (c) => {
        const version = s.expectedVersion + 1;
        const state = Buffer.from(s.state);
        const r =
          s.expectedVersion === 0
            ? await c.query(
                `INSERT INTO board_documents (board_id, state, version, hash, objects_count) VALUES ($1, $2, 1, $3, $4)
                 ON CONFLICT (board_id) DO NOTHING`,
                [boardId, state, s.hash, s.objectsCount],
              )
            : await c.query(
                `UPDATE board_documents SET state = $2, version = $3, hash = $4, objects_count = $5, updated_at = now()
                 WHERE board_id = $1 AND version = $6`,
                [boardId, state, version, s.hash, s.objectsCount, s.expectedVersion],
              );
        if (r.rowCount === 0) return null;
        await c.query(
          'INSERT INTO board_snapshots (id, board_id, version, blob_size, objects_count, status) VALUES ($1, $2, $3, $4, $5, $6)',
          [randomUUID(), boardId, version, s.state.byteLength, s.objectsCount, s.status],
        );
        if (s.logIds.length > 0) {
          await c.query('DELETE FROM board_updates WHERE board_id = $1 AND id = ANY($2::bigint[])', [boardId, s.logIds]);
        }
        return version;
      });
    },

    async deleteLog(boardId, ids) {
      if (ids.length === 0) return;
      await pool.query('DELETE FROM board_updates WHERE board_id = $1 AND id = ANY($2::bigint[])', [boardId, ids]);
    },

    async listSnapshots(boardId): Promise<SnapshotRow[]> {
      const r = await pool.query(
        `SELECT id, version, created_at, blob_size, status FROM board_snapshots WHERE board_id = $1 ORDER BY version DESC, created_at DESC`,
        [boardId],
      );
      return r.rows as SnapshotRow[];
    },

    async deleteEmptySnapshots(boardId) {
      const r = await pool.query(`DELETE FROM board_snapshots WHERE board_id = $1 AND status = 'empty'`, [boardId]);
      return r.rowCount ?? 0;
    },

    async deleteBoard(boardId) {
      await withTransaction(pool, async (c) => {
        await c.query('DELETE FROM board_updates WHERE board_id = $1', [boardId]);
        await c.query('DELETE FROM board_documents WHERE board_id = $1', [boardId]);
        await c.query('DELETE FROM board_snapshots WHERE board_id = $1', [boardId]);
      });
    },

    async isProcessed(consumer, eventId) {
      const r = await pool.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', [consumer, eventId]);
      return (r.rowCount ?? 0) > 0;
    },

    async markProcessed(consumer, eventId) {
      await pool.query('INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [consumer, eventId]);
    },

    ping: () => pingDatabase(pool),
    async close() {
      // The pool belongs to whoever created it.
    },
  };
}
