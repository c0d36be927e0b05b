// Issue 34 item 1 in the embedded mode (`npm start`): the admin panel's containers are this
// process, its PostgreSQL and Mailpit, read through the runner's supervisor; the system update
// restarts each in-process service in turn (a new instance started, calls switched to it, the old
// one stopped) to 'Завершено' while HTTP requests and y-websocket edits go on: none lost. The
// longest time the product did not answer is printed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPDATE_FINISHED_STEP } from '@wb/contracts';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call, eventually, yClient } from './clients.ts';
import { failures, longestSilenceMs, startTraffic, watchDisconnects, type Traffic } from './update-traffic.ts';

const ADMIN = { email: 'embedded-update-admin@example.com', password: 'Admin-Pass-123' };

describe('embedded: processes and the system update', () => {
  let handle: EmbeddedHandle;
  let adminToken: string;
  let token: string;
  let boardId: string;
  let traffic: Traffic | undefined;
  const extra: Array<ReturnType<typeof yClient>> = [];

  beforeAll(async () => {
    const dataDir = await tempDir('embedded-update');
    const staticDir = path.join(dataDir, 'spa');
    await mkdir(staticDir, { recursive: true });
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Доска</title>');
    handle = await startEmbedded({
      port: 0,
      dataDir,
      staticDir,
      logLevel: process.env.UPDATE_TEST_LOG_LEVEL ?? 'silent',
      env: { AUTH_RATE_LIMIT_PER_MIN: '0', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
    adminToken = (await call(handle.url, 'POST', '/api/auth/login', { body: ADMIN })).body.accessToken;
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email: 'embedded-editor@example.com', password: 'Secret-123', name: 'Редактор' } });
    token = reg.body.accessToken;
    boardId = (await call(handle.url, 'POST', '/api/boards', { token, body: { title: 'Во время обновления', folder_id: null } })).body.board.id;
  }, 180_000);
  afterAll(async () => {
    await traffic?.stop();
    for (const e of [...(traffic?.editors ?? []), ...extra]) e.provider.destroy();
    await handle?.stop();
  }, 120_000);

  it('lists this process, its PostgreSQL and Mailpit with real CPU, memory and uptime', async () => {
    const res = await call(handle.url, 'GET', '/api/admin/docker', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ runtime: 'local', running: 3, total: 3 });
    const byName = new Map(res.body.containers.map((c: { name: string }) => [c.name, c]));
    expect(byName.get('whiteboard')).toMatchObject({ id: String(process.pid), state: 'running' });
    for (const name of ['whiteboard', 'postgres', 'mailpit']) {
      const c = byName.get(name) as { state: string; cpu: { usage: number | null }; memory: { used: number; usage: number }; created: number };
      expect(c.state, name).toBe('running');
      expect(c.cpu.usage, name).not.toBeNull();
      expect(c.memory.used, name).toBeGreaterThan(1);
      expect(c.created, name).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    }
    expect((byName.get('whiteboard') as { memory: { used: number } }).memory.used).toBeGreaterThan(100);
  });

  it('the supervisor refuses a caller without its token', async () => {
    expect((await fetch(`${handle.supervisor.url}/processes`)).status).toBe(401);
    expect((await fetch(`${handle.supervisor.url}/services/boards/restart`, { method: 'POST' })).status).toBe(401);
  });

  it('the update restarts each in-process service to Завершено while requests and edits go on, losing none', async () => {
    const base = handle.url;
    traffic = startTraffic(base, { token, boardId, paths: [`/api/boards/${boardId}`, '/api/boards', '/api/auth/verify', '/api/billing/plans', '/api/health'] });
    const watch = traffic.editors.map(watchDisconnects);
    await eventually(() => traffic!.editors.every((e) => e.provider.synced), 30_000, 'editors to sync');
    const from = Date.now();
    expect((await call(base, 'POST', '/api/admin/update', { token: adminToken })).status).toBe(202);
    expect((await call(base, 'POST', '/api/admin/update', { token: adminToken })).status).toBe(409);

    const steps: Array<{ step: string; at: number }> = [];
    let last: { is_running: boolean; current_step: string; progress: number; error?: string } = { is_running: true, current_step: '', progress: 0 };
    await eventually(
      async () => {
        const s = await call(base, 'GET', '/api/admin/update/status', { token: adminToken });
        if (s.status === 200 && steps.at(-1)?.step !== s.body.current_step) steps.push({ step: s.body.current_step, at: Date.now() - from });
        last = s.body;
        expect(s.body.is_running).toBe(false);
      },
      { timeoutMs: 600_000, intervalMs: 500 },
    );
    expect(last.error).toBeUndefined();
    expect(last).toMatchObject({ is_running: false, current_step: UPDATE_FINISHED_STEP, progress: 100 });
    const to = Date.now();
    await traffic.stop();

    const written = traffic.editors.flatMap((e) => e.written);
    const fresh = yClient(`${base.replace(/^http/, 'ws')}/yjs`, boardId, token);
    extra.push(fresh);
    await eventually(() => written.every((id) => fresh.objects().has(id)), { timeoutMs: 60_000, what: 'every edit on the server' });

    const failed = failures(traffic.answers);
    const silence = longestSilenceMs(traffic.answers, from, to);
    process.stdout.write(
      `\n[embedded update] ${steps.map((s) => `${(s.at / 1000).toFixed(1)}s ${s.step}`).join(' | ')}\n` +
        `[embedded update] ${((to - from) / 1000).toFixed(1)} s, ${traffic.answers.length} requests, ${failed.length} not answered with 2xx, ` +
        `${written.length} edits all present; longest time without a successful answer ${silence} ms; ` +
        `editors' sockets: ${watch.map((w) => `${w.count()} reconnects, longest ${w.longestMs()} ms down`).join('; ')}\n`,
    );
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    // Every in-process service was replaced once (the status polls may miss a step shorter than 500 ms).
    const counts = handle.restartCounts();
    expect(Object.keys(counts).sort()).toEqual(['admin', 'auth', 'billing', 'boards', 'export', 'realtime']);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
  }, 700_000);
});
