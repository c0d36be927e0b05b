// listen's reusePort handover (the local cluster's and Docker's rolling restart): a successor
// listens on the same port, the old server drains, and a caller on a kept-alive connection loses
// no request — not even one sent on an idle connection at the moment the old server stops accepting.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../src/server.ts';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function named(name: string, port: number): Promise<RunningServer> {
  const s = await listen((_req, res) => res.end(name), port, '127.0.0.1', { reusePort: true });
  servers.push(s);
  return s;
}

function get(port: number, agent: http.Agent): Promise<{ body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ body, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

describe('listen with reusePort', () => {
  it('a draining server answers a request sent on its idle kept-alive connection, with Connection: close; the next goes to the successor', async () => {
    const old = await named('old', 0);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(old.port, agent)).toEqual({ body: 'old', connection: 'keep-alive' });
    // The connection is idle now; a request is queued on it in the same tick the handover starts.
    const during = get(old.port, agent);
    const draining = old.drain!(300);
    expect(await during).toEqual({ body: 'old', connection: 'close' });
    await named('new', old.port);
    await draining;
    await old.close();
    for (let i = 0; i < 5; i++) expect((await get(old.port, agent)).body).toBe('new');
    agent.destroy();
  });

  it('two servers share the port while both listen', async () => {
    const a = await named('a', 0);
    await named('b', a.port);
    const seen = new Set<string>();
    for (let i = 0; i < 200 && seen.size < 2; i++) seen.add((await get(a.port, new http.Agent({ keepAlive: false }))).body);
    expect([...seen].sort()).toEqual(['a', 'b']);
  });
});
