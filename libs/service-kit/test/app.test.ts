import net from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RegisterRequest } from '@wb/contracts';
import { createPool, freePort, type Pool } from '@wb/db';
import { appError, createLogger, createServiceApp, isDependencyUnavailable, listen, parse, type RunningServer } from '../src/index.ts';

const BOARD_ID = '3f1c2a9e-8b7d-4c6e-9a1b-2c3d4e5f6a7b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: RunningServer;
let base: string;
/** A real pool aimed at a port nothing listens on: what a service sees while its database is down. */
let downPool: Pool;
const health = { db: true, broker: true, flaky: true };

beforeAll(async () => {
  const { app, finish } = createServiceApp({
    name: 'kit-test',
    logger: createLogger('kit-test', 'silent'),
    bodyLimit: '1kb',
    readiness: {
      db: async () => health.db,
      broker: async () => health.broker,
      flaky: async () => {
        if (!health.flaky) throw new Error('check itself crashed');
        return true;
      },
    },
  });
  const boards = express.Router();
  boards.get('/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  boards.get('/:id/missing', () => {
    throw appError('BOARD_NOT_FOUND');
  });
  app.use('/api/boards', boards);
  app.post('/echo', (req, res) => {
    res.json({ got: req.body });
  });
  app.post('/register', (req, res) => {
    res.json(parse(RegisterRequest, req.body));
  });
  // A schema with no texts of ours: zod's defaults.
  app.post('/plain', (req, res) => {
    res.json(parse(z.object({ boardId: z.string(), count: z.number().max(3), kind: z.enum(['a', 'b']) }), req.body));
  });
  downPool = createPool({ url: `postgres://postgres:postgres@127.0.0.1:${await freePort()}/nowhere`, schema: 'public', max: 1 });
  app.get('/db-down', async (_req, res) => {
    res.json((await downPool.query('SELECT 1')).rows);
  });
  app.get('/boom', async () => {
    throw new Error('connection to 10.0.0.5:5432 refused, password=hunter2');
  });
  finish();
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server?.close();
  await downPool?.end();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('health, readiness and metrics', () => {
  it('/health answers 200 with the service name', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'kit-test' });
  });

  it('/ready is 200 when every check passes, 503 naming the failing one otherwise', async () => {
    let res = await fetch(`${base}/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      service: 'kit-test',
      checks: { db: true, broker: true, flaky: true },
    });

    health.broker = false;
    res = await fetch(`${base}/ready`);
    expect(res.status).toBe(503);
    expect((await res.json()).checks).toEqual({ db: true, broker: false, flaky: true });
    health.broker = true;

    // A check that throws counts as not ready rather than crashing the endpoint.
    health.flaky = false;
    res = await fetch(`${base}/ready`);
    expect(res.status).toBe(503);
    expect((await res.json()).checks.flaky).toBe(false);
    health.flaky = true;
  });

  it('/metrics labels requests by route template, never by the raw path with ids', async () => {
    expect((await fetch(`${base}/api/boards/${BOARD_ID}`)).status).toBe(200);
    expect((await fetch(`${base}/api/boards/${BOARD_ID}/missing`)).status).toBe(404);
    expect((await fetch(`${base}/no/such/${BOARD_ID}`)).status).toBe(404);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/boards\/:id"[^}]*status="200"[^}]*\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/boards\/:id\/missing"[^}]*status="404"/,
    );
    expect(text).toMatch(/route="unmatched"/);
    expect(text).toMatch(/service="kit-test"/);
    expect(text).not.toContain(BOARD_ID);
  });

  it('/metrics counts open descriptors without listing every socket (no per-handle metrics)', async () => {
    const openFds = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(text).not.toMatch(/nodejs_active_(handles|requests|resources)/);
      return Number(/^process_open_fds\{[^}]*\} (\d+)$/m.exec(text)?.[1]);
    };
    const before = await openFds();
    expect(before).toBeGreaterThan(0);
    const sockets = await Promise.all(
      Array.from({ length: 40 }, () => new Promise<net.Socket>((resolve) => {
        const s = net.connect(Number(new URL(base).port), '127.0.0.1', () => resolve(s));
      })),
    );
    try {
      // Each socket is two descriptors in this process (its end and the server's accepted end).
      expect(await openFds()).toBeGreaterThanOrEqual(before + 40);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

describe('error answers are {error, code} with the right status', () => {
  it('malformed JSON → 400 INVALID_JSON', async () => {
    const res = await post('/echo', '{"a": ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'INVALID_JSON',
      error: 'Некорректный JSON в теле запроса',
    });
  });

  it('a body over the limit → 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await post('/echo', JSON.stringify({ text: 'x'.repeat(2048) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: 'Слишком большой запрос' });
  });

  it('a body within the limit is parsed', async () => {
    const res = await post('/echo', JSON.stringify({ a: [1, 'б'] }));
    expect(await res.json()).toEqual({ got: { a: [1, 'б'] } });
  });

  it('unknown route → 404 NOT_FOUND', async () => {
    const res = await fetch(`${base}/nothing-here`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND', error: 'Ресурс не найден' });
  });

  it('a thrown AppError keeps its code, status and Russian text', async () => {
    const res = await fetch(`${base}/api/boards/${BOARD_ID}/missing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'BOARD_NOT_FOUND', error: 'Доска не найдена' });
  });

  it('invalid input → 400 VALIDATION_ERROR with the first Russian message and the fields', async () => {
    const res = await post('/register', JSON.stringify({ email: 'bad', password: '123', name: 'Анна' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'Некорректный email',
      fields: { email: 'Некорректный email', password: 'Пароль должен содержать минимум 8 символов' },
    });
  });

  it('zod\'s own English texts become Russian field texts: wrong type, missing field', async () => {
    const res = await post('/plain', JSON.stringify({ boardId: 123, count: 4 }));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'Некорректные данные запроса',
      fields: { boardId: 'Неверный тип значения', count: 'Значение больше допустимого', kind: 'Недопустимое значение' },
    });
    expect(JSON.stringify(body)).not.toContain('Invalid');
    const missing = await post('/plain', JSON.stringify({ count: 1, kind: 'a' }));
    expect((await missing.json()).fields).toEqual({ boardId: 'Обязательное поле' });
  });

  it('an unknown thrown error → 500 INTERNAL_ERROR without internals', async () => {
    const res = await fetch(`${base}/boom`, { headers: { 'x-request-id': 'boom-1' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      code: 'INTERNAL_ERROR',
      error: 'Внутренняя ошибка сервера',
      requestId: 'boom-1',
    });
    expect(text).not.toMatch(/hunter2|10\.0\.0\.5|refused|at .*\.ts/);
  });
});

