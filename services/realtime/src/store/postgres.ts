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
  // The stored state (id NULL, first) and then the log in order, from one snapshot.
  const loadDocument = {
    name: 'realtime_load_document',
    text: `SELECT NULL::bigint AS id, state AS data, version, hash FROM board_documents WHERE board_id = $1
           UNION ALL
           SELECT id, update, NULL, NULL FROM board_updates WHERE board_id = $1
           ORDER BY id NULLS FIRST`,
  };
  // $1 board, $2 state, $3 new version, $4 hash, $5 objects, $6 expected version, $7 snapshot id,
  // $8 status, $9 log ids folded into the state.
  const afterSave = `,
    snapshot AS (
      INSERT INTO board_snapshots (id, board_id, version, blob_size, objects_count, status)
      SELECT $7::uuid, $1, version, octet_length($2::bytea), $5, $8 FROM saved
    ),
    folded AS (
      DELETE FROM board_updates WHERE board_id = $1 AND id = ANY($9::bigint[]) AND EXISTS (SELECT 1 FROM saved)
    )
    SELECT version FROM saved`;
  const saveFirstState = {
    name: 'realtime_save_first_state',
    text: `WITH saved AS (
      INSERT INTO board_documents (board_id, state, version, hash, objects_count)
      -- $6 is always 0 here; named so both statements take the same parameters.
      SELECT $1, $2, $3, $4, $5 WHERE $6::int = 0
      ON CONFLICT (board_id) DO NOTHING
      RETURNING version
    )${afterSave}`,
  };
  const saveNextState = {
    name: 'realtime_save_next_state',
    text: `WITH saved AS (
      UPDATE board_documents SET state = $2, version = $3, hash = $4, objects_count = $5, updated_at = now()
      WHERE board_id = $1 AND version = $6
      RETURNING version
    )${afterSave}`,
  };
  const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return {
    async init() {
      await migrate(pool, { schema: REALTIME_SCHEMA, dir: MIGRATIONS });
    },

    async load(boardId): Promise<StoredDocument> {
      // One statement sees one snapshot of both tables, so a compaction in between cannot make the
      // log look empty; and it is one round trip instead of a transaction's five (a board opens, and
      // every compaction reads it: on the embedded machine each round trip wakes the database on
      // the server's own cores).
      const { rows } = await pool.query({ ...loadDocument, values: [boardId] });
      const doc = rows[0]?.id === null ? rows[0] : undefined;
      return {
        state: doc ? bytes(doc.data) : null,
        version: doc?.version ?? 0,
        hash: doc?.hash ?? null,
        log: (doc ? rows.slice(1) : rows).map((r) => ({ id: String(r.id), update: bytes(r.data) })),
      };
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
      // The new state, its snapshot row and the folded log go in one statement (one transaction,
      // one round trip): the snapshot and the delete happen only when the version check passed.
      const state = Buffer.from(s.state);
      const { rows } = await pool.query({
        ...(s.expectedVersion === 0 ? saveFirstState : saveNextState),
        values: [boardId, state, s.expectedVersion + 1, s.hash, s.objectsCount, s.expectedVersion, randomUUID(), s.status, s.logIds],
      });
      return rows.length > 0 ? (rows[0].version as number) : null;
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
