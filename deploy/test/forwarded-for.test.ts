import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';

/**
 * X-Forwarded-For counts only from proxies named in TRUST_PROXY: a client that rotates it on its
 * own cannot make unlimited login attempts (issue 8, item 8).
 */
const handles: EmbeddedHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.stop();
});

async function attempts(url: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      // Each attempt claims another address and guesses another account.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
      body: JSON.stringify({ email: `victim${i}@example.com`, password: 'Guess-123' }),
    });
    statuses.push(res.status);
    await res.arrayBuffer();
  }
  return statuses;
}

describe('forwarded addresses', () => {
  it('without TRUST_PROXY a rotated X-Forwarded-For is ignored: the attempts count against the real address', async () => {
    const h = await startEmbedded({ port: 0, dataDir: await tempDir('xff-untrusted'), logLevel: 'silent', env: { TRUST_PROXY: '' } });
    handles.push(h);
    const statuses = await attempts(h.url, 40);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
  });

  it('with TRUST_PROXY naming the proxy, each forwarded address is its own', async () => {
    const h = await startEmbedded({ port: 0, dataDir: await tempDir('xff-trusted'), logLevel: 'silent', env: { TRUST_PROXY: 'loopback' } });
    handles.push(h);
    const statuses = await attempts(h.url, 40);
    expect(statuses.every((s) => s === 401)).toBe(true);
  });
});
