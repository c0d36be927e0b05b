// Issue 34 item 1 (System data, Containers → Local, System update): the admin-monitoring service's
// /api/admin/{system,docker,system/refresh-cache,update,update/status} on a real PostgreSQL, reading
// real processes through the runners' supervisor (deploy/local/supervisor.ts) with the local adapter.
// The whole update of a running product is in local-update.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, UPDATE_FINISHED_STEP } from '@wb/contracts';
import { createPool, freePort, type Pool } from '@wb/db';
import { createInProcessTransport } from '@wb/events';
import { AdminConfigSchema, createAdminService, type AdminService } from '@wb/admin-monitoring';
import { createLogger, createTokenVerifier, listen, parseConfig, type RunningServer, type TokenVerifier } from '@wb/service-kit';
import { callJson, createDatabase, eventually, startPostgres, testTokens } from '@wb/testkit';
import { startSupervisor, type SupervisorHandle } from '../local/supervisor.ts';

/** A real process the supervisor watches and restarts: a Node process that allocates a little and idles. */
function worker(): ChildProcess {
  return spawn(process.execPath, ['-e', 'const keep = Buffer.alloc(8 * 1024 * 1024, 1); setInterval(() => keep[0]++, 1000);'], { stdio: 'ignore' });
}
const stopChild = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  });

let pg: Awaited<ReturnType<typeof startPostgres>>;
let databaseUrl: string;
let supervisor: SupervisorHandle;
const workers: Record<string, ChildProcess> = {};
let processReads = 0;
/** Steps wait here while the test looks at a running update. */
let gate: Promise<void> = Promise.resolve();
let failNext: string | undefined;
/** The successor admin-monitoring instance the 'admin' step starts, and what the status said once it was up. */
const successors: Array<{ service: AdminService; pool: Pool }> = [];
let statusWhenSuccessorUp: unknown;

let verifier: TokenVerifier;
let sign: (admin: boolean) => Promise<string>;
let adminToken: string;
let userToken: string;
const admins: Array<{ service: AdminService; server: RunningServer; pool: Pool; url: string }> = [];
let base: string;

async function startAdmin(env: Record<string, string>): Promise<(typeof admins)[number]> {
  const pool = createPool({ url: databaseUrl, schema: 'admin', max: 5 });
  const service = await createAdminService({
    pool,
    transport: createInProcessTransport(),
    logger: createLogger('admin-test', 'silent'),
    verifier,
    config: parseConfig(AdminConfigSchema, { DATABASE_URL: databaseUrl, AUTH_JWKS_URL: 'http://127.0.0.1:1/jwks', LOG_LEVEL: 'silent', ...env }),
  });
  await service.start();
  const server = await listen(service.app, 0, '127.0.0.1');
  const a = { service, server, pool, url: `http://127.0.0.1:${server.port}` };
  admins.push(a);
  return a;
}

const localEnv = () => ({ CONTAINER_RUNTIME: 'local', LOCAL_SUPERVISOR_URL: supervisor.url, LOCAL_SUPERVISOR_TOKEN: supervisor.token, MONITOR_CACHE_MS: '60000' });

beforeAll(async () => {
  pg = await startPostgres();
  databaseUrl = await createDatabase(pg.url);
  const tokens = await testTokens();
  verifier = createTokenVerifier({ jwks: tokens.jwks });
  sign = (admin) => tokens.sign({ admin, name: admin ? 'Админ Системы' : 'Пользователь', email: 'a@example.com' });
  adminToken = await sign(true);
  userToken = await sign(false);

  workers['worker-a'] = worker();
  workers['worker-b'] = worker();
  const restartWorker = (name: string) => async () => {
    await gate;
    if (failNext === name) {
      failNext = undefined;
      throw new Error('Новый процесс не запустился: проверка');
    }
    const old = workers[name]!;
    workers[name] = worker();
    await stopChild(old);
  };
  supervisor = await startSupervisor({
    processes: () => {
      processReads++;
      return Object.entries(workers).map(([name, c]) => ({ name, pid: c.pid ?? null, role: 'service', image: 'node -e', started: Math.floor(Date.now() / 1000) }));
    },
    services: () => [
      { name: 'worker-a', restart: restartWorker('worker-a') },
      { name: 'worker-b', restart: restartWorker('worker-b') },
      {
        // The plan's last step restarts admin-monitoring itself: its successor's start ends the run.
        name: 'admin',
        restart: async () => {
          const next = await startAdmin(localEnv());
          successors.push(next);
          statusWhenSuccessorUp = (await callJson(next.url, 'GET', '/api/admin/update/status', { token: adminToken })).body;
        },
      },
    ],
  });
  base = (await startAdmin(localEnv())).url;
}, 120_000);

