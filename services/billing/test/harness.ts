import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from '@wb/db';
import { createInProcessTransport, createNatsTransport, newEvent, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, listen, type RunningServer, type TokenVerifier } from '@wb/service-kit';
import { callJson, createDatabase, eventually, startNats, startPostgres, testTokens, type JsonAnswer, type JsonCallOptions } from '@wb/testkit';
import { createBillingService, SCHEMA, type BillingService, type BillingServiceConfig } from '../src/app.ts';
import type { Entitlements } from '../src/domain/entitlements.ts';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A clock the test moves by hand. */
export interface TestClock {
  (): Date;
  advanceDays(days: number): void;
  set(d: Date): void;
}

export function testClock(start = new Date()): TestClock {
  let now = start.getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.advanceDays = (d) => {
    now += d * 86_400_000;
  };
  clock.set = (d) => {
    now = d.getTime();
  };
  return clock;
}

export interface Harness {
  pool: Pool;
  transport: EventTransport;
  billing: BillingService;
  billingBase: string;
  clock: TestClock;
  /** A user auth would have registered: token, plus user.registered published as auth would. */
  user(opts?: { name?: string; admin?: boolean; registered?: boolean }): Promise<TestUser>;
  admin: TestUser;
  billingApi(method: string, path: string, opts?: JsonCallOptions): Promise<JsonAnswer>;
  /** The entitlements billing last published for a user (what boards, auth and export receive). */
  entitlementsOf(userId: string): Promise<Entitlements | null>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  nats?: boolean;
  providers?: BillingServiceConfig['providers'];
  publicUrl?: string;
  /** The export service that draws receipts, and the internal credential its /internal/* wants. */
  exportUrl?: string;
  internalToken?: string;
}

export const TEST_PAYMENTS_SECRET = 'test-secret-of-the-harness';

/**
 * A real billing service on a fresh database and an event transport: in-process by default, a real
 * nats-server with JetStream when `nats` is set. Tokens are signed with a test key and checked by the
 * real verifier. (Entitlements reaching boards are tested across services in deploy/test/billing-limits.test.ts.)
 */
export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const pg = await startPostgres();
  const url = await createDatabase(pg.url);
  const nats = opts.nats ? await startNats() : undefined;
  const transport = nats ? await createNatsTransport({ servers: nats.url }) : createInProcessTransport();
  const pool = createPool({ url, schema: SCHEMA, max: 20 });
  const tokens = await testTokens();
  const verifier: TokenVerifier = createTokenVerifier({ jwks: tokens.jwks });
  const clock = testClock();
  const logger = createLogger('billing-test', 'silent');

  const billing = await createBillingService({
    pool,
    transport,
    logger,
    verifier,
    clock,
    internalToken: opts.internalToken,
    config: {
      exportUrl: opts.exportUrl,
      http: { bodyLimit: '100kb', publicUrl: opts.publicUrl },
      providers: opts.providers ?? { test: { secret: TEST_PAYMENTS_SECRET } },
      // The tests run passes themselves with the moved clock.
      jobs: { expiryIntervalMs: 3_600_000 },
    },
  });
  await billing.start();
  const servers: RunningServer[] = [await listen(billing.app, 0, '127.0.0.1')];
  const billingBase = `http://127.0.0.1:${servers[0]!.port}`;

  const sign = (id: string, name: string, email: string, admin: boolean) => tokens.sign({ sub: id, name, email, admin });

  const user: Harness['user'] = async ({ name = 'Тестовый пользователь', admin = false, registered = true } = {}) => {
    const id = randomUUID();
    const email = `${id}@example.com`;
    if (registered) {
      await transport.publish(newEvent('user.registered', { userId: id, email, name, createdAt: new Date().toISOString() }, 'auth'));
      await eventually(async () => {
        const { rowCount } = await pool.query('SELECT 1 FROM entitlements WHERE user_id = $1', [id]);
        if (!rowCount) throw new Error(`billing has not heard of ${id} yet`);
      });
    }
    return { id, name, email, token: await sign(id, name, email, admin) };
  };
  const admin = await user({ name: 'Админ', admin: true, registered: false });

  return {
    pool,
    transport,
    billing,
    billingBase,
    clock,
    user,
    admin,
    billingApi: (method, path, o) => callJson(billingBase, method, path, o),
    async entitlementsOf(userId) {
      const { rows } = await pool.query<{ payload: Entitlements }>('SELECT payload FROM entitlements WHERE user_id = $1', [userId]);
      return rows[0]?.payload ?? null;
    },
    async stop() {
      for (const s of servers) await s.close();
      await billing.stop();
      await transport.close();
      await pool.end();
      await nats?.stop();
      await pg.stop();
    },
  };
}

/** The one polling helper (consumers run asynchronously), re-exported for the billing tests. */
export { eventually };

export const FREE_ID = '00000000-0000-4000-8000-000000000001';
export const PRO_ID = '00000000-0000-4000-8000-000000000002';
export const PRO_MONTH_ID = '00000000-0000-4000-8000-000000000021';

/** Everything billing stores, to prove a refused request changed nothing. */
export async function snapshot(pool: Pool): Promise<string> {
  const tables = ['plans', 'plan_variants', 'subscriptions', 'payments', 'entitlements', 'system_config', 'users'];
  const parts: string[] = [];
  for (const t of tables) {
    const { rows } = await pool.query(`SELECT * FROM ${t} ORDER BY 1`);
    parts.push(`${t}:${JSON.stringify(rows)}`);
  }
  const { rows } = await pool.query('SELECT id, type, payload FROM outbox ORDER BY seq');
  parts.push(`outbox:${JSON.stringify(rows)}`);
  return parts.join('\n');
}

export async function outboxEvents(pool: Pool, type: string): Promise<Array<{ data: Record<string, unknown> }>> {
  const { rows } = await pool.query('SELECT payload FROM outbox WHERE type = $1 ORDER BY seq', [type]);
  return rows.map((r) => r.payload);
}
