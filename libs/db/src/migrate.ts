import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { QueryConfig } from 'pg';
import type { Pool } from './pool.ts';

/** A migration may build an index over a large table, or wait for another replica's migration. */
const MIGRATION_QUERY_TIMEOUT_MS = 60 * 60_000;
/** A query with the migrations' time limit (node-postgres reads `query_timeout` per query; @types/pg omits it). */
const longQuery = (text: string, values?: unknown[]): QueryConfig =>
  Object.assign({ text, values }, { query_timeout: MIGRATION_QUERY_TIMEOUT_MS });

/**
 * Applies `dir/NNN_name.sql` files in order, once each, inside the service's schema. An advisory
 * lock keyed by the schema makes concurrent replicas wait for each other instead of racing.
 */
export async function migrate(pool: Pool, opts: { schema: string; dir: string }): Promise<string[]> {
  const files = (await readdir(opts.dir)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query(longQuery('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${opts.schema}`]));
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${opts.schema}".schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query(`SELECT name FROM "${opts.schema}".schema_migrations`)).rows.map((r) => r.name as string),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(opts.dir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO "${opts.schema}", public`);
        await client.query(longQuery(sql));
        await client.query(`INSERT INTO "${opts.schema}".schema_migrations(name) VALUES ($1)`, [file]);
        await client.query('COMMIT');
        applied.push(file);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${opts.schema}/${file} failed: ${(err as Error).message}`, { cause: err });
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${opts.schema}`]).catch(() => {});
    client.release();
  }
  return applied;
}
