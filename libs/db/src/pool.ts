import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;

// Timestamps and bigints come back as strings: JSON answers carry ISO strings, and counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());

/**
 * How long a query may wait for the server's answer. A database that is up but hung (stopped,
 * stalled, cut off without a reset) otherwise held every request that touched it for as long as
 * it lasted; after this the query fails and the request answers 503 SERVICE_UNAVAILABLE.
 * Migrations run with their own, much longer limit (migrate.ts).
 */
export const QUERY_TIMEOUT_MS = 10_000;
/** node-postgres's message for a query that hit QUERY_TIMEOUT_MS. */
export const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

export interface PoolOptions {
  url: string;
  /** Each service works in its own schema; search_path points there so SQL stays unqualified. */
  schema: string;
  max?: number;
  applicationName?: string;
  queryTimeoutMs?: number;
}

export function createPool(opts: PoolOptions): Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? opts.schema,
    options: `-c search_path=${opts.schema},public`,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    query_timeout: opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` in one transaction; rolls back on any throw. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection whose query timed out is still waiting for that answer, and one that cannot
    // roll back is lost: either is destroyed instead of going back to the pool for the next caller.
    if ((err as Error)?.message === QUERY_TIMEOUT_MESSAGE) broken = true;
    else broken = await client.query('ROLLBACK').then(() => false, () => true);
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Checks the database answers; used by /ready. */
export async function pingDatabase(pool: Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