afterAll(async () => {
  for (const a of admins.reverse()) {
    await a.server.close();
    await a.service.stop();
    await a.pool.end();
  }
  await supervisor?.stop();
  for (const c of Object.values(workers)) await stopChild(c);
  await pg?.stop();
});

const call = (method: string, path: string, opts: Parameters<typeof callJson>[3] = {}) => callJson(base, method, path, { token: adminToken, ...opts });

describe('system data and containers', () => {
  it('refuses a visitor (401) and a user (403) on every call', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/system'],
      ['GET', '/api/admin/docker'],
      ['POST', '/api/admin/system/refresh-cache'],
      ['POST', '/api/admin/update'],
      ['GET', '/api/admin/update/status'],
    ] as const) {
      expect((await callJson(base, method, path)).status, `${method} ${path}`).toBe(401);
      expect((await callJson(base, method, path, { token: userToken })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('GET /system: the host CPU, memory and disk with the mount, then the same read from the cache', async () => {
    const first = await call('GET', '/api/admin/system');
    expect(first.status).toBe(200);
    expect(first.body.cached).toBe(false);
    expect(first.body.cpu.cores).toBe(os.cpus().length);
    expect(first.body.cpu.usage).toBeGreaterThanOrEqual(0);
    expect(first.body.cpu.usage).toBeLessThanOrEqual(100);
    expect(first.body.memory.total).toBeCloseTo(os.totalmem() / 1024 ** 3, 1);
    expect(first.body.memory.used).toBeGreaterThan(0);
    expect(first.body.disk.total).toBeGreaterThan(0);
    expect(first.body.disk.mount).toMatch(/^\//);
    expect(first.body.error).toBeUndefined();
    const second = await call('GET', '/api/admin/system');
    expect(second.body).toMatchObject({ cached: true, cacheTime: first.body.cacheTime, cpu: first.body.cpu });
  });

  it('GET /docker: each supervised process with real CPU, memory and uptime; cached; concurrent cold calls read once', async () => {
    const first = await call('GET', '/api/admin/docker');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ running: 2, total: 2, cached: false, runtime: 'local' });
    for (const name of ['worker-a', 'worker-b']) {
      const c = first.body.containers.find((x: { name: string }) => x.name === name);
      expect(c.id).toBe(String(workers[name]!.pid));
      expect(c.state).toBe('running');
      // 8 MB allocated and touched on top of Node itself.
      expect(c.memory.used).toBeGreaterThan(16);
      expect(c.memory.limit).toBeCloseTo(os.totalmem() / 1024 ** 2, -1);
      expect(c.memory.usage).toBeGreaterThan(0);
      expect(c.cpu.usage).toBeGreaterThanOrEqual(0);
      expect(Math.abs(c.created - Date.now() / 1000)).toBeLessThan(600);
      expect(c.uptime).toBeGreaterThanOrEqual(0);
      expect(c.uptime).toBeLessThan(600);
    }
    expect((await call('GET', '/api/admin/docker')).body).toMatchObject({ cached: true, cacheTime: first.body.cacheTime });

    expect((await call('POST', '/api/admin/system/refresh-cache')).body).toEqual({ message: 'Кеш очищен' });
    const before = processReads;
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('GET', '/api/admin/docker')));
    expect(processReads - before).toBe(1);
    expect(new Set(answers.map((a) => a.body.cacheTime)).size).toBe(1);
    expect(answers.every((a) => a.body.cached === false)).toBe(true);
    expect((await call('GET', '/api/admin/system')).body.cached).toBe(false);
  });

  it('refresh-cache is in the audit log and the activity', async () => {
    const pool = admins[0]!.pool;
    const { rows } = await pool.query("SELECT actor_name, action FROM audit_log WHERE action = 'system.cache_refreshed'");
    expect(rows[0]).toEqual({ actor_name: 'Админ Системы', action: 'system.cache_refreshed' });
  });

  it('a supervisor that cannot be reached answers the shapes with an error, never 500', async () => {
    const port = await freePort();
    const lost = await startAdmin({ CONTAINER_RUNTIME: 'local', LOCAL_SUPERVISOR_URL: `http://127.0.0.1:${port}`, LOCAL_SUPERVISOR_TOKEN: 'x' });
    const res = await callJson(lost.url, 'GET', '/api/admin/docker', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ running: 0, total: 0, containers: [], runtime: 'local', cached: false });
    expect(res.body.error).toMatch(/^Супервизор локальных процессов недоступен/);
    // Not kept: the next call tries again.
    expect((await callJson(lost.url, 'GET', '/api/admin/docker', { token: adminToken })).body.cached).toBe(false);
  });
});

