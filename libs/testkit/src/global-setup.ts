/**
 * Vitest global set-up: one embedded PostgreSQL for the whole run. Test files then get a fresh
 * database on it from `startPostgres()` (about 50 ms instead of a second for a new server), so no
 * file sees another's rows and the run starts one server instead of one per file.
 * The address travels as WB_TEST_PG_URL, which the test workers inherit. Everything the run
 * writes to the temporary directory goes under one directory of its own, removed at the end
 * (run-tmpdir.ts).
 */
import { startEmbeddedPostgres } from '@wb/db';
import { tempDir } from './processes.ts';
import { useRunTmpdir } from './run-tmpdir.ts';
import { SHARED_PG_ENV } from './shared-env.ts';

export { SHARED_PG_ENV };

export default async function setup(): Promise<() => Promise<void>> {
  // Tests pay with billing's built-in test provider; a runner starts it only when this is set.
  process.env.PAYMENTS_TEST_PROVIDER ??= '1';
  if (process.env[SHARED_PG_ENV]) return async () => {}; // an outer run already shares one
  const removeRunTmpdir = await useRunTmpdir();
  const dir = await tempDir('pg-shared');
  const pg = await startEmbeddedPostgres({ dataDir: `${dir}/data`, database: 'postgres' });
  process.env[SHARED_PG_ENV] = pg.url;
  return async () => {
    delete process.env[SHARED_PG_ENV];
    await pg.stop();
    await removeRunTmpdir(); // with the server's directory in it
  };
}
