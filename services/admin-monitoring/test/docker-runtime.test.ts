import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminConfigSchema } from '../src/config.ts';
import { createDockerRuntime } from '../src/runtime/docker.ts';
import type { ContainerRuntime } from '../src/runtime/types.ts';
import { freePort } from '@wb/db';
import { imageName } from '../../../deploy/images/build.ts';
import { PLATFORM_LABEL } from '../../../deploy/images/run.ts';
import { addSticky, call, eventually, yClient } from '../../../deploy/test/clients.ts';
import { startProductContainers, type ProductContainers } from '../../../deploy/test/containers.ts';

// The Docker adapter against the real engine (INFRA.md §2) running the product's own images: ten
// containers (every service, and second auth, boards and billing containers), read with their real
// numbers, one stopped, and the update recreating each of the rest one at a time while the product
// is asked every 100 ms. `npx vitest run services/admin-monitoring/test/docker-runtime.test.ts`
// prints the listing's time (cold, 10 containers) and the longest time anything went unanswered.

const REPLICAS = ['auth', 'boards', 'billing'];
const ADMIN = { email: 'root@example.com', password: 'Admin-Secret-123' };
const ms = (n: number) => `${Math.round(n)} ms`;

/** Asks `ask` every `everyMs` until stopped; the longest time between two answers is the gap. */
function keepAsking(name: string, ask: () => Promise<boolean>, everyMs = 100) {
  const r = { name, answered: 0, failed: 0, longestGap: 0, lastError: '' };
  let last = performance.now();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const ok = await ask().catch((err: unknown) => {
        r.lastError = String((err as Error)?.cause ?? err).slice(0, 120);
        return false;
      });
      const now = performance.now();
      if (ok) {
        r.longestGap = Math.max(r.longestGap, now - last);
        last = now;
        r.answered++;
      } else r.failed++;
      // wait-ok: the pace of the traffic kept up during the update (the workload), not a wait for a result
      await new Promise((res) => setTimeout(res, everyMs));
    }
  })();
  return {
    r,
    async stop() {
      stopped = true;
      await loop;
      r.longestGap = Math.max(r.longestGap, performance.now() - last);
      return r;
    },
  };
}

const okStatus = (url: string, token?: string) =>
  fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(5_000) }).then((res) => {
    void res.arrayBuffer();
    return res.ok;
  });

