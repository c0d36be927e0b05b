import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createLogger,
  createServiceApp,
  defineService,
  env,
  internalAuth,
  listen,
  onlyWithInternalToken,
  parseConfig,
  serviceConfig,
  type RunningServer,
} from '../src/index.ts';

describe('serviceConfig', () => {
  const schema = serviceConfig(3005, { DATABASE_URL: env.url(), GRACE_DAYS: z.coerce.number().int().default(3) });

  it('writes the common settings once: defaults, blank = unset, the service may tighten one', () => {
    const c = parseConfig(schema, { DATABASE_URL: 'postgres://db/x', NATS_URL: '  ', INTERNAL_TOKEN: '' });
    expect(c).toMatchObject({ PORT: 3005, LOG_LEVEL: 'info', DATABASE_URL: 'postgres://db/x', GRACE_DAYS: 3 });
    expect(c.NATS_URL).toBeUndefined();
    expect(c.INTERNAL_TOKEN).toBeUndefined();
    expect(c.AUTH_JWKS_URL).toBeUndefined();
    // Optional in the common part, required by this service.
    expect(() => parseConfig(schema, {})).toThrow(/DATABASE_URL/);
    expect(parseConfig(schema, { DATABASE_URL: 'postgres://db/x', NATS_URL: 'nats://n:4222', PORT: '0' })).toMatchObject({ NATS_URL: 'nats://n:4222', PORT: 0 });
  });

  it('defineService keeps the definition as written (typed config in create)', async () => {
    const def = defineService({
      name: 'sample',
      configSchema: schema,
      reachedBy: (url) => ({ SAMPLE_URL: url }),
      async create(config) {
        const { app } = createServiceApp({ name: 'sample', logger: createLogger('sample', 'silent') });
        return { name: `sample-${config.GRACE_DAYS}`, app, start: async () => {}, stop: async () => {} };
      },
    });
    expect(def.reachedBy?.('http://x')).toEqual({ SAMPLE_URL: 'http://x' });
    const svc = await def.create(parseConfig(schema, { DATABASE_URL: 'postgres://db/x' }), null as never);
    expect(svc.name).toBe('sample-3');
  });
});

describe('internal credential', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('internalAuth answers 404 without the token and passes with it', async () => {
    const svc = createServiceApp({ name: 'guarded', logger: createLogger('guarded', 'silent') });
    svc.app.use('/internal', internalAuth('s3cret-token'));
    svc.app.get('/internal/thing', (_req, res) => void res.json({ ok: true }));
    svc.finish();
    const s = await listen(svc.app, 0, '127.0.0.1');
    servers.push(s);
    const url = `http://127.0.0.1:${s.port}/internal/thing`;
    const none = await fetch(url);
    expect(none.status).toBe(404);
    expect((await none.json()).code).toBe('NOT_FOUND');
    expect((await fetch(url, { headers: { 'x-internal-token': 's3cret-toke' } })).status).toBe(404);
    const ok = await fetch(url, { headers: { 'x-internal-token': 's3cret-token' } });
    expect(await ok.json()).toEqual({ ok: true });
  });

  it('onlyWithInternalToken gives strangers an empty 404 for every path', async () => {
    const s = await listen(http.createServer(onlyWithInternalToken('tok', (_req, res) => res.end('inside'))), 0, '127.0.0.1');
    servers.push(s);
    const base = `http://127.0.0.1:${s.port}`;
    for (const p of ['/', '/health', '/metrics']) {
      const res = await fetch(base + p);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
    }
    expect(await (await fetch(base + '/health', { headers: { 'x-internal-token': 'tok' } })).text()).toBe('inside');
  });
});
