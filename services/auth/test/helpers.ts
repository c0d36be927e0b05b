import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import { createLogger, listen, parseConfig, type RunnableService } from '@wb/service-kit';
import { afterAll, beforeAll } from 'vitest';
import { callJson, createDatabase, startPostgres } from '@wb/testkit';
import { AuthConfigSchema, createAuthService } from '../src/app.ts';

export interface TestAuth {
  base: string;
  dbUrl: string;
  pool: Pool;
  service: RunnableService;
  transport: EventTransport;
  close(): Promise<void>;
}

/** An auth service on a fresh database (or `dbUrl`, to run a second replica on the same one). */
export async function startAuth(opts: { serverUrl?: string; dbUrl?: string; env?: Record<string, string> }): Promise<TestAuth> {
  const dbUrl = opts.dbUrl ?? (await createDatabase(opts.serverUrl!));
  const pool = createPool({ url: dbUrl, schema: 'auth', max: 20 });
  const transport = createInProcessTransport();
  const config = parseConfig(AuthConfigSchema, { DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', ...opts.env });
  const service = await createAuthService({ pool, transport, logger: createLogger('auth-test', 'silent'), config });
  await service.start();
  const server = await listen(service.app, 0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${server.port}`,
    dbUrl,
    pool,
    service,
    transport,
    async close() {
      await server.close();
      await service.stop();
      await transport.close();
      await pool.end();
    },
  };
}

export interface Answer {
  status: number;
  body: any;
}

export const call = (
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> => callJson(base, method, path, opts);

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++counter}@example.com`;

export async function register(base: string, over: Partial<{ email: string; password: string; name: string }> = {}) {
  const body = { email: uniqueEmail(), password: 'Secret123!', name: 'Иван Петров', ...over };
  const r = await call(base, 'POST', '/api/auth/register', { body });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { ...body, user: r.body.user, accessToken: r.body.accessToken as string, refreshToken: r.body.refreshToken as string };
}

/** Counts of every table a bad request must not touch. */
export async function snapshot(pool: Pool) {
  const r = await pool.query(`SELECT
    (SELECT count(*) FROM users) AS users,
    (SELECT count(*) FROM sessions) AS sessions,
    (SELECT count(*) FROM sessions WHERE revoked_at IS NOT NULL) AS revoked,
    (SELECT count(*) FROM refresh_tokens) AS tokens,
    (SELECT count(*) FROM refresh_tokens WHERE used_at IS NOT NULL) AS used,
    (SELECT count(*) FROM outbox) AS outbox,
    (SELECT md5(string_agg(u::text, ',' ORDER BY id)) FROM users u) AS users_hash`);
  return r.rows[0];
}

export async function outboxEvents(pool: Pool, type: string) {
  const r = await pool.query<{ payload: any }>('SELECT payload FROM outbox WHERE type = $1 ORDER BY seq', [type]);
  return r.rows.map((x) => x.payload);
}

/**
 * Two auth replicas sharing one database, started before the file's tests and stopped after them:
 * what revocation and throttling must hold across. Read `a` and `b` inside tests or hooks.
 */
export function useTwoReplicas(): { a: TestAuth; b: TestAuth } {
  const replicas = {} as { a: TestAuth; b: TestAuth };
  let pg: Awaited<ReturnType<typeof startPostgres>> | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    replicas.a = await startAuth({ serverUrl: pg.url });
    replicas.b = await startAuth({ dbUrl: replicas.a.dbUrl });
  });
  afterAll(async () => {
    await replicas.b?.close();
    await replicas.a?.close();
    await pg?.stop();
  });
  return replicas;
}