describe('the supervisor', () => {
  it('refuses a caller without its token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: supervisor.token }] as Array<Record<string, string>>) {
      expect((await fetch(`${supervisor.url}/processes`, { headers })).status).toBe(401);
      expect((await fetch(`${supervisor.url}/services/worker-a/restart`, { method: 'POST', headers })).status).toBe(401);
    }
    const ok = await fetch(`${supervisor.url}/processes`, { headers: { authorization: `Bearer ${supervisor.token}` } });
    expect(ok.status).toBe(200);
  });
});

describe('the system update', () => {
  it('bad input is a 400 with a Russian text, never a 500, and starts nothing', async () => {
    const bodies = [JSON.stringify({ a: 'x\u0000y' }), '{"a":"\\ud800"}', JSON.stringify({ a: 'я'.repeat(600_000) }), '{"a":', '[1]'];
    for (const raw of bodies) {
      for (const path of ['/api/admin/update', '/api/admin/system/refresh-cache']) {
        const res = await call('POST', path, { raw });
        expect(res.status, `${path} ${raw.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${raw.slice(0, 20)}`).toBeLessThan(500);
        expect(res.body.error).toMatch(/[а-я]/i);
      }
    }
    expect((await call('GET', '/api/admin/update/status')).body).toMatchObject({ is_running: false, current_step: 'Обновление не запускалось', progress: 0 });
  });

  it('runs every step in order to Завершено, refuses a second start meanwhile, and the successor ends it', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const oldA = workers['worker-a']!.pid;
    // Two replicas asked at the same moment: one run starts, the other is refused.
    const peer = await startAdmin(localEnv());
    const both = await Promise.all([call('POST', '/api/admin/update'), callJson(peer.url, 'POST', '/api/admin/update', { token: adminToken })]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(both.find((a) => a.status === 202)!.body.is_running).toBe(true);
    await eventually(async () => {
      expect((await call('GET', '/api/admin/update/status')).body).toMatchObject({ is_running: true, current_step: 'Перезапуск сервиса worker-a', progress: 0 });
    });
    // Any replica refuses: the running row is in PostgreSQL.
    for (const url of [base, admins[admins.length - 1]!.url]) {
      const again = await callJson(url, 'POST', '/api/admin/update', { token: adminToken });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'UPDATE_ALREADY_RUNNING', error: ERRORS.UPDATE_ALREADY_RUNNING.message });
    }
    open();
    await eventually(async () => {
      expect((await call('GET', '/api/admin/update/status')).body).toMatchObject({ is_running: false, current_step: UPDATE_FINISHED_STEP, progress: 100 });
      // The successor's own read, taken once it listens (the step has not returned yet then).
      expect(statusWhenSuccessorUp).toBeDefined();
    }, 30_000);
    expect(statusWhenSuccessorUp).toMatchObject({ is_running: false, current_step: UPDATE_FINISHED_STEP, progress: 100 });
    expect(workers['worker-a']!.pid).not.toBe(oldA);
    const { rows } = await admins[0]!.pool.query("SELECT action FROM audit_log WHERE action = 'system.update_started'");
    expect(rows).toHaveLength(1);
  });

  it('a failed step ends the run: not running, the step and its reason', async () => {
    failNext = 'worker-b';
    expect((await call('POST', '/api/admin/update')).status).toBe(202);
    await eventually(async () => {
      const s = (await call('GET', '/api/admin/update/status')).body;
      expect(s).toMatchObject({ is_running: false, current_step: 'Перезапуск сервиса worker-b', progress: 33 });
      expect(s.error).toContain('Новый процесс не запустился: проверка');
    }, 30_000);
    // A new run may start after a failed one.
    expect((await call('POST', '/api/admin/update')).status).toBe(202);
    await eventually(async () => expect((await call('GET', '/api/admin/update/status')).body.current_step).toBe(UPDATE_FINISHED_STEP), 30_000);
  });

  it('a run whose runner went silent (its process died) is reported interrupted and a new one may start', async () => {
    const pool = admins[0]!.pool;
    await pool.query(
      "INSERT INTO system_updates (is_running, current_step, progress, started_by, heartbeat_at) VALUES (true, 'Перезапуск сервиса worker-a', 10, 'x', now() - interval '2 minutes')",
    );
    const s = (await call('GET', '/api/admin/update/status')).body;
    expect(s).toMatchObject({ is_running: false, current_step: 'Перезапуск сервиса worker-a', error: 'Обновление прервано: служба, которая его выполняла, остановилась' });
    expect((await call('POST', '/api/admin/update')).status).toBe(202);
    await eventually(async () => expect((await call('GET', '/api/admin/update/status')).body.current_step).toBe(UPDATE_FINISHED_STEP), 30_000);
  });
});
