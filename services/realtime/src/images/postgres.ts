import { fileURLToPath } from 'node:url';
import { migrate, type Pool } from '@wb/db';
import type { ImageType } from './sniff.ts';
import { displayKey, type ImageStore } from './store.ts';

const FOREIGN_KEY_VIOLATION = '23503';
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** The embedded mode's image store, in the realtime schema beside the documents. */
export function createPostgresImageStore(pool: Pool, schema = 'realtime'): ImageStore {
  return {
    async init() {
      await migrate(pool, { schema, dir: MIGRATIONS_DIR });
    },
    async put(boardId, image, display) {
      // A board deleted at the same moment may remove the bytes between the two inserts (the link's
      // foreign key then fails): once more from the start stores them again.
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO "${schema}".images(hash, mime, size, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
            [image.hash, image.mime, image.bytes.length, image.bytes],
          );
          if (display)
            await client.query(
              `INSERT INTO "${schema}".images(hash, mime, size, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
              [displayKey(image.hash), display.mime, display.bytes.length, display.bytes],
            );
          await client.query(
            `INSERT INTO "${schema}".board_images(board_id, hash) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
            [boardId, image.hash],
          );
          await client.query('COMMIT');
          return;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          if ((err as { code?: string }).code !== FOREIGN_KEY_VIOLATION || attempt >= 3) throw err;
        } finally {
          client.release();
        }
      }
    },
    async get(boardId, hash, opts) {
      // The display variant first (false sorts before true) unless the original is asked for.
      const { rows } = await pool.query<{ mime: ImageType; bytes: Buffer }>(
        `SELECT i.mime, i.bytes FROM "${schema}".board_images b
           JOIN "${schema}".images i ON i.hash = b.hash OR (NOT $3 AND i.hash = $4)
          WHERE b.board_id = $1 AND b.hash = $2
          ORDER BY i.hash = b.hash LIMIT 1`,
        [boardId, hash, opts?.original === true, displayKey(hash)],
      );
      return rows[0] ? { hash, mime: rows[0].mime, bytes: rows[0].bytes } : null;
    },
    async deleteBoard(boardId) {
      // One statement: the links go, then the bytes of those images no remaining link points at.
      await pool.query(
        `WITH gone AS (DELETE FROM "${schema}".board_images WHERE board_id = $1 RETURNING hash)
         DELETE FROM "${schema}".images i
          WHERE (i.hash IN (SELECT hash FROM gone) OR i.hash IN (SELECT hash || '-display' FROM gone))
            AND NOT EXISTS (SELECT 1 FROM "${schema}".board_images b
                             WHERE b.hash = left(i.hash, 64) AND b.board_id <> $1)`,
        [boardId],
      );
    },
    async hasBytes(hash) {
      const { rowCount } = await pool.query(`SELECT 1 FROM "${schema}".images WHERE hash = $1`, [hash]);
      return (rowCount ?? 0) > 0;
    },
    async close() {},
  };
}
