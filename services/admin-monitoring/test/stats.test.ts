// Issue 34 item 1 (stats and activity): counters and today's feed kept from the other services'
// real domain events over NATS JetStream, exact when an event is delivered twice and when two
// admin-monitoring instances share each durable consumer.
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSchemas, type ActivityAnswer, type AdminStats, type EventType } from '@wb/contracts';
import { createPool, type Pool } from '@wb/db';
import { createNatsTransport, newEvent, type EventTransport } from '@wb/events';
import { createLogger, createTokenVerifier, internalHeaders, listen, parseConfig, type RunningServer } from '@wb/service-kit';
import { callJson, createBoard, createDatabase, eventually, registerUser, startNats, startPostgres, type ManagedProcess } from '@wb/testkit';
import { startServices, type StartedServices } from '@wb/testkit/services';
import { AdminConfigSchema, createAdminService, type AdminService } from '../src/app.ts';
import { utcDay } from '../src/domain/day.ts';
import { ADMIN_CONSUMERS } from '../src/events/index.ts';
import { readDay, readStats } from '../src/store/counters.ts';

const ADMIN = { email: 'stats-admin@example.com', password: 'Admin-Pass-123' };
const PRO = { plan_id: '00000000-0000-4000-8000-000000000002', variant_id: '00000000-0000-4000-8000-000000000021' };

let pg: Awaited<ReturnType<typeof startPostgres>>;
let nats: ManagedProcess;
let transport: EventTransport;
let transport2: EventTransport;
let platform: StartedServices;
let second: AdminService;
let secondServer: RunningServer;
let secondPool: Pool;
let raw: NatsConnection;
let adminToken: string;
let adminName: string;
const urls = { auth: '', boards: '', billing: '', admin: '', admin2: '' };

beforeAll(async () => {
  pg = await startPostgres();
  const databaseUrl = await createDatabase(pg.url);
  nats = await startNats();
  transport = await createNatsTransport({ servers: nats.url });
  platform = await startServices(['@wb/auth', '@wb/boards', '@wb/billing', '@wb/admin-monitoring'], {
    databaseUrl,
    transport,
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PAYMENTS_TEST_PROVIDER: 'true', AUTH_RATE_LIMIT_PER_MIN: '0' },
  });
  Object.assign(urls, platform.urls);

  // A second replica of admin-monitoring: its own pool and NATS connection, the same durables.
  const jwksUrl = `${urls.auth}/internal/jwks`;
  transport2 = await createNatsTransport({ servers: nats.url });
  secondPool = createPool({ url: databaseUrl, schema: 'admin', max: 5 });
  second = await createAdminService({
    pool: secondPool,
    transport: transport2,
    logger: createLogger('admin-2', 'silent'),
    verifier: createTokenVerifier({ jwksUrl, headers: internalHeaders(platform.internalToken) }),
    config: parseConfig(AdminConfigSchema, { DATABASE_URL: databaseUrl, AUTH_JWKS_URL: jwksUrl, LOG_LEVEL: 'silent' }),
  });
  await second.start();
  secondServer = await listen(second.app, 0, '127.0.0.1');
  urls.admin2 = `http://127.0.0.1:${secondServer.port}`;
  raw = await connect({ servers: nats.url });

  const login = await callJson(urls.auth, 'POST', '/api/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  adminToken = login.body.accessToken;
  adminName = login.body.user.name;
}, 120_000);

afterAll(async () => {
  await raw?.close();
  await secondServer?.close();
  await second?.stop();
  await transport2?.close();
  await secondPool?.end();
  await platform?.stop();
  await transport?.close();
  await nats?.stop();
  await pg?.stop();
});

const stats = async (base = urls.admin): Promise<AdminStats> => {
  const r = await callJson(base, 'GET', '/api/admin/stats', { token: adminToken });
  expect(r.status).toBe(200);
  return r.body;
};
const activity = async (base = urls.admin): Promise<ActivityAnswer> => {
  const r = await callJson(base, 'GET', '/api/admin/activity', { token: adminToken });
  expect(r.status).toBe(200);
  return r.body;
};
const texts = async () => (await activity()).activity.map((a) => `${a.type}: ${a.text}`);
// Baselines straight from the tables: an HTTP answer may be reused for STATS_REUSE_MS (250 ms), so
// checks of answers poll (eventually) while the figures they start from must be exact.
const kept = () => readStats(secondPool);
const keptToday = () => readDay(secondPool, utcDay(new Date()));

