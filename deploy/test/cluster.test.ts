import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type ClusterHandle } from '../local/cluster.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';

// The local cluster mode: each service its own process, real nats-server (JetStream + core relay),
// FerretDB as realtime's MongoDB, PostgreSQL for auth and boards.
describe('local cluster', () => {
  let cluster: ClusterHandle;
  const clients: Array<ReturnType<typeof yClient>> = [];
  const client = (...args: Parameters<typeof yClient>) => {
    const c = yClient(...args);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    cluster = await startCluster();
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.provider.destroy();
    await cluster?.stop();
  });

  // Each service process compiles its TypeScript at start: on 2 shared cores a replica takes seconds.
  it('works across processes: gateway, events over NATS, realtime replicas over NATS and MongoDB', async () => {
    const base = cluster.url;
    const health = await call(base, 'GET', '/api/health');
    for (const s of ['auth', 'boards', 'realtime']) expect(health.body.services[s].status, s).toBe('up');

    const reg = await call(base, 'POST', '/api/auth/register', { body: { email: 'team@example.com', password: 'Secret-123', name: 'Команда' } });
    const token: string = reg.body.accessToken;
    const boardId: string = (await call(base, 'POST', '/api/boards', { token, body: { title: 'Кластер', folder_id: null } })).body.board.id;

    const second = await cluster.startRealtimeReplica();
    const viaGateway = client(`${base.replace('http', 'ws')}/yjs`, boardId, token);
    const onSecond = client(`${second.url.replace('http', 'ws')}/yjs`, boardId, token);
    await eventually(() => viaGateway.provider.synced && onSecond.provider.synced, 15_000, 'sync on both replicas');
    addSticky(viaGateway.doc, 'a', 'с первой реплики');
    addSticky(onSecond.doc, 'b', 'со второй реплики');
    await eventually(() => viaGateway.objects().has('b') && onSecond.objects().has('a'), 10_000, 'replicas to converge');

    // A viewer on the second replica is cut off when the owner rotates the link (boards → JetStream → realtime).
    await call(base, 'PUT', `/api/boards/${boardId}/sharing`, { token, body: { enabled: true } });
    const links = await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'] } });
    const viewer = client(`${second.url.replace('http', 'ws')}/yjs`, boardId, links.body.board.viewer_token_hash);
    await eventually(() => viewer.provider.synced && viewer.objects().has('b'), 15_000, 'viewer sync');
    await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'], rotate: true } });
    await eventually(() => viewer.closes.includes(4410), 15_000, 'the rotated link to be closed');

    // kill -9 of the first replica after its flush window: a replica started later has everything.
    await new Promise((r) => setTimeout(r, 500));
    await cluster.services.realtime!.kill();
    const third = await cluster.startRealtimeReplica();
    const late = client(`${third.url.replace('http', 'ws')}/yjs`, boardId, token);
    await eventually(() => late.provider.synced && late.objects().has('a') && late.objects().has('b'), 15_000, 'the full state on a new replica');
  }, 180_000);
});
