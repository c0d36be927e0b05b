import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, type RunningServer } from '@wb/service-kit';
import { callJson, createDatabase, startPostgres, testTokens } from '@wb/testkit';
import { createBoardsService, SCHEMA, type BoardsService } from '../src/app.ts';

export interface TestUser {
  id: string;
  name: string;
  token: string;
}

export interface Harness {
  pool: Pool;
  transport: EventTransport;
  service: BoardsService;
  base: string;
  user(name?: string): Promise<TestUser>;
  api(method: string, path: string, opts?: { token?: string; share?: string; body?: unknown; raw?: string }): Promise<{ status: number; body: any }>;
  /** A second boards service on the same database (another replica), with its own pool and memory. */
  replica(): Promise<Pick<Harness, 'api' | 'stop'>>;
  stop(): Promise<void>;
}

/**
 * A real boards service on a fresh database and an in-process transport. Access tokens are
 * signed with a test key pair and verified by the real verifier against its public JWK.
 */
export async function startHarness(): Promise<Harness> {
  const pg = await startPostgres();
  const url = await createDatabase(pg.url);
  const pool = createPool({ url, schema: SCHEMA, max: 30 });
  const transport = createInProcessTransport();
  const tokens = await testTokens();
  const verifier = createTokenVerifier({ jwks: tokens.jwks });
  const serve = async (replicaPool: Pool, replicaTransport: EventTransport) => {
    const service = await createBoardsService({
      pool: replicaPool,
      transport: replicaTransport,
      logger: createLogger('boards-test', 'silent'),
      config: { http: { bodyLimit: '100kb' } },
      verifier,
    });
    await service.start();
    const server: RunningServer = await listen(service.app, 0, '127.0.0.1');
    return { service, server, base: `http://127.0.0.1:${server.port}` };
  };
  const { service, server, base } = await serve(pool, transport);
  const replicas: Array<() => Promise<void>> = [];

  return {
    pool,
    transport,
    service,
    base,
    async user(name = 'Тестовый пользователь') {
      const id = randomUUID();
      const token = await tokens.sign({ sub: id, name, email: `${id}@example.com`, admin: false });
      return { id, name, token };
    },
    api: (method, path, opts = {}) => callJson(base, method, path, opts),
    async replica() {
      const replicaPool = createPool({ url, schema: SCHEMA, max: 5 });
      // Its own transport: the in-process one allows one consumer per durable (events are not what this tests).
      const replicaTransport = createInProcessTransport();
      const r = await serve(replicaPool, replicaTransport);
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        await r.server.close();
        await r.service.stop();
        await replicaTransport.close();
        await replicaPool.end();
      };
      replicas.push(stop);
      return { api: (method, path, opts = {}) => callJson(r.base, method, path, opts), stop };
    },
    async stop() {
      for (const stopReplica of replicas.splice(0)) await stopReplica();
      await server.close();
      await service.stop();
      await transport.close();
      await pool.end();
      await pg.stop();
    },
  };
}

/** A snapshot of every table the service owns, to prove a refused request changed nothing. */
export async function snapshot(pool: Pool): Promise<string> {
  const queries: Record<string, string> = {
    boards: 'SELECT * FROM boards ORDER BY id',
    folders: 'SELECT * FROM folders ORDER BY id',
    tags: 'SELECT * FROM tags ORDER BY id',
    board_tags: 'SELECT * FROM board_tags ORDER BY 1, 2',
    camera_positions: 'SELECT * FROM camera_positions ORDER BY 1, 2',
    entitlements: 'SELECT * FROM entitlements ORDER BY 1',
    // published_at moves on its own (the relay); what matters is which events exist.
    outbox: 'SELECT id, type, payload FROM outbox ORDER BY seq',
  };
  const parts: string[] = [];
  for (const [t, sql] of Object.entries(queries)) {
    const { rows } = await pool.query(sql);
    parts.push(`${t}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

export async function outboxEvents(pool: Pool, type: string): Promise<any[]> {
  const { rows } = await pool.query('SELECT payload FROM outbox WHERE type = $1 ORDER BY seq', [type]);
  return rows.map((r) => r.payload);
}

/** Consumers run asynchronously: poll until a check passes. */
export { eventually } from '@wb/testkit';
