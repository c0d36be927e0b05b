import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres } from '@wb/testkit';
import {
  createPool,
  freePort,
  migrate,
  pingDatabase,
  QUERY_TIMEOUT_MESSAGE,
  startEmbeddedPostgres,
  withTransaction,
  type EmbeddedPostgresHandle,
  type Pool,
} from '../src/index.ts';

let server: EmbeddedPostgresHandle;
const pools: Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => {})));
  await server?.stop();
});

async function freshPool(schema: string, url?: string): Promise<Pool> {
  const pool = createPool({ url: url ?? (await createDatabase(server.url)), schema, max: 4 });
  pools.push(pool);
  return pool;
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wb-migrations-'));
  for (const [name, sql] of Object.entries(files)) await writeFile(path.join(dir, name), sql);
  return dir;
}

describe('migrate', () => {
  it('applies NNN_*.sql files once each, in order, inside the schema', async () => {
    const pool = await freshPool('svc');
    const dir = await migrationsDir({
      '010_third.sql': 'ALTER TABLE items ADD COLUMN c int;',
      '001_first.sql': 'CREATE TABLE items (id int PRIMARY KEY);',
      '002_second.sql': 'ALTER TABLE items ADD COLUMN b int; INSERT INTO items(id) VALUES (1);',
      'README.md': 'not a migration',
      '003_notes.txt': 'not a migration either',
    });
    expect(await migrate(pool, { schema: 'svc', dir })).toEqual([
      '001_first.sql',
      '002_second.sql',
      '010_third.sql',
    ]);
    expect(await migrate(pool, { schema: 'svc', dir })).toEqual([]);

    const cols = await pool.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'svc' AND table_name = 'items' ORDER BY ordinal_position`,
    );
    expect(cols.rows.map((r) => r.column_name)).toEqual(['id', 'b', 'c']);
    const names = await pool.query('SELECT name FROM svc.schema_migrations ORDER BY applied_at, name');
    expect(names.rows.map((r) => r.name)).toEqual(['001_first.sql', '002_second.sql', '010_third.sql']);
    expect((await pool.query('SELECT count(*) AS n FROM svc.items')).rows[0].n).toBe(1);
  });

  it('applies only the new files on a later run', async () => {
    const pool = await freshPool('later');
    const dir = await migrationsDir({ '001_a.sql': 'CREATE TABLE a (id int);' });
    expect(await migrate(pool, { schema: 'later', dir })).toEqual(['001_a.sql']);
    await writeFile(path.join(dir, '002_b.sql'), 'CREATE TABLE b (id int);');
    expect(await migrate(pool, { schema: 'later', dir })).toEqual(['002_b.sql']);
  });

  it('three replicas migrating at once apply each file exactly once (advisory lock)', async () => {
    const url = await createDatabase(server.url);
    const replicas = await Promise.all([1, 2, 3].map(() => freshPool('race', url)));
    // Neither statement is idempotent: a second application would fail or add a second row.
    const dir = await migrationsDir({
      '001_slow.sql':
        'CREATE TABLE runs (n serial PRIMARY KEY); SELECT pg_sleep(0.5); INSERT INTO runs DEFAULT VALUES;',
      '002_more.sql': 'CREATE TABLE more (id int); INSERT INTO runs DEFAULT VALUES;',
    });
    const results = await Promise.all(replicas.map((p) => migrate(p, { schema: 'race', dir })));
    expect(results.flat().sort()).toEqual(['001_slow.sql', '002_more.sql']);
    // The winner applied both files; the others waited on the lock and then had nothing to do.
    expect(results.filter((r) => r.length === 2)).toHaveLength(1);
    expect(results.filter((r) => r.length === 0)).toHaveLength(2);
    expect((await replicas[0].query('SELECT count(*) AS n FROM race.runs')).rows[0].n).toBe(2);
  });

  it('a failing migration rolls back entirely, names the file, and keeps the earlier ones', async () => {
    const pool = await freshPool('broken');
    const dir = await migrationsDir({
      '001_ok.sql': 'CREATE TABLE ok (id int);',
      '002_bad.sql': 'CREATE TABLE half (id int); INSERT INTO ok VALUES (1); SELEC oops;',
      '003_never.sql': 'CREATE TABLE never (id int);',
    });
    await expect(migrate(pool, { schema: 'broken', dir })).rejects.toThrow(/broken\/002_bad\.sql failed/);

    const tables = await pool.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'broken' ORDER BY 1`,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(['ok', 'schema_migrations']);
    expect((await pool.query('SELECT count(*) AS n FROM broken.ok')).rows[0].n).toBe(0);
    const names = await pool.query('SELECT name FROM broken.schema_migrations');
    expect(names.rows.map((r) => r.name)).toEqual(['001_ok.sql']);

    // The lock was released: after a fix the next start continues where it stopped.
    await writeFile(path.join(dir, '002_bad.sql'), 'CREATE TABLE half (id int);');
    expect(await migrate(pool, { schema: 'broken', dir })).toEqual(['002_bad.sql', '003_never.sql']);
  });
});