/** Every service's outbox is published and every admin durable has handled (and acknowledged) all of it. */
const drained = () =>
  eventually(
    async () => {
      for (const schema of ['auth', 'boards', 'billing']) {
        const { rows } = await secondPool.query(`SELECT count(*)::int AS n FROM ${schema}.outbox WHERE published_at IS NULL`);
        expect(rows[0].n, `${schema} outbox`).toBe(0);
      }
      for (const d of ADMIN_CONSUMERS) expect(await transport.pending!(d), d).toBe(0);
    },
    { timeoutMs: 30_000 },
  );

/** A publish straight to JetStream without a message id: the server stores (and delivers) it every time. */
async function publishRaw<T extends EventType>(event: { id: string; type: T; occurredAt: string; source: string; data: unknown }) {
  EventSchemas[event.type].parse(event.data);
  await raw.jetstream().publish(`wb.${event.type}`, new TextEncoder().encode(JSON.stringify(event)));
}

describe('admin stats and activity', () => {
  it('a visitor gets 401, a user 403, the admin the shapes of spec §3 (on either replica)', async () => {
    const user = await registerUser(urls.auth, { name: 'Просто пользователь' });
    for (const base of [urls.admin, urls.admin2]) {
      for (const path of ['/api/admin/stats', '/api/admin/activity']) {
        const visitor = await callJson(base, 'GET', path);
        expect(visitor.status, path).toBe(401);
        expect(visitor.body.error).toMatch(/[а-я]/i);
        const forbidden = await callJson(base, 'GET', path, { token: user.token });
        expect(forbidden.status, path).toBe(403);
        expect(forbidden.body.code).toBe('ADMIN_REQUIRED');
      }
      expect(Object.keys(await stats(base)).sort()).toEqual(['activeSubscriptions', 'revenue', 'totalBoards', 'totalUsers']);
      const a = await activity(base);
      expect(Object.keys(a.todayStats).sort()).toEqual(['newBoards', 'newSubscriptions', 'newUsers', 'paymentsAmount']);
    }
  });

  it('counts real registrations, boards, payments and admin actions, and lists them newest first', async () => {
    await drained();
    const s0 = await kept();
    const t0 = await keptToday();

    const anna = await registerUser(urls.auth, { name: 'Анна Статова' });
    const boris = await registerUser(urls.auth, { name: 'Борис Статов' });
    // Boards name their owner from the users projection: let the registrations land first.
    await eventually(async () => expect(await texts()).toContain(`user: Новый пользователь: Борис Статов (${boris.email})`), 20_000);
    await createBoard(urls.boards, anna, { title: 'Планы на квартал' });
    await createBoard(urls.boards, anna, { title: 'Ретро' });
    const doomed = await createBoard(urls.boards, boris, { title: 'Черновик' });

    const pay = async (who: { token: string }, outcome: 'pay' | 'decline') => {
      const order = await callJson(urls.billing, 'POST', '/api/billing/checkout', { token: who.token, body: PRO });
      expect(order.status).toBe(201);
      const done = await callJson(urls.billing, 'POST', new URL(order.body.data.checkout_url).pathname, { token: who.token, body: { outcome } });
      expect(done.status).toBe(200);
    };
    await pay(anna, 'pay');
    await pay(boris, 'decline');
    await eventually(async () => expect((await stats()).totalBoards).toBe(s0.totalBoards + 3), 20_000);
    expect((await callJson(urls.boards, 'DELETE', `/api/boards/${doomed.id}`, { token: boris.token })).status).toBeLessThan(300);

    await eventually(
      async () =>
        expect(await stats()).toEqual({
          totalUsers: s0.totalUsers + 2,
          activeSubscriptions: s0.activeSubscriptions + 1,
          totalBoards: s0.totalBoards + 2,
          revenue: s0.revenue + 499,
        }),
      20_000,
    );
    await drained();
    await eventually(async () =>
      expect((await activity()).todayStats).toEqual({
        newUsers: t0.newUsers + 2,
        newSubscriptions: t0.newSubscriptions + 1,
        newBoards: t0.newBoards + 3,
        paymentsAmount: t0.paymentsAmount + 499,
      }),
    );
    const a1 = await activity();
    const lines = a1.activity.map((a) => `${a.type}: ${a.text}`);
    const annaLabel = `Анна Статова (${anna.email})`;
    const borisLabel = `Борис Статов (${boris.email})`;
    expect(lines).toEqual(
      expect.arrayContaining([
        `user: Новый пользователь: ${annaLabel}`,
        `user: Новый пользователь: ${borisLabel}`,
        `boards: Создана доска «Планы на квартал» (${annaLabel})`,
        `boards: Создана доска «Ретро» (${annaLabel})`,
        `boards: Создана доска «Черновик» (${borisLabel})`,
        'boards: Удалена доска «Черновик»',
        `subscription: Новая подписка: ${annaLabel} — Pro`,
        `subscription: Оплата 499 ₽: ${annaLabel}`,
        `subscription: Неудачный платёж 499 ₽: ${borisLabel}`,
      ]),
    );
    const times = a1.activity.map((a) => Date.parse(a.time));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(lines.indexOf(`user: Новый пользователь: ${annaLabel}`)).toBeGreaterThan(lines.indexOf(`subscription: Оплата 499 ₽: ${annaLabel}`));

    // The admin extends and then revokes Anna's subscription: two audit lines, the counter back down.
    const subs = await callJson(urls.billing, 'GET', `/api/admin/subscriptions?search=${encodeURIComponent(anna.email)}`, { token: adminToken });
    const subId = subs.body.subscriptions[0].id as string;
    expect((await callJson(urls.billing, 'PUT', `/api/admin/subscriptions/${subId}/extend`, { token: adminToken, body: { days: 30 } })).status).toBe(200);
    expect((await callJson(urls.billing, 'DELETE', `/api/admin/subscriptions/${subId}`, { token: adminToken })).status).toBe(200);
    await eventually(async () => expect((await stats()).activeSubscriptions).toBe(s0.activeSubscriptions), 20_000);
    await drained();
    await eventually(async () =>
      expect(await texts()).toEqual(
        expect.arrayContaining([
        `other: Администратор ${adminName}: продлена подписка Анна Статова (Pro) (изменено: expires_at)`,
        `other: Администратор ${adminName}: отозвана подписка Анна Статова (Pro)`,
        `subscription: Подписка изменена: ${annaLabel} — Pro (активна)`,
          `subscription: Подписка отозвана: ${annaLabel}`,
        ]),
      ),
    );
    expect((await keptToday()).newSubscriptions).toBe(t0.newSubscriptions + 1);
  });

  it('an event delivered twice (same id), and a payment announced twice (new ids), count once', async () => {
    await drained();
    const s0 = await kept();
    const userId = randomUUID();
    const registered = newEvent('user.registered', { userId, email: 'twice@example.com', name: 'Дважды', createdAt: new Date().toISOString() }, 'auth');
    await publishRaw(registered);
    await publishRaw(registered);
    const payment = { paymentId: randomUUID(), userId, planId: PRO.plan_id, amountMinor: 150_050, currency: 'RUB', provider: 'test' };
    await publishRaw(newEvent('payment.succeeded', payment, 'billing'));
    await publishRaw(newEvent('payment.succeeded', payment, 'billing'));
    // A USD payment shows in the feed but is not converted into roubles.
    await publishRaw(newEvent('payment.succeeded', { ...payment, paymentId: randomUUID(), amountMinor: 1_000, currency: 'USD' }, 'billing'));
    const board = newEvent('board.created', { boardId: randomUUID(), ownerId: userId, title: 'Дубль', folderId: null }, 'boards');
    await publishRaw(board);
    await publishRaw(board);
    await drained();

    expect(await kept()).toEqual({ ...s0, totalUsers: s0.totalUsers + 1, totalBoards: s0.totalBoards + 1, revenue: s0.revenue + 1500.5 });
    await eventually(async () => expect(await stats()).toEqual(await kept()));
    await eventually(async () => expect(await texts()).toContain('subscription: Оплата 10 $: Дважды (twice@example.com)'));
    const lines = await texts();
    const count = (l: string) => lines.filter((x) => x === l).length;
    expect(count('user: Новый пользователь: Дважды (twice@example.com)')).toBe(1);
    expect(count('boards: Создана доска «Дубль» (Дважды (twice@example.com))')).toBe(1);
    expect(count('subscription: Оплата 1 500,50 ₽: Дважды (twice@example.com)')).toBe(1);
    expect(count('subscription: Оплата 10 $: Дважды (twice@example.com)')).toBe(1);
  });

  it("a line naming a user whose registration lands later gets their name when read", async () => {
    const userId = randomUUID();
    await publishRaw(newEvent('board.created', { boardId: randomUUID(), ownerId: userId, title: 'Раньше владельца', folderId: null }, 'boards'));
    await drained();
    await eventually(async () => expect(await texts()).toContain(`boards: Создана доска «Раньше владельца» (пользователь ${userId.slice(0, 8)})`));
    await publishRaw(newEvent('user.registered', { userId, email: 'late@example.com', name: 'Поздняя', createdAt: new Date().toISOString() }, 'auth'));
    await drained();
    await eventually(async () => expect(await texts()).toContain('boards: Создана доска «Раньше владельца» (Поздняя (late@example.com))'));
  });

  it('a user.updated overtaking its user.registered (a redelivery) neither hides the registration nor counts twice', async () => {
    await drained();
    const s0 = await kept();
    const userId = randomUUID();
    await publishRaw(newEvent('user.updated', { userId, email: 'renamed@example.com', name: 'Переименованная' }, 'auth'));
    await drained();
    await publishRaw(newEvent('user.registered', { userId, email: 'first@example.com', name: 'Первая', createdAt: new Date().toISOString() }, 'auth'));
    await drained();
    expect((await kept()).totalUsers).toBe(s0.totalUsers + 1);
  });

  it('two replicas on the same durables: a burst of events, each published twice, counts exactly', async () => {
    // Both replicas are pulling from each durable (each holds a pull request open).
    const jsm = await raw.jetstreamManager();
    await eventually(async () => {
      for (const d of ADMIN_CONSUMERS) expect((await jsm.consumers.info('WB_EVENTS', d)).num_waiting, d).toBeGreaterThanOrEqual(2);
    }, 20_000);
    await drained();
    const s0 = await kept();
    const t0 = await keptToday();
    const ownerId = randomUUID();
    const boards = Array.from({ length: 120 }, (_, i) =>
      newEvent('board.created', { boardId: randomUUID(), ownerId, title: `Пачка ${i}`, folderId: null }, 'boards'),
    );
    const deletions = boards.slice(0, 40).map((b) => newEvent('board.deleted', { boardId: b.data.boardId, ownerId }, 'boards'));
    const subs = Array.from({ length: 30 }, () =>
      newEvent('subscription.changed', { subscriptionId: randomUUID(), userId: randomUUID(), planId: PRO.plan_id, planName: 'Pro', status: 'active', expiresAt: null, reason: 'payment' }, 'billing'),
    );
    // Half of those subscriptions then expire (a later event), each twice as well.
    const expiries = subs.slice(0, 15).map((s) =>
      newEvent('subscription.changed', { ...s.data, status: 'expired', reason: 'time' }, 'billing'),
    );
    for (const e of [...boards, ...subs]) await publishRaw(e);
    for (const e of [...boards, ...subs].reverse()) await publishRaw(e);
    for (const e of [...deletions, ...expiries]) await Promise.all([publishRaw(e), publishRaw(e)]);
    await drained();

    expect(await kept()).toEqual({ ...s0, totalBoards: s0.totalBoards + 80, activeSubscriptions: s0.activeSubscriptions + 15 });
    expect(await keptToday()).toEqual({ ...t0, newBoards: t0.newBoards + 120, newSubscriptions: t0.newSubscriptions + 30 });
    // Each replica answers the kept figures.
    for (const base of [urls.admin, urls.admin2]) {
      await eventually(async () => expect(await stats(base)).toEqual(await kept()));
      await eventually(async () => expect((await activity(base)).todayStats).toEqual(await keptToday()));
    }
  });
});