describe('a database or service that cannot be reached', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500, and says nothing of the address', async () => {
    const res = await fetch(`${base}/db-down`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: 'Сервис временно недоступен' });
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres/);
  });

  it('tells an outage from a bug by code and kind, never by the words of an arbitrary message', () => {
    const withCode = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001', '53300'])
      expect(isDependencyUnavailable(withCode(code)), code).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
    // A constraint violation, a syntax error, a bug whose message mentions a refused connection: 500.
    for (const err of [withCode('23505'), withCode('42601'), new Error('connection refused'), new AggregateError([]), null, 'ECONNREFUSED'])
      expect(isDependencyUnavailable(err)).toBe(false);
  });
});

describe('request ids', () => {
  it('echoes a well-formed x-request-id in the header and in error bodies', async () => {
    const res = await fetch(`${base}/nothing`, { headers: { 'x-request-id': 'abc-123.def:9' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123.def:9');
    expect((await res.json()).requestId).toBe('abc-123.def:9');
  });

  it('generates a UUID when the header is absent or malformed', async () => {
    const none = await fetch(`${base}/health`);
    expect(none.headers.get('x-request-id')).toMatch(UUID);
    const bad = await fetch(`${base}/health`, { headers: { 'x-request-id': 'has spaces<script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(UUID);
    const long = await fetch(`${base}/health`, { headers: { 'x-request-id': 'a'.repeat(200) } });
    expect(long.headers.get('x-request-id')).toMatch(UUID);
    expect(none.headers.get('x-request-id')).not.toBe(bad.headers.get('x-request-id'));
  });

  it('does not advertise Express', async () => {
    expect((await fetch(`${base}/health`)).headers.get('x-powered-by')).toBeNull();
  });
});

describe('request log', () => {
  it('keeps credentials of query strings out of the log line (image URLs carry tokens)', async () => {
    const { default: pino } = await import('pino');
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const { app, finish } = createServiceApp({ name: 'log-test', logger });
    app.get('/img', (_req, res) => {
      res.json({ ok: true });
    });
    finish();
    const s = await listen(app, 0, '127.0.0.1');
    try {
      // 'finish' (which writes the line) fires before the answer reaches the client.
      await fetch(`http://127.0.0.1:${s.port}/img?token=eyJ.secret.sig&size=2&share=link-secret`);
    } finally {
      await s.close();
    }
    const line = lines.find((l) => l.includes('"msg":"request"'));
    expect(line).toBeDefined();
    expect(line).toContain('/img?token=[redacted]&size=2&share=[redacted]');
    expect(line).not.toContain('secret');
  });
});