describe('Docker runtime on the real engine', () => {
  let product: ProductContainers;
  let runtime: ContainerRuntime;
  let docker: Docker;
  let gw: string;
  let adminToken: string;
  const names = () => [...product.containers.values()].map((c) => c.name);

  beforeAll(async () => {
    product = await startProductContainers({ watchEngine: true, replicas: REPLICAS, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    gw = `http://127.0.0.1:${product.containers.get('gateway')!.port}`;
    const login = await call(gw, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    adminToken = login.body.accessToken;
    docker = new Docker({ socketPath: product.engine.socketPath });
    // This run's containers only: other runs may share the engine (their platform label is the same).
    runtime = createDockerRuntime({ socketPath: product.engine.socketPath, label: product.runLabel, healthTimeoutMs: 120_000 });
  }, 1_500_000);

  afterAll(async () => {
    await runtime?.close();
    await product?.stop();
  }, 180_000);

  it('runs the product’s containers with the label DOCKER_LABEL lists by default', () => {
    expect(AdminConfigSchema.shape.DOCKER_LABEL.parse(undefined)).toBe(PLATFORM_LABEL);
    const [key, value] = PLATFORM_LABEL.split('=') as [string, string];
    for (const c of product.containers.values()) expect(product.inspect(c.id).Config.Labels?.[key], c.name).toBe(value);
  });

  it('lists the ten containers with state, uptime, CPU, memory and disk from one stats sample each', { timeout: 120_000 }, async () => {
    // One core kept busy inside the boards container for the whole sample: its CPU % must show it.
    const boards = product.containers.get('boards')!;
    const burn = docker.getContainer(boards.id).exec({ Cmd: ['node', '-e', 'const t=Date.now();while(Date.now()-t<6000);'] });
    const exec = await burn;
    await exec.start({ Detach: true });
    const started = performance.now();
    const { containers, error } = await runtime.listContainers();
    const cold = performance.now() - started;
    process.stdout.write(`\n[docker] listContainers with ${containers.length} containers (cold: stats of each sampled): ${ms(cold)}\n`);
    expect(error).toBeUndefined();
    expect(containers.map((c) => c.name).sort()).toEqual(names().sort());
    for (const c of containers) {
      const own = [...product.containers.values()].find((x) => x.name === c.name)!;
      expect(c, c.name).toMatchObject({ id: own.id.slice(0, 12), state: 'running', image: expect.stringMatching(new RegExp(`^whiteboard-${own.service}:`)) });
      expect(c.error, c.name).toBeUndefined();
      expect(Date.now() / 1000 - c.created, c.name).toBeLessThan(3_600);
      expect(c.uptime, c.name).toBeGreaterThanOrEqual(0);
      expect(c.cpu.usage, c.name).toBeGreaterThanOrEqual(0);
      // A Node service holds tens of MB; the limit is the host's memory when none is set.
      expect(c.memory.used, c.name).toBeGreaterThan(10);
      expect(c.memory.limit, c.name).toBeGreaterThan(c.memory.used!);
      expect(c.memory.usage, c.name).toBeCloseTo((c.memory.used! / c.memory.limit!) * 100, 0);
      // The host's network: the engine has no per-container counters to give.
      expect(c.network, c.name).toEqual({ rx: null, tx: null });
      expect(c.disk.size, c.name).toBeGreaterThanOrEqual(0);
    }
    const busy = containers.find((c) => c.name === boards.name)!;
    expect(busy.cpu.usage, 'the busy container’s CPU %').toBeGreaterThan(30);
    // The same memory figure as the engine's own CLI (MiB), within what a second's drift allows.
    const cli = product.engine.docker(['stats', '--no-stream', '--format', '{{.Name}} {{.MemUsage}}', boards.id], { quiet: true });
    const cliMb = Number(/ ([\d.]+)MiB/.exec(cli)?.[1]);
    expect(Math.abs(busy.memory.used! - cliMb), `${cli} vs ${busy.memory.used} MB`).toBeLessThan(Math.max(8, cliMb * 0.15));
  });

  it('GET /api/admin/docker through the gateway: the admin container reads the engine; cold and cached times', { timeout: 120_000 }, async () => {
    const timed = async () => {
      const t = performance.now();
      const res = await call(gw, 'GET', '/api/admin/docker', { token: adminToken });
      return { ms: performance.now() - t, res };
    };
    const cold: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await call(gw, 'POST', '/api/admin/system/refresh-cache', { token: adminToken, body: {} })).status).toBe(200);
      const a = await timed();
      expect(a.res.status).toBe(200);
      expect(a.res.body).toMatchObject({ runtime: 'docker', cached: false, total: 10, running: 10 });
      expect(a.res.body.error).toBeUndefined();
      expect(a.res.body.containers.map((c: { name: string }) => c.name).sort()).toEqual(names().sort());
      cold.push(a.ms);
      const b = await timed();
      expect(b.res.body).toMatchObject({ cached: true, total: 10, cacheTime: a.res.body.cacheTime });
      cached.push(b.ms);
    }
    process.stdout.write(`[docker] GET /api/admin/docker, 10 containers, through the gateway: cold ${cold.map(ms).join(', ')}; cached ${cached.map(ms).join(', ')}\n`);
    // A user who is not an administrator is refused before anything is read.
    const user = await call(gw, 'POST', '/api/auth/register', { body: { email: 'plain@example.com', password: 'Secret-123', name: 'Пользователь' } });
    expect((await call(gw, 'GET', '/api/admin/docker', { token: user.body.accessToken })).status).toBe(403);
  });

  it('shows a stopped container as exited, without usage, and keeps reading the others', { timeout: 60_000 }, async () => {
    const stopped = product.containers.get('auth-2')!;
    product.engine.docker(['stop', '--time', '10', stopped.id], { quiet: true });
    const { containers, error } = await runtime.listContainers();
    expect(error).toBeUndefined();
    expect(containers).toHaveLength(10);
    const c = containers.find((x) => x.name === stopped.name)!;
    expect(c).toMatchObject({ state: 'exited', uptime: null, cpu: { usage: 0 }, memory: { usage: 0, used: 0 } });
    expect(c.error).toBeUndefined();
    expect(containers.filter((x) => x.state === 'running')).toHaveLength(9);
  });

  it('answers an engine it cannot reach with an error text, quickly, never throwing', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docker-sock-'));
    const missing = createDockerRuntime({ socketPath: path.join(dir, 'none.sock'), label: PLATFORM_LABEL });
    let t = performance.now();
    const a = await missing.listContainers();
    expect(a.containers).toEqual([]);
    expect(a.error).toMatch(/^Docker недоступен .*none\.sock.*ENOENT/);
    // At once, not after retries; the bounds here only tell an answer from a hang (a loaded 2-core
    // machine must not fail them), the test's own 30 s being the hang.
    expect(performance.now() - t).toBeLessThan(10_000);
    // A socket that accepts and never answers (a hung engine): the timeout answers instead.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((res) => silent.listen(path.join(dir, 'hung.sock'), res));
    const hung = createDockerRuntime({ socketPath: path.join(dir, 'hung.sock'), label: PLATFORM_LABEL, timeoutMs: 500 });
    t = performance.now();
    const b = await hung.listContainers();
    expect(b.containers).toEqual([]);
    expect(b.error).toMatch(/^Docker недоступен .*hung\.sock/);
    expect(performance.now() - t).toBeLessThan(15_000);
    for (const s of sockets) s.destroy();
    await new Promise<void>((res) => silent.close(() => res()));
  });

  it('a service listening without SO_REUSEPORT is stopped before its new container starts; one without a health check is judged by /ready', { timeout: 240_000 }, async () => {
    // Two small HTTP servers in a product image (its entry and health check replaced): one shares
    // its port with a successor, one does not. Their own label keeps the product out of this plan.
    const label = `wb.fallback=${product.runLabel.split('=')[1]}`;
    const prefix = product.runLabel.split('=')[1]!;
    const serve = (reusePort: boolean) =>
      `const s=require('http').createServer((q,r)=>r.end('ok')).listen({port:+process.env.PORT,reusePort:${reusePort}});` +
      `process.on('SIGTERM',()=>{s.close();s.closeIdleConnections()})`;
    const servers = await Promise.all(
      [true, false].map(async (reusePort) => {
        const port = await freePort();
        const name = `${prefix}-plain-${reusePort ? 'shared' : 'own'}`;
        const id = product.engine
          .docker(['run', '-d', '--name', name, '--network', 'host', '--label', label, '--no-healthcheck', '--entrypoint', 'node', '-e', `PORT=${port}`, imageName('billing'), '-e', serve(reusePort)], { quiet: true })
          .trim();
        return { reusePort, port, name, id };
      }),
    );
    for (const s of servers) await eventually(() => product.ready(s.port), 30_000, `${s.name} to answer`);
    const rt = createDockerRuntime({ socketPath: product.engine.socketPath, label, healthTimeoutMs: 60_000 });
    const plan = await rt.restartPlan();
    expect(plan.map((p) => p.name)).toEqual([`Перезапуск контейнера ${prefix}-plain-own`, `Перезапуск контейнера ${prefix}-plain-shared`]);
    const askers = servers.map((s) => keepAsking(s.name, () => okStatus(`http://127.0.0.1:${s.port}/`)));
    for (const step of plan) await step.run();
    const [shared, own] = await Promise.all(askers.map((a) => a.stop()));
    process.stdout.write(`[docker] without a health check: SO_REUSEPORT ${ms(shared!.longestGap)} without an answer (${shared!.failed} failed); without it (stopped first) ${ms(own!.longestGap)} (${own!.failed} failed)\n`);
    const now = await docker.listContainers({ all: true, filters: { label: [label] } });
    expect(now.map((c) => c.Names[0]).sort()).toEqual(servers.map((s) => `/${s.name}`).sort());
    for (const c of now) {
      expect(c.State, c.Names[0]).toBe('running');
      expect(servers.map((s) => s.id)).not.toContain(c.Id);
    }
    // Beside each other the shared one never stopped answering; the other had a gap while it started.
    expect(shared!.failed).toBe(0);
    expect(own!.failed).toBeGreaterThan(0);
    await rt.close();
  });

  it('POST /api/admin/update recreates each running container, one at a time and itself last, while the product keeps answering; a second start is refused', { timeout: 900_000 }, async () => {
    const reg = await call(gw, 'POST', '/api/auth/register', { body: { email: 'update@example.com', password: 'Secret-123', name: 'Обновление' } });
    expect(reg.status).toBe(201);
    const token: string = reg.body.accessToken;
    const boardId: string = (await call(gw, 'POST', '/api/boards', { token, body: { title: 'Во время обновления', folder_id: null } })).body.board.id;
    const ws = `${gw.replace('http', 'ws')}/yjs`;
    const writer = yClient(ws, boardId, token);
    const reader = yClient(ws, boardId, token);
    await eventually(() => writer.provider.synced && reader.provider.synced, 30_000, 'both clients to sync');

    const running = [...product.containers.values()].filter((c) => product.inspect(c.id).State.Running);
    const before = new Map(running.map((c) => [c.name, product.inspect(c.id)]));

    // Every container's port directly, and the product's own calls through the gateway.
    const askers = [
      ...running.map((c) => keepAsking(c.name.replace(/^t[0-9a-f]+-/, ''), () => okStatus(`http://127.0.0.1:${c.port}/health`))),
      keepAsking('GET /api/auth/profile', () => okStatus(`${gw}/api/auth/profile`, token)),
      keepAsking('GET /api/boards', () => okStatus(`${gw}/api/boards`, token)),
      keepAsking('GET /api/billing/plans', () => okStatus(`${gw}/api/billing/plans`)),
    ];
    let edits = 0;
    const typing = setInterval(() => addSticky(writer.doc, `e${edits++}`, 'правка'), 200);
    // Watches that no two containers are ever being replaced at once (a `.next` beside its old one),
    // and the order in which names get a new container.
    let mostAtOnce = 0;
    const order: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const list = await docker.listContainers({ all: true, filters: { label: [product.runLabel] } }).catch(() => []);
        mostAtOnce = Math.max(mostAtOnce, list.filter((c) => c.Names[0]!.endsWith('.next')).length);
        for (const c of list) {
          const name = c.Names[0]!.slice(1);
          if (before.has(name) && before.get(name)!.Id !== c.Id && !order.includes(name)) order.push(name);
        }
        // wait-ok: the sampling pace of a watcher that observes the whole update, not a wait for a result
        await new Promise((res) => setTimeout(res, 200));
      }
    })();

    const started = performance.now();
    const first = await call(gw, 'POST', '/api/admin/update', { token: adminToken, body: {} });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const second = await call(gw, 'POST', '/api/admin/update', { token: adminToken, body: {} });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'UPDATE_ALREADY_RUNNING', error: 'Обновление системы уже выполняется. Дождитесь его завершения' });
    const steps: string[] = [];
    let status: { is_running: boolean; current_step: string; progress: number; error?: string } | undefined;
    await eventually(
      async () => {
        const res = await call(gw, 'GET', '/api/admin/update/status', { token: adminToken }).catch(() => undefined);
        if (res?.status !== 200) return false; // the admin container itself is being replaced
        status = res.body;
        if (steps.at(-1) !== status!.current_step) steps.push(status!.current_step);
        // A failed run ends too (with its error, asserted below).
        return !status!.is_running;
      },
      { timeoutMs: 800_000, intervalMs: 250, what: 'the update to finish' },
    );
    // The run's error, with what the admin container said, before anything else is judged.
    const adminName = product.containers.get('admin')!.name;
    expect(status?.error, `${JSON.stringify(status)}\n${product.engine.logs(adminName).slice(-3000)}`).toBeUndefined();
    // The new admin process ends the run as it starts (its own restart was the last step); the
    // step itself ends when that container is healthy and takes the name.
    await eventually(() => order.length === before.size, { timeoutMs: 180_000, intervalMs: 250, what: 'every container replaced' });
    const took = performance.now() - started;
    clearInterval(typing);
    watching = false;
    await watcher;
    const results = await Promise.all(askers.map((a) => a.stop()));

    process.stdout.write(`[docker] update of ${running.length} containers through POST /api/admin/update: ${ms(took)}; at most ${mostAtOnce} replaced at once\n`);
    process.stdout.write(`[docker] steps seen: ${steps.join(' → ')}\n[docker] replaced in order: ${order.join(', ')}\n`);
    process.stdout.write('| asked | answered | failed | longest without an answer |\n|---|---|---|---|\n');
    for (const r of results) process.stdout.write(`| ${r.name} | ${r.answered} | ${r.failed} | ${ms(r.longestGap)} |${r.lastError ? ` ${r.lastError}` : ''}\n`);

    expect(status).toMatchObject({ is_running: false, current_step: 'Завершено', progress: 100 });
    expect(mostAtOnce).toBe(1);
    // Every running container replaced, this admin container (which ran the update) last.
    expect([...order].sort()).toEqual([...before.keys()].sort());
    expect(order.at(-1)).toBe(product.containers.get('admin')!.name);
    expect(steps.filter((x) => x.startsWith('Перезапуск'))).toEqual(order.map((n) => `Перезапуск контейнера ${n}`));
    // The replaced admin container is removed by the new one's listing once it has stopped.
    await eventually(
      async () => {
        await call(gw, 'POST', '/api/admin/system/refresh-cache', { token: adminToken, body: {} }).catch(() => undefined);
        const res = await call(gw, 'GET', '/api/admin/docker', { token: adminToken }).catch(() => undefined);
        const left = await docker.listContainers({ all: true, filters: { label: [product.runLabel] } });
        return res?.status === 200 && res.body.total === 10 && left.length === 10;
      },
      60_000,
      'the retired admin container to be removed',
    );
    // The same configuration under the same name, running and healthy; the stopped one left as it was.
    const now = await docker.listContainers({ all: true, filters: { label: [product.runLabel] } });
    for (const [name, old] of before) {
      const c = now.find((x) => x.Names[0] === `/${name}`);
      expect(c, name).toBeDefined();
      const info = await docker.getContainer(c!.Id).inspect();
      expect(info.Id).not.toBe(old.Id);
      await eventually(async () => (await docker.getContainer(c!.Id).inspect()).State.Health?.Status === 'healthy', 60_000, `${name} healthy`);
      expect([...(info.Config.Env ?? [])].sort()).toEqual([...(old.Config.Env ?? [])].sort());
      expect(info.Config.Labels).toEqual(old.Config.Labels);
      expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    }
    // A stopped container (auth-2, stopped by the test before) is not the update's: left as it was.
    for (const c of [...product.containers.values()].filter((x) => !before.has(x.name))) expect(now.find((x) => x.Id === c.id)?.State, c.name).toBe('exited');

    // The product answered throughout: every caller got answers, and the edits all arrived.
    for (const r of results) expect(r.answered, r.name).toBeGreaterThan(10);
    await eventually(() => [...Array(edits).keys()].every((i) => reader.objects().has(`e${i}`)), 60_000, 'every edit made during the update to reach the other client');
    writer.provider.destroy();
    reader.provider.destroy();
    const late = yClient(ws, boardId, token);
    await eventually(() => late.provider.synced && [...Array(edits).keys()].every((i) => late.objects().has(`e${i}`)), 60_000, 'every edit kept');
    late.provider.destroy();
  });
});
