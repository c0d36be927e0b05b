import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@wb/db';
import { tempDir } from './processes.ts';

/** A fresh real PostgreSQL in a temporary directory (about a second to start). */
export async function startPostgres(): Promise<EmbeddedPostgresHandle> {
  return startEmbeddedPostgres({ dataDir: `${await tempDir('pg')}/data` });
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
