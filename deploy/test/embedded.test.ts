import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { addSticky, call, eventually, yClient } from './clients.ts';

// What `npm start` runs: every service in one process, embedded PostgreSQL, in-process events.
describe('embedded mode', () => {
  let handle: EmbeddedHandle | undefined;
  const clients: Array<ReturnType<typeof yClient>> = [];
  const client = (...args: Parameters<typeof yClient>) => {
    const c = yClient(...args);
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    for (const c of clients) c.provider.destroy();
    await handle?.stop();
  });

  it('serves every service behind one port and keeps data across a restart', async () => {
    const dataDir = await tempDir('embedded');
    handle = await startEmbedded({ port: 0, dataDir, logLevel: 'warn', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
    const base = handle.url;

    const health = await call(base, 'GET', '/api/health');
    expect(health.status).toBe(200);
    for (const s of ['auth', 'boards', 'realtime']) expect(health.body.services[s].status, s).toBe('up');

    const reg = await call(base, 'POST', '/api/auth/register', { body: { email: 'owner@example.com', password: 'Secret-123', name: 'Ольга' } });
    expect(reg.status).toBe(201);
    const token: string = reg.body.accessToken;
    const created = await call(base, 'POST', '/api/boards', { token, body: { title: 'План', folder_id: null } });
    expect(created.status).toBe(201);
    const boardId: string = created.body.board.id;

    // Two stock y-websocket clients through the gateway see each other's changes.
    const ws = base.replace('http', 'ws') + '/yjs';
    const a = client(ws, boardId, token);
    const b = client(ws, boardId, token);
    await eventually(() => a.provider.synced && b.provider.synced, 10_000, 'sync');
    addSticky(a.doc, 's1', 'Привет');
    await eventually(() => b.objects().has('s1'), 5_000, 'the other client to see the sticky');

    // A viewer link: its connection is closed when the link is rotated (boards → events → realtime).
    expect((await call(base, 'PUT', `/api/boards/${boardId}/sharing`, { token, body: { enabled: true } })).status).toBe(200);
    const shared = await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'] } });
    const viewerToken: string = shared.body.board.viewer_token_hash;
    const viewer = client(ws, boardId, viewerToken);
    await eventually(() => viewer.provider.synced && viewer.objects().has('s1'), 10_000, 'viewer sync');
    await call(base, 'POST', `/api/boards/${boardId}/multiple-links`, { token, body: { enabledRoles: ['viewer'], rotate: true } });
    await eventually(() => viewer.closes.includes(4410), 10_000, 'the rotated link to be closed');
    for (const c of [a, b, viewer]) c.provider.destroy();

    await handle.stop();
    handle = await startEmbedded({ port: 0, dataDir, logLevel: 'warn', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
    const again = await call(handle.url, 'POST', '/api/auth/login', { body: { email: 'owner@example.com', password: 'Secret-123' } });
    expect(again.status).toBe(200);
    const list = await call(handle.url, 'GET', '/api/boards', { token: again.body.accessToken });
    expect(list.body.boards.map((x: { id: string }) => x.id)).toEqual([boardId]);
    const c = client(handle.url.replace('http', 'ws') + '/yjs', boardId, again.body.accessToken);
    await eventually(() => c.provider.synced && c.objects().has('s1'), 10_000, 'the document after restart');
    expect((c.objects().get('s1') as { get(k: string): unknown }).get('text')).toBe('Привет');
    c.provider.destroy();
    // Two starts of every service of deploy/services.ts; on 2 shared cores that alone can take 30 s.
  }, 120_000);
});
