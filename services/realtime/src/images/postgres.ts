import { fileURLToPath } from 'node:url';
import { migrate, type Pool } from '@wb/db';
import type { ImageType } from './sniff.ts';
import type { ImageStore } from './store.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** The embedded mode's image store, in the realtime schema beside the documents. */
export function createPostgresImageStore(pool: Pool, schema = 'realtime'): ImageStore {
  return {
    async init() {
      await migrate(pool, { schema, dir: MIGRATIONS_DIR });
    },
    async put(boardId, image) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO "${schema}".images(hash, mime, size, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
          [image.hash, image.mime, image.bytes.length, image.bytes],
        );
        await client.query(
          `INSERT INTO "${schema}".board_images(board_id, hash) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [boardId, image.hash],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async get(boardId, hash) {
      const { rows } = await pool.query<{ mime: ImageType; bytes: Buffer }>(
        `SELECT i.mime, i.bytes FROM "${schema}".board_images b JOIN "${schema}".images i USING (hash)
          WHERE b.board_id = $1 AND b.hash = $2`,
        [boardId, hash],
      );
      return rows[0] ? { hash, mime: rows[0].mime, bytes: rows[0].bytes } : null;
    },
    async deleteBoard(boardId) {
      await pool.query(`DELETE FROM "${schema}".board_images WHERE board_id = $1`, [boardId]);
    },
    async close() {},
  };
}
