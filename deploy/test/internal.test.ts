import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call } from './clients.ts';

// Issue 7, item 6: /internal/* needs the shared credential, the embedded mode's loopback ports
// answer nothing without it, and /metrics never leaves through the gateway's public port.
describe('internal calls and metrics are closed', () => {
  let handle: EmbeddedHandle;
  beforeAll(async () => {
    handle = await startEmbedded({ port: 0, dataDir: await tempDir('internal'), logLevel: 'warn', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
  });
  afterAll(async () => {
    await handle?.stop();
  });
  const withToken = () => ({ 'x-internal-token': handle.internalToken });

  it('loopback ports answer an empty 404 to anything without the credential, even /health', async () => {
    expect(Object.keys(handle.internalUrls)).toEqual(expect.arrayContaining(['auth', 'boards', 'realtime']));
    for (const [name, url] of Object.entries(handle.internalUrls)) {
      for (const p of ['/health', '/ready', '/metrics', '/internal/jwks', '/api/anything']) {
        const res = await fetch(url + p);
        expect(res.status, `${name} ${p}`).toBe(404);
        expect(await res.text(), `${name} ${p}`).toBe('');
      }
      const wrong = await fetch(url + '/health', { headers: { 'x-internal-token': handle.internalToken + 'x' } });
      expect(wrong.status, name).toBe(404);
      const right = await fetch(url + '/health', { headers: withToken() });
      expect(right.status, name).toBe(200);
      const metrics = await fetch(url + '/metrics', { headers: withToken() });
      expect(await metrics.text(), name).toContain('http_request_duration_seconds');
    }
  });

  it('internal routes need the credential; with it they work', async () => {
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email: 'inner@example.com', password: 'Secret-123', name: 'Иван' } });
    const board = await call(handle.url, 'POST', '/api/boards', { token: reg.body.accessToken, body: { title: 'Внутри', folder_id: null } });
    const boardId: string = board.body.board.id;
    const access = (headers: Record<string, string>) =>
      fetch(`${handle.internalUrls.boards}/internal/boards/${boardId}/access`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ userId: reg.body.user.id }),
      });
    expect((await access({})).status).toBe(404);
    const ok = await access(withToken());
    expect(ok.status).toBe(200);
    expect((await ok.json()).role).toBe('owner');
    const jwks = await fetch(`${handle.internalUrls.auth}/internal/jwks`, { headers: withToken() });
    expect((await jwks.json()).keys.length).toBeGreaterThan(0);
  });

  it('the gateway routes neither /internal nor /metrics, and its health check still sees every service', async () => {
    for (const p of ['/metrics', '/internal/jwks', '/internal/boards/x/access']) {
      const res = await fetch(handle.url + p);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('http_request_duration_seconds');
    }
    const health = await call(handle.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
    for (const s of ['auth', 'boards', 'realtime']) expect(health.body.services[s].status, s).toBe('up');
  });
});
