import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceTopology } from '@wb/topology';
import { IMAGE_SERVICES, imageName, type BuiltImage } from '../images/build.ts';
import { PLATFORM_LABEL } from '../images/run.ts';
import type { Engine } from '../images/engine.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';
import { startProductContainers, type ProductContainers, type RunningContainer } from './containers.ts';

const MB = 1024 * 1024;

// The product as containers on a real Docker engine: every image built by `npm run images`'s code,
// run with --network host on free ports, read-only, against real PostgreSQL, NATS and FerretDB on
// this machine, and driven from outside like a user would (set-up shared in ./containers.ts).
describe('container images', () => {
  let product: ProductContainers;
  let engine: Engine;
  let built: BuiltImage[] = [];
  let containers = new Map<string, RunningContainer>();
  const clients: Array<ReturnType<typeof yClient>> = [];
  const inspect = (id: string) => product.inspect(id);

  beforeAll(async () => {
    product = await startProductContainers({ watchEngine: true });
    ({ engine, built, containers } = product);
  }, 1_200_000);

  afterAll(async () => {
    for (const c of clients) c.provider.destroy();
    await product?.stop();
  }, 120_000);

  it('keeps each service layer above the shared base under 80 MB', () => {
    expect(built.map((b) => b.service).sort()).toEqual(IMAGE_SERVICES.map((s) => s.name).sort());
    for (const b of built) expect(b.aboveBase, `${b.image}: ${(b.aboveBase / MB).toFixed(1)} MB`).toBeLessThan(80 * MB);
  });

  it('runs every service as user 10001 on a read-only root with a health check that passes', { timeout: 120_000 }, async () => {
    for (const [name, { id }] of containers) {
      const info = inspect(id);
      expect(info.Config.User, name).toBe('10001:10001');
      expect(info.HostConfig.ReadonlyRootfs, name).toBe(true);
      expect(info.Config.Healthcheck?.Test.join(' '), name).toContain('/health');
      // The platform's label, which the admin service's Docker adapter lists by.
      const [key, value] = PLATFORM_LABEL.split('=') as [string, string];
      expect(info.Config.Labels?.[key], name).toBe(value);
    }
    expect(inspect(containers.get('admin')!.id).Config.Env).toContain('CONTAINER_RUNTIME=docker');
    await eventually(() => [...containers.values()].every(({ id }) => inspect(id).State.Health?.Status === 'healthy'), 60_000, 'every container healthy');
  });

  it('serves a user from outside: register, a board edited by two sockets, a PNG export; docker stop loses nothing', async () => {
    const base = `http://127.0.0.1:${containers.get('gateway')!.port}`;
    const spa = await fetch(`${base}/`);
    expect(spa.status).toBe(200);
    expect(await spa.text()).toContain('<div id="root">');

    const reg = await call(base, 'POST', '/api/auth/register', { body: { email: 'docker@example.com', password: 'Secret-123', name: 'Контейнер' } });
    expect(reg.status).toBe(201);
    const token: string = reg.body.accessToken;
    const boardId: string = (await call(base, 'POST', '/api/boards', { token, body: { title: 'В контейнерах', folder_id: null } })).body.board.id;

    const ws = `${base.replace('http', 'ws')}/yjs`;
    const a = yClient(ws, boardId, token);
    const b = yClient(ws, boardId, token);
    clients.push(a, b);
    await eventually(() => a.provider.synced && b.provider.synced, 20_000, 'both clients to sync');
    addSticky(a.doc, 'from-a', 'первый');
    addSticky(b.doc, 'from-b', 'второй');
    await eventually(() => a.objects().has('from-b') && b.objects().has('from-a'), 15_000, 'the edits to cross');
    // Written to the store before anyone sees it (durable before visible): force-save makes the
    // compacted document current too.
    expect((await call(base, 'POST', '/yjs/force-save', { token, body: { boardId } })).status).toBe(200);

    const png = await fetch(`${base}/api/export/png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ boardId, area: { x: -50, y: -50, width: 400, height: 300 } }),
    });
    expect(png.status, await png.clone().text().catch(() => '')).toBe(200);
    expect(png.headers.get('content-type')).toContain('image/png');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    a.provider.destroy();
    b.provider.destroy();

    // SIGTERM (docker stop): every service stops in its own order within 10 s and exits 0.
    for (const [name, { id }] of [...containers].reverse()) {
      const started = Date.now();
      engine.docker(['stop', '--time', '10', id], { quiet: true });
      expect(Date.now() - started, `${name} stopped within 10 s`).toBeLessThan(10_000);
      expect(inspect(id).State.ExitCode, `${name} exit code`).toBe(0);
    }
    // Started again: the account, the board and both edits are there.
    for (const [name, { id, port }] of containers) {
      engine.docker(['start', id], { quiet: true });
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok === true, 90_000, `${name} ready again`);
    }
    const login = await call(base, 'POST', '/api/auth/login', { body: { email: 'docker@example.com', password: 'Secret-123' } });
    expect(login.status).toBe(200);
    const again = yClient(ws, boardId, login.body.accessToken);
    clients.push(again);
    await eventually(() => again.provider.synced && again.objects().has('from-a') && again.objects().has('from-b'), 30_000, 'the edits after the restart');
  }, 600_000);

  it('refuses to start without a required setting, naming it', { timeout: 120_000 }, () => {
    const required = serviceTopology('auth').settings.required[0]!;
    let out = '';
    try {
      engine.docker(['run', '--rm', '--network', 'none', '--read-only', imageName('auth')], { quiet: true });
    } catch (err) {
      out = String(err);
    }
    expect(out).toContain(required);
  });
});
