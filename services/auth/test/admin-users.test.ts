import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from 'nats';
import { createPool, type Pool } from '@wb/db';
import { createNatsTransport, newEvent, type EventTransport } from '@wb/events';
import type { DomainEvent } from '@wb/contracts';
import { createLogger, listen, parseConfig, type RunningServer } from '@wb/service-kit';
import { createDatabase, eventually, startNats, startPostgres, type ManagedProcess } from '@wb/testkit';
import { AuthConfigSchema, createAuthService } from '../src/app.ts';
import { call, outboxEvents, register, snapshot, uniqueEmail } from './helpers.ts';

/**
 * Issue 34 item 1, user management: /api/admin/users on two auth replicas sharing one database and
 * a real nats-server (JetStream for the events, core NATS for revocations), as in a cluster.
 */
const ADMIN = { email: 'root.admin@example.com', password: 'Admin-Pass-123' };
let pg: Awaited<ReturnType<typeof startPostgres>>;
let nats: ManagedProcess;
let pool: Pool;
let publisher: EventTransport;
let a: string;
let b: string;
let admin: { token: string; id: string };
const stops: Array<() => Promise<unknown> | unknown> = [];

async function replica(dbUrl: string, name: string): Promise<string> {
  const p = createPool({ url: dbUrl, schema: 'auth', max: 10 });
  const transport = await createNatsTransport({ servers: nats.url, name });
  const nc: NatsConnection = await connect({ servers: nats.url, name: `${name}-core`, noEcho: true });
  const config = parseConfig(AuthConfigSchema, { DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const service = await createAuthService({ pool: p, transport, logger: createLogger(name, 'silent'), config, nats: nc });
  await service.start();
  const server: RunningServer = await listen(service.app, 0, '127.0.0.1');
  stops.unshift(() => server.close(), () => service.stop(), () => transport.close(), () => nc.close(), () => p.end());
  return `http://127.0.0.1:${server.port}`;
}

beforeAll(async () => {
  [pg, nats] = await Promise.all([startPostgres(), startNats()]);
  const dbUrl = await createDatabase(pg.url);
  a = await replica(dbUrl, 'auth-a');
  b = await replica(dbUrl, 'auth-b');
  pool = createPool({ url: dbUrl, schema: 'auth', max: 2 });
  publisher = await createNatsTransport({ servers: nats.url, name: 'test-publisher' });
  const login = await call(a, 'POST', '/api/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  admin = { token: login.body.accessToken, id: login.body.user.id };
}, 60_000);
afterAll(async () => {
  for (const stop of stops) await stop();
  await publisher?.close();
  await pool?.end();
  await nats?.stop();
  await pg?.stop();
});

const list = (search?: string, base = a, token = admin.token) =>
  call(base, 'GET', `/api/admin/users${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`, { token });
const put = (id: string, body: unknown, token = admin.token, base = a) => call(base, 'PUT', `/api/admin/users/${id}`, { token, body });
const del = (id: string, token = admin.token, base = a) => call(base, 'DELETE', `/api/admin/users/${id}`, { token });
const row = async (id: string) => (await list()).body.users.find((u: { id: string }) => u.id === id);
const adminActions = async () => (await outboxEvents(pool, 'admin.action')).map((e) => e.data) as Array<Record<string, any>>;

describe('who may call /api/admin/users', () => {
  it('a visitor is 401 and a user 403 on every method; so is an administrator demoted since their token was issued', async () => {
    const u = await register(a);
    for (const [method, path, body] of [
      ['GET', '/api/admin/users', undefined],
      ['PUT', `/api/admin/users/${u.user.id}`, { name: 'Захватчик', email: u.email }],
      ['DELETE', `/api/admin/users/${admin.id}`, undefined],
    ] as const) {
      const visitor = await call(a, method, path, { body });
      expect([method, visitor.status, visitor.body.code]).toEqual([method, 401, 'TOKEN_MISSING']);
      const user = await call(a, method, path, { token: u.accessToken, body });
      expect([method, user.status, user.body]).toEqual([method, 403, expect.objectContaining({ error: 'Требуются права администратора', code: 'ADMIN_REQUIRED' })]);
    }
    // The token still says admin; auth's own table no longer does.
    const other = await register(a, { email: uniqueEmail('demoted') });
    await pool.query('UPDATE users SET is_admin = true WHERE id = $1', [other.user.id]);
    const token = (await call(a, 'POST', '/api/auth/login', { body: { email: other.email, password: other.password } })).body.accessToken;
    expect((await list(undefined, a, token)).status).toBe(200);
    await pool.query('UPDATE users SET is_admin = false WHERE id = $1', [other.user.id]);
    expect((await list(undefined, a, token)).body.code).toBe('ADMIN_REQUIRED');
    expect((await del(u.user.id, token)).status).toBe(403);
    expect((await row(u.user.id))).toBeDefined();
  });
});

describe('GET /api/admin/users', () => {
  it('lists newest first with plan (Free until billing speaks) and boards; search is case-insensitive in name or e-mail, % and _ literal', async () => {
    const tag = `q${randomUUID().slice(0, 8)}`;
    const first = await register(a, { name: 'Жанна Поисковая', email: `zhanna.${tag}@example.com` });
    const second = await register(a, { name: 'Олег Иванов', email: `OLEG.${tag}@Example.com` });
    const third = await register(a, { name: 'Пётр 100%_верный', email: `petr.${tag}@example.com` });

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.users.length);
    const ids = all.body.users.map((u: { id: string }) => u.id);
    expect(ids.indexOf(third.user.id)).toBeLessThan(ids.indexOf(second.user.id));
    expect(ids.indexOf(second.user.id)).toBeLessThan(ids.indexOf(first.user.id));
    expect(all.body.users.find((u: { id: string }) => u.id === first.user.id)).toEqual({
      id: first.user.id,
      name: 'Жанна Поисковая',
      email: `zhanna.${tag}@example.com`,
      isAdmin: false,
      plan_name: 'Free',
      boards_count: 0,
      created_at: first.user.created_at,
    });
    expect(all.body.users.find((u: { id: string }) => u.id === admin.id).isAdmin).toBe(true);

    const names = async (search: string) => (await list(search)).body.users.map((u: { name: string }) => u.name);
    expect(await names('жАННА')).toEqual(['Жанна Поисковая']);
    expect(await names('поисков')).toEqual(['Жанна Поисковая']);
    expect(await names(`oleg.${tag}@EXAMPLE`)).toEqual(['Олег Иванов']);
    expect(await names(tag)).toEqual(['Пётр 100%_верный', 'Олег Иванов', 'Жанна Поисковая']);
    expect((await list(tag)).body.total).toBe(3);
    expect(await names('0%_в')).toEqual(['Пётр 100%_верный']);
    expect(await names('%')).toEqual(['Пётр 100%_верный']);
    expect(await names('Ж_нна')).toEqual([]);
    expect(await names('  ')).toHaveLength(all.body.users.length);
    expect((await list('нет-такого-никого')).body).toEqual({ users: [], total: 0 });
  });

  it('answers at most 200 rows and the total of all matches', async () => {
    const tag = `many${Date.now().toString(36)}`;
    await pool.query(
      `INSERT INTO users (name, email, password_hash, created_at)
       SELECT 'Массовый ' || i, '${tag}.' || i || '@example.com', 'x', now() - make_interval(secs => i) FROM generate_series(1, 205) AS i`,
    );
    const r = await list(tag);
    expect(r.body.total).toBe(205);
    expect(r.body.users).toHaveLength(200);
    expect(r.body.users[0].name).toBe('Массовый 1');
    expect(r.body.users[199].name).toBe('Массовый 200');
  });
});

describe('plan name and board count from events, on two replicas sharing the durable', () => {
  const at = (event: DomainEvent, occurredAt: string): DomainEvent => ({ ...event, occurredAt });
  const entitlements = (userId: string, planName: string) =>
    newEvent('entitlements.changed', { userId, planName, maxBoards: -1, maxCanvasWidth: 5000, maxCanvasHeight: 5000, exportPdf: true, limitsEnabled: true }, 'billing');

  it('the newest entitlements win whatever order they arrive in; each board counts once, a deletion that comes first included', async () => {
    const u = await register(a);
    const [b1, b2, b3, early] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const created = (boardId: string) => newEvent('board.created', { boardId, ownerId: u.user.id, title: 'Доска', folderId: null }, 'boards');
    const deleted = (boardId: string) => newEvent('board.deleted', { boardId, ownerId: u.user.id }, 'boards');
    const once = created(b1);
    const events = [
      at(entitlements(u.user.id, 'Pro'), '2030-01-01T00:00:02.000Z'),
      // Older, retried late: must not undo Pro.
      at(entitlements(u.user.id, 'Free'), '2030-01-01T00:00:01.000Z'),
      once,
      once,
      // Boards announcing the same board again under a new event id counts nothing either.
      created(b1),
      created(b2),
      created(b3),
      deleted(b2),
      deleted(b2),
      // Its deletion overtook its creation.
      deleted(early),
      created(early),
    ];
    for (const e of events) await publisher.publish(e);
    await eventually(async () => expect(await row(u.user.id)).toMatchObject({ plan_name: 'Pro', boards_count: 2 }), 20_000);
    // The profile answer of either replica agrees.
    for (const base of [a, b]) {
      await eventually(async () => expect((await call(base, 'GET', '/api/auth/verify', { token: u.accessToken })).body.user).toMatchObject({ plan_name: 'Pro', boards_count: 2 }));
    }
    await publisher.publish(at(entitlements(u.user.id, 'Бизнес'), '2030-01-01T00:00:03.000Z'));
    await publisher.publish(deleted(b1));
    await eventually(async () => expect(await row(u.user.id)).toMatchObject({ plan_name: 'Бизнес', boards_count: 1 }), 20_000);
  });

  it('a board counted before the tombstone table existed is taken off when its deletion comes', async () => {
    const u = await register(a);
    await pool.query('UPDATE users SET boards_count = 2, boards_untracked = 2 WHERE id = $1', [u.user.id]);
    const old = randomUUID();
    const gone = newEvent('board.deleted', { boardId: old, ownerId: u.user.id }, 'boards');
    await publisher.publish(gone);
    await publisher.publish(newEvent('board.deleted', { boardId: old, ownerId: u.user.id }, 'boards'));
    await eventually(async () => expect((await row(u.user.id)).boards_count).toBe(1), 20_000);
    const r = await pool.query('SELECT boards_untracked FROM users WHERE id = $1', [u.user.id]);
    expect(r.rows[0].boards_untracked).toBe(1);
  });
});

describe('PUT /api/admin/users/:id', () => {
  it('changes name and e-mail, answers the user, announces user.updated and the audit event (no hashes), and the user sees it', async () => {
    const u = await register(a, { name: 'Старое Имя' });
    const email = uniqueEmail('renamed');
    const before = (await adminActions()).length;
    const r = await put(u.user.id, { name: '  Новое Имя ', email: ` ${email} ` });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ id: u.user.id, name: 'Новое Имя', email, plan_name: 'Free', boards_count: 0, isAdmin: false });
    expect((await call(b, 'GET', '/api/auth/verify', { token: u.accessToken })).body.user).toMatchObject({ name: 'Новое Имя', email });
    expect((await call(a, 'POST', '/api/auth/login', { body: { email, password: u.password } })).status).toBe(200);
    expect((await outboxEvents(pool, 'user.updated')).at(-1).data).toEqual({ userId: u.user.id, name: 'Новое Имя', email });
    const actions = await adminActions();
    expect(actions.length).toBe(before + 1);
    expect(actions.at(-1)).toEqual({
      actorId: admin.id,
      actorName: 'Администратор',
      action: 'user.updated',
      target: { type: 'user', id: u.user.id, label: `Старое Имя <${u.email}>` },
      before: { name: 'Старое Имя', email: u.email },
      after: { name: 'Новое Имя', email },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(JSON.stringify(actions)).not.toMatch(/argon|password|hash/i);

    // Saving the same values changes nothing and announces nothing.
    const same = await put(u.user.id, { name: 'Новое Имя', email });
    expect(same.status).toBe(200);
    expect((await adminActions()).length).toBe(before + 1);
  });

  it('an address another user has (in any letter case) is 409 EMAIL_ALREADY_EXISTS and changes nothing', async () => {
    const u = await register(a);
    const other = await register(a);
    const snap = await snapshot(pool);
    const r = await put(u.user.id, { name: 'Имя', email: other.email.toUpperCase() });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: 'Пользователь с таким email уже существует', code: 'EMAIL_ALREADY_EXISTS' });
    expect(await snapshot(pool)).toEqual(snap);
  });

  it('an unknown or malformed id is 404; missing fields are 400 with the spec texts', async () => {
    const u = await register(a);
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      const r = await put(id, { name: 'Имя', email: uniqueEmail() });
      expect([id, r.status, r.body]).toEqual([id, 404, expect.objectContaining({ error: 'Пользователь не найден', code: 'USER_NOT_FOUND' })]);
    }
    expect((await put(u.user.id, { email: uniqueEmail() })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Имя обязательно' });
    expect((await put(u.user.id, { name: 'Имя' })).body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Email обязателен' });
    expect((await put(u.user.id, { name: 'Я', email: uniqueEmail() })).body.error).toBe('Имя должно содержать минимум 2 символа');
    expect((await put(u.user.id, { name: 'Имя', email: 'не-адрес' })).body.error).toBe('Некорректный email');
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it("ends the user's every session on both replicas before answering, deletes them, announces user.deleted and the audit event", async () => {
    const u = await register(a, { name: 'Удаляемый' });
    const laptop = (await call(b, 'POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).body;
    for (const base of [a, b]) for (const t of [u.accessToken, laptop.accessToken]) expect((await call(base, 'GET', '/api/auth/verify', { token: t })).status).toBe(200);

    const r = await del(u.user.id);
    expect(r.status).toBe(204);
    // No waiting: the other replica knew before the answer was sent.
    for (const base of [a, b]) for (const t of [u.accessToken, laptop.accessToken]) expect((await call(base, 'GET', '/api/auth/verify', { token: t })).status).toBe(401);
    expect((await call(b, 'POST', '/api/auth/refresh', { body: { refreshToken: laptop.refreshToken } })).body.code).toBe('REFRESH_TOKEN_INVALID');
    expect((await call(a, 'POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).body.code).toBe('INVALID_CREDENTIALS');
    expect(await row(u.user.id)).toBeUndefined();
    expect((await outboxEvents(pool, 'user.deleted')).map((e) => e.data.userId)).toContain(u.user.id);
    expect((await adminActions()).at(-1)).toMatchObject({
      actorId: admin.id,
      action: 'user.deleted',
      target: { type: 'user', id: u.user.id, label: `Удаляемый <${u.email}>` },
      before: { name: 'Удаляемый', email: u.email },
      after: null,
    });
    const again = await del(u.user.id);
    expect([again.status, again.body.code]).toEqual([404, 'USER_NOT_FOUND']);
  });

  it("refuses the administrator's own account (409, Russian text) and an unknown one (404), changing nothing", async () => {
    const snap = await snapshot(pool);
    const self = await del(admin.id);
    expect([self.status, self.body]).toEqual([409, expect.objectContaining({ error: 'Нельзя удалить собственную учётную запись из панели администратора', code: 'CANNOT_DELETE_SELF' })]);
    // Letter case does not get around it.
    expect((await del(admin.id.toUpperCase())).body.code).toBe('CANNOT_DELETE_SELF');
    for (const id of [randomUUID(), 'nobody', '%00']) expect((await del(id)).status).toBe(404);
    expect(await snapshot(pool)).toEqual(snap);
    expect((await list(undefined, b)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('NUL, lone surrogates, 1 MB strings, wrong types: a 4xx with a Russian text, never a 500, nothing changed', async () => {
    const u = await register(a);
    const snap = await snapshot(pool);
    const hostile: unknown[] = ['a\u0000b', 'a\ud800b', 'x'.repeat(1_000_000), 42, null, ['a'], { a: 1 }];
    for (const v of hostile) {
      for (const body of [{ name: v, email: uniqueEmail() }, { name: 'Имя', email: v }]) {
        const r = await put(u.user.id, body);
        expect(r.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.body.error).toMatch(/[а-яА-Я]/);
      }
    }
    for (const body of [undefined, [], 'x', 7]) {
      const r = await put(u.user.id, body);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // (A 1 MB query string never reaches a route: the HTTP server refuses headers over 16 KB.)
    for (const search of ['a%00b', 'x'.repeat(201), 'ж'.repeat(1_500)]) {
      const r = await call(a, 'GET', `/api/admin/users?search=${encodeURIComponent(search).replace('%2500', '%00')}`, { token: admin.token });
      expect(r.status, search.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.error).toMatch(/[а-яА-Я]/);
    }
    const twice = await call(a, 'GET', '/api/admin/users?search=a&search=b', { token: admin.token });
    expect([twice.status, twice.body.error]).toEqual([400, 'Строка поиска должна быть текстом']);
    const raw = await call(a, 'PUT', `/api/admin/users/${u.user.id}`, { token: admin.token, raw: '{"name":' });
    expect([raw.status, raw.body.code]).toEqual([400, 'INVALID_JSON']);
    expect(await snapshot(pool)).toEqual(snap);
    // isAdmin is not part of the form: the user stays a user.
    expect((await put(u.user.id, { name: 'Имя', email: uniqueEmail(), isAdmin: true })).status).toBe(200);
    expect((await row(u.user.id)).isAdmin).toBe(false);
  });
});
