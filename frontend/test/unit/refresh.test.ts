import { describe, expect, it, vi } from 'vitest';
import {
  createTokenRefresher,
  executeWithRefresh,
  isRefreshExempt,
  type FetchFn,
} from '../../src/api/refresh.ts';
import { createMemoryTokenStore } from '../../src/features/auth/tokenStorage.ts';

/**
 * A fake fetch that behaves like the auth endpoints: access tokens are valid until the test
 * expires them; POST /api/auth/refresh rotates the pair (the old refresh token is spent).
 */
function fakeBackend(opts: { refreshDelayMs?: number; refreshFails?: boolean } = {}) {
  const validAccess = new Set<string>(['a0']);
  const validRefresh = new Set<string>(['r0']);
  let generation = 0;
  const calls = { refresh: 0, boards: 0, authHeaders: [] as (string | null)[] };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  const fetchFn: FetchFn = async (url, init) => {
    const headers = new Headers(init?.headers);
    if (url === '/api/auth/refresh') {
      calls.refresh++;
      // wait-ok: a refresh that takes a while (so concurrent requests meet it) is the scenario
      await new Promise((r) => setTimeout(r, opts.refreshDelayMs ?? 5));
      const { refreshToken } = JSON.parse(String(init?.body)) as { refreshToken: string };
      if (opts.refreshFails || !validRefresh.has(refreshToken)) {
        return json(401, { error: 'Сессия недействительна. Войдите снова', code: 'REFRESH_TOKEN_INVALID' });
      }
      validRefresh.delete(refreshToken);
      generation++;
      validAccess.add(`a${generation}`);
      validRefresh.add(`r${generation}`);
      return json(200, { accessToken: `a${generation}`, refreshToken: `r${generation}` });
    }
    calls.boards++;
    const auth = headers.get('Authorization');
    calls.authHeaders.push(auth);
    const token = auth?.replace(/^Bearer /, '');
    if (!token) return json(401, { error: 'Требуется авторизация', code: 'TOKEN_MISSING' });
    if (!validAccess.has(token))
      return json(401, { error: 'Срок действия токена истёк', code: 'TOKEN_EXPIRED' });
    return json(200, { ok: true, token });
  };
  return { fetchFn, calls, expireAll: () => validAccess.clear() };
}

function setup(backendOpts?: Parameters<typeof fakeBackend>[0]) {
  const backend = fakeBackend(backendOpts);
  const store = createMemoryTokenStore({ accessToken: 'a0', refreshToken: 'r0' });
  const onFailure = vi.fn();
  const refresher = createTokenRefresher({ fetchFn: backend.fetchFn, baseUrl: '/api', store, onFailure });
  const request = (path = '/api/boards') =>
    executeWithRefresh({
      exec: async (token) => {
        const res = await backend.fetchFn(path, {
          headers: token ? { Authorization: `Bearer ${token}` } : {},
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
      isUnauthorized: (r) => r.status === 401,
      store,
      refresher,
      skipRefresh: isRefreshExempt(path),
    });
  return { backend, store, onFailure, refresher, request };
}

describe('refresh mutex', () => {
  it('passes a successful request through without refreshing', async () => {
    const { backend, request } = setup();
    const r = await request();
    expect(r.status).toBe(200);
    expect(backend.calls.refresh).toBe(0);
    expect(backend.calls.authHeaders).toEqual(['Bearer a0']);
  });

  it('refreshes once on a 401 and retries with the new token', async () => {
    const { backend, store, request, onFailure } = setup();
    backend.expireAll();
    const r = await request();
    expect(r).toEqual({ status: 200, body: { ok: true, token: 'a1' } });
    expect(backend.calls.refresh).toBe(1);
    expect(store.getAccessToken()).toBe('a1');
    expect(store.getRefreshToken()).toBe('r1');
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('shares ONE refresh among many parallel 401s', async () => {
    const { backend, store, request } = setup({ refreshDelayMs: 30 });
    backend.expireAll();
    const results = await Promise.all(Array.from({ length: 12 }, () => request()));
    expect(results.every((r) => r.status === 200 && r.body.token === 'a1')).toBe(true);
    expect(backend.calls.refresh).toBe(1);
    expect(store.getRefreshToken()).toBe('r1');
  });

  it('does not refresh again for a late 401 of a request sent before another refresh finished', async () => {
    const { backend, store, refresher } = setup();
    backend.expireAll();
    let first = true;
    const r = await executeWithRefresh({
      exec: async (token) => {
        const res = await backend.fetchFn('/api/boards', { headers: { Authorization: `Bearer ${token}` } });
        if (first) {
          first = false;
          // While this request (sent with a0) was on the wire, another call refreshed to a1.
          await refresher.refresh();
        }
        return { status: res.status, token };
      },
      isUnauthorized: (x) => x.status === 401,
      store,
      refresher,
    });
    expect(r).toEqual({ status: 200, token: 'a1' });
    expect(backend.calls.refresh).toBe(1);
  });

  it('on a failed refresh clears the tokens, calls onFailure once and returns the 401', async () => {
    const { backend, store, request, onFailure } = setup({ refreshFails: true, refreshDelayMs: 20 });
    backend.expireAll();
    const results = await Promise.all([request(), request(), request()]);
    expect(results.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(backend.calls.refresh).toBe(1);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(store.getAccessToken()).toBeNull();
    expect(store.getRefreshToken()).toBeNull();
  });

  it('lets a later 401 start a new refresh once the previous one settled', async () => {
    const { backend, request } = setup();
    backend.expireAll();
    await request();
    backend.expireAll();
    const r = await request();
    expect(r.body.token).toBe('a2');
    expect(backend.calls.refresh).toBe(2);
  });

  it('never refreshes for login, register, refresh or logout', async () => {
    expect(isRefreshExempt('/auth/login')).toBe(true);
    expect(isRefreshExempt('/api/auth/register')).toBe(true);
    expect(isRefreshExempt('/auth/refresh')).toBe(true);
    expect(isRefreshExempt('/auth/logout')).toBe(true);
    expect(isRefreshExempt('/auth/verify')).toBe(false);
    expect(isRefreshExempt('/boards?search=x')).toBe(false);
    const { backend, request } = setup();
    backend.expireAll();
    const r = await request('/api/auth/login');
    expect(r.status).toBe(401);
    expect(backend.calls.refresh).toBe(0);
  });

  it('hands a visitor’s 401 back without trying to refresh', async () => {
    const { backend, store, request, onFailure } = setup();
    store.clear();
    const r = await request();
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('TOKEN_MISSING');
    expect(backend.calls.refresh).toBe(0);
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('treats a network failure of the refresh as a failed refresh', async () => {
    const store = createMemoryTokenStore({ accessToken: 'a0', refreshToken: 'r0' });
    const onFailure = vi.fn();
    const refresher = createTokenRefresher({
      fetchFn: async () => {
        throw new TypeError('Failed to fetch');
      },
      baseUrl: '/api',
      store,
      onFailure,
    });
    expect(await refresher.refresh()).toBeNull();
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(store.getRefreshToken()).toBeNull();
  });
});