describe('pool helpers', () => {
  it('withTransaction commits on success and rolls back on a throw, rethrowing the error', async () => {
    const pool = await freshPool('tx');
    await pool.query('CREATE SCHEMA tx; CREATE TABLE tx.t (id int PRIMARY KEY)');

    expect(
      await withTransaction(
        pool,
        async (c) => (await c.query('INSERT INTO t VALUES (1) RETURNING id')).rows[0].id,
      ),
    ).toBe(1);

    const boom = new Error('boom');
    await expect(
      withTransaction(pool, async (c) => {
        await c.query('INSERT INTO t VALUES (2)');
        await c.query('INSERT INTO t VALUES (3)');
        throw boom;
      }),
    ).rejects.toBe(boom);
    // An SQL error mid-transaction rolls back too.
    await expect(
      withTransaction(pool, async (c) => {
        await c.query('INSERT INTO t VALUES (4)');
        await c.query('INSERT INTO t VALUES (1)');
      }),
    ).rejects.toThrow(/duplicate key/);

    expect((await pool.query('SELECT id FROM t ORDER BY id')).rows.map((r) => r.id)).toEqual([1]);
    // Every client went back to the pool in a clean state.
    expect(pool.totalCount).toBe(pool.idleCount);
  });

  it('search_path points at the schema; bigint comes back as a number, timestamptz as ISO text', async () => {
    const pool = await freshPool('typed');
    await pool.query('CREATE SCHEMA typed; CREATE TABLE typed.v (n bigint, at timestamptz)');
    await pool.query(`INSERT INTO v VALUES (9007199254740991, '2024-05-01T10:00:00Z')`);
    const row = (await pool.query('SELECT n, at, current_schema() AS s FROM v')).rows[0];
    expect(row).toEqual({ n: 9007199254740991, at: '2024-05-01T10:00:00.000Z', s: 'typed' });
  });

  it('pingDatabase answers true while the server is up and false when it is unreachable', async () => {
    expect(await pingDatabase(await freshPool('ping'))).toBe(true);
    const dead = createPool({ url: 'postgres://postgres:postgres@127.0.0.1:1/none', schema: 'x' });
    pools.push(dead);
    expect(await pingDatabase(dead)).toBe(false);
  });
});

describe('a server that does not answer', () => {
  it('fails a query after the pool\'s time limit, destroys a transaction\'s stuck connection, and recovers', async () => {
    const url = await createDatabase(server.url);
    const pool = createPool({ url, schema: 'public', max: 2, queryTimeoutMs: 500 });
    pools.push(pool);
    await pool.query('CREATE TABLE held (v int); INSERT INTO held VALUES (1)');
    // Another session holds the table: every query on it waits, as on a stalled server.
    const holder = await pool.connect();
    await holder.query('BEGIN; LOCK TABLE held IN ACCESS EXCLUSIVE MODE');
    try {
      await expect(pool.query('SELECT v FROM held')).rejects.toThrow(QUERY_TIMEOUT_MESSAGE);
      const stuck = withTransaction(pool, (c) => c.query('SELECT v FROM held'));
      await expect(stuck).rejects.toThrow(QUERY_TIMEOUT_MESSAGE);
      // The transaction's connection still waits for its answer: it must not be lent out again.
      expect(pool.totalCount).toBe(1);
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    expect((await pool.query('SELECT v FROM held')).rows).toEqual([{ v: 1 }]);
    expect(await withTransaction(pool, async (c) => (await c.query('SELECT v FROM held')).rows)).toEqual([{ v: 1 }]);
  });

  it('lets a migration run past the pool\'s time limit', async () => {
    const pool = createPool({ url: await createDatabase(server.url), schema: 'slow', max: 2, queryTimeoutMs: 300 });
    pools.push(pool);
    const dir = await migrationsDir({ '001_slow.sql': 'SELECT pg_sleep(1); CREATE TABLE done (v int);' });
    expect(await migrate(pool, { schema: 'slow', dir })).toEqual(['001_slow.sql']);
  });
});

describe('embedded PostgreSQL', () => {
  it('keeps its data across a stop and a start on the same data directory', async () => {
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'wb-embedded-')), 'data');
    const first = await startEmbeddedPostgres({ dataDir, database: 'keep' });
    const p1 = createPool({ url: first.url, schema: 'public' });
    await p1.query('CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
    await p1.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, database: 'keep' });
    try {
      expect(second.url).toContain('/keep');
      const p2 = createPool({ url: second.url, schema: 'public' });
      expect((await p2.query('SELECT v FROM kept')).rows).toEqual([{ v: 'survives' }]);
      await p2.end();
    } finally {
      await second.stop();
    }
  });
});

describe('embedded PostgreSQL that cannot start', () => {
  it('says what the server said, instead of rejecting with nothing', async () => {
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'wb-embedded-busy-')), 'data');
    const running = await startEmbeddedPostgres({ dataDir });
    try {
      // A second server on the same data directory exits at once: the first one holds its lock.
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/exited before it was ready:[\s\S]*postmaster\.pid/);
    } finally {
      await running.stop();
    }
  });
});

describe('freePort', () => {
  it('gives ports below the ephemeral range (where listen(0) takes them) that can be listened on', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      const srv = net.createServer();
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => srv.close(resolve));
    }
  });
});
