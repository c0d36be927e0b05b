import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendezvous } from '@wb/gateway';
import { readFileSync } from 'node:fs';
import { startCluster, type ClusterHandle, type ServiceProcess } from '../local/cluster.ts';
import { nodeFlagsOf } from '../services.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';

/** Open sockets on one realtime replica, from its own /metrics. */
async function connectionsOn(replica: ServiceProcess): Promise<number> {
  const res = await fetch(`${replica.url}/metrics`);
  const text = await res.text();
  const n = /^realtime_connections(?:{[^}]*})? (\d+)/m.exec(text)?.[1];
  if (n === undefined) throw new Error(`no realtime_connections in /metrics (${res.status}): ${text.slice(0, 300)}`);
  return Number(n);
}

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
    cluster = await startCluster({ realtimeReplicas: 2 });
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

    // The gateway puts every socket of the board on one replica (rendezvous on the board id).
    const [r1, r2] = cluster.realtimeReplicas as [ServiceProcess, ServiceProcess];
    const home = rendezvous(boardId, [r1.url, r2.url].sort()) === r1.url ? r1 : r2;
    const other = home === r1 ? r2 : r1;
    // Each replica runs with realtime's V8 flags (deploy/node-flags.json: a smaller young generation).
    expect(nodeFlagsOf('@wb/realtime')).toContain('--max-semi-space-size=8');
    for (const r of [r1, r2]) expect(readFileSync(`/proc/${r.child.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(nodeFlagsOf('@wb/realtime')));
    const viaGateway = client(`${base.replace('http', 'ws')}/yjs`, boardId, token);
    const alsoViaGateway = client(`${base.replace('http', 'ws')}/yjs`, boardId, token);
    const onOther = client(`${other.url.replace('http', 'ws')}/yjs`, boardId, token);
    await eventually(() => viaGateway.provider.synced && alsoViaGateway.provider.synced && onOther.provider.synced, 15_000, 'sync on both replicas');
    expect(await connectionsOn(home)).toBe(2);
    expect(await connectionsOn(other)).toBe(1);
    addSticky(viaGateway.doc, 'a', 'с первой реплики');
    addSticky(onOther.doc, 'b', 'со второй реплики');
    await eventually(() => viaGateway.objects().has('b') && alsoViaGateway.objects().has('b') && onOther.objects().has('a'), 10_000, 'replicas to converge');

    // A viewer on the other replica is cut off when the owner rotates the link (boards → JetStream → realtime).
    await call(base, 'PUT', `/api/boards/${boardId}/sharing`, { token, body: { enabled: true } });
    const links = await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'] } });
    const viewer = client(`${other.url.replace('http', 'ws')}/yjs`, boardId, links.body.board.viewer_token_hash);
    await eventually(() => viewer.provider.synced && viewer.objects().has('b'), 15_000, 'viewer sync');
    await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'], rotate: true } });
    await eventually(() => viewer.closes.includes(4410), 15_000, 'the rotated link to be closed');
    viewer.provider.destroy();

    // kill -9 of the board's replica: the gateway's sockets reconnect to the other one and keep
    // editing; a replica started later has everything. No flush window to wait out: realtime shows an
    // edit to others only once it is stored (durable before visible), and 'a' and 'b' were shown.
    await home.kill();
    await eventually(() => viaGateway.closes.length > 0 && alsoViaGateway.closes.length > 0, 10_000, 'the dead replica to drop its sockets');
    await eventually(
      async () => viaGateway.provider.synced && alsoViaGateway.provider.synced && (await connectionsOn(other)) === 3,
      15_000,
      'the sockets to come back through the gateway, on the other replica',
    );
    addSticky(alsoViaGateway.doc, 'c', 'после падения реплики');
    await eventually(() => viaGateway.objects().has('c') && onOther.objects().has('c'), 10_000, 'edits after the failover');
    const third = await cluster.startRealtimeReplica();
    const late = client(`${third.url.replace('http', 'ws')}/yjs`, boardId, token);
    await eventually(() => late.provider.synced && ['a', 'b', 'c'].every((k) => late.objects().has(k)), 15_000, 'the full state on a new replica');
  }, 180_000);
});
