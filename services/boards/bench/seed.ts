/**
 * Seeds one user with 10,000 boards in 200 folders (40 roots × 4 subfolders each + the roots) and
 * 50 tags, for the GET /boards benchmark. Set-based SQL (generate_series), so it takes seconds.
 *
 *   DATABASE_URL=postgres://... [BENCH_USER_ID=<uuid>] [BENCH_USER_NAME=...] node --import tsx services/boards/bench/seed.ts
 *
 * Prints {userId, boards, folders, tags} as JSON. Re-running for the same user replaces its data.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { TAG_PALETTE } from '@wb/contracts';
import { createPool, migrate, withTransaction, type Pool } from '@wb/db';
import { SCHEMA } from '../src/app.ts';

export interface SeedOptions {
  userId?: string;
  userName?: string;
  boards?: number;
  rootFolders?: number;
  subfoldersPerRoot?: number;
  tags?: number;
}

export async function seedBoardsBenchmark(pool: Pool, opts: SeedOptions = {}) {
  const userId = opts.userId ?? randomUUID();
  const boards = opts.boards ?? 10_000;
  const roots = opts.rootFolders ?? 40;
  const perRoot = opts.subfoldersPerRoot ?? 4;
  const tags = opts.tags ?? 50;
  await migrate(pool, { schema: SCHEMA, dir: fileURLToPath(new URL('../migrations', import.meta.url)) });

  await withTransaction(pool, async (db) => {
    await db.query('DELETE FROM boards WHERE owner_id = $1', [userId]);
    await db.query('DELETE FROM folders WHERE owner_id = $1', [userId]);
    await db.query('DELETE FROM tags WHERE owner_id = $1', [userId]);
    await db.query(
      'INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name',
      [userId, opts.userName ?? 'Бенчмарк'],
    );
    await db.query(
      `INSERT INTO folders (owner_id, name, parent_id, color, sort_order)
       SELECT $1, 'Папка ' || g, NULL, '#3B82F6', g - 1 FROM generate_series(1, $2::int) g`,
      [userId, roots],
    );
    await db.query(
      `INSERT INTO folders (owner_id, name, parent_id, color, sort_order)
       SELECT $1, r.name || '.' || k, r.id, '#10B981', k - 1
         FROM (SELECT id, name FROM folders WHERE owner_id = $1 AND parent_id IS NULL) r, generate_series(1, $2::int) k`,
      [userId, perRoot],
    );
    await db.query(
      `INSERT INTO tags (owner_id, name, color)
       SELECT $1, 'Тег ' || lpad(g::text, 3, '0'), ($3::text[])[1 + (g - 1) % array_length($3::text[], 1)]
         FROM generate_series(1, $2::int) g`,
      [userId, tags, [...TAG_PALETTE]],
    );
    // Every tenth board stays at the root; the rest spread evenly over all folders (g - g/10 numbers
    // them 1, 2, 3, … without gaps: indexing by g alone left every folder at a multiple of ten empty,
    // and the test's folder was one of them one run in ten). Titles mix Cyrillic and Latin for search.
    await db.query(
      `WITH f AS (SELECT array_agg(id ORDER BY id) AS ids FROM folders WHERE owner_id = $1)
       INSERT INTO boards (owner_id, title, folder_id, background, created_at, updated_at)
       SELECT $1,
              (ARRAY['Доска', 'Roadmap', 'Планирование спринта', 'Ретроспектива', 'Kanban', 'Идеи'])[1 + g % 6] || ' ' || g,
              CASE WHEN g % 10 = 0 THEN NULL ELSE f.ids[1 + (g - g / 10) % array_length(f.ids, 1)] END,
              (ARRAY['white', 'grid', 'dots', 'lines'])[1 + g % 4],
              now() - g * interval '1 minute', now() - g * interval '30 seconds'
         FROM f, generate_series(1, $2::int) g`,
      [userId, boards],
    );
    // One tag per board, a second on every third board.
    await db.query(
      `WITH b AS (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM boards WHERE owner_id = $1),
            t AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS tn FROM tags WHERE owner_id = $1)
       INSERT INTO board_tags (board_id, tag_id)
       SELECT b.id, t.id FROM b JOIN t ON t.tn = b.rn % $2 OR (b.rn % 3 = 0 AND t.tn = (b.rn * 7) % $2)
       ON CONFLICT DO NOTHING`,
      [userId, tags],
    );
  });
  await pool.query('ANALYZE boards; ANALYZE folders; ANALYZE tags; ANALYZE board_tags');
  const counts = await pool.query<{ boards: number; folders: number; tags: number }>(
    `SELECT (SELECT count(*) FROM boards WHERE owner_id = $1)::int AS boards,
            (SELECT count(*) FROM folders WHERE owner_id = $1)::int AS folders,
            (SELECT count(*) FROM tags WHERE owner_id = $1)::int AS tags`,
    [userId],
  );
  return { userId, ...counts.rows[0] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('DATABASE_URL is required\n');
    process.exit(1);
  }
  const pool = createPool({ url, schema: SCHEMA });
  try {
    const result = await seedBoardsBenchmark(pool, { userId: process.env.BENCH_USER_ID, userName: process.env.BENCH_USER_NAME });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await pool.end();
  }
}
