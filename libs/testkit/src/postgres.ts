import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@wb/db';
import { tempDir } from './processes.ts';
import { SHARED_PG_ENV } from './shared-env.ts';

export interface StartPostgresOptions {
  /**
   * A server of its own, for tests that stop, kill or reconfigure PostgreSQL. Otherwise a test
   * file gets a fresh database on the run's shared server (libs/testkit/src/global-setup.ts).
   */
  dedicated?: boolean;
}

/**
 * A real PostgreSQL for one test file: a new empty database on the run's shared server when Vitest's
 * global set-up started one, else a fresh server in a temporary directory (about a second).
 * `stop()` drops that database (or stops that server and removes its directory).
 */
export async function startPostgres(opts: StartPostgresOptions = {}): Promise<EmbeddedPostgresHandle> {
  const shared = process.env[SHARED_PG_ENV];
  if (!shared || opts.dedicated) {
    const dir = await tempDir('pg');
    const server = await startEmbeddedPostgres({ dataDir: `${dir}/data` });
    return {
      ...server,
      async stop() {
        await server.stop();
        // Outside a Vitest run (the benches) nobody else removes it: 100–500 MiB a server.
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const url = await createDatabase(shared);
  const name = new URL(url).pathname.slice(1);
  return {
    url,
    port: Number(new URL(url).port),
    async stop() {
      const client = new pg.Client({ connectionString: shared });
      await client.connect();
      try {
        // FORCE: pools the test forgot to close must not keep the database (and the run) alive.
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A new empty database on a running server, so test files never see each other's rows. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
