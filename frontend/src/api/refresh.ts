/**
 * The 401 flow of spec §4, free of React and Redux so it can be unit-tested with a fake fetch:
 * a 401 triggers ONE refresh (POST /auth/refresh {refreshToken}); parallel 401s share the
 * in-flight refresh; on success the original request is retried with the new access token;
 * on failure the tokens are cleared and `onFailure` runs once for that refresh.
 */
import type { TokenStore, Tokens } from '../features/auth/tokenStorage.ts';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export const API_TIMEOUT_MS = 30_000;

/** Calls that must never trigger a refresh: they either create the session or are the refresh. */
const NO_REFRESH_PATHS = ['/auth/login', '/auth/register', '/auth/refresh', '/auth/logout'];

export function isRefreshExempt(url: string): boolean {
  const path = url.split('?')[0].replace(/^\/api(?=\/)/, '');
  return NO_REFRESH_PATHS.some((p) => path === p || path.endsWith(p));
}

export interface TokenRefresherOptions {
  fetchFn: FetchFn;
  /** '/api' in the browser. */
  baseUrl: string;
  store: TokenStore;
  /** Runs once per failed refresh (not once per waiting request). */
  onFailure?: () => void;
  timeoutMs?: number;
}

export interface TokenRefresher {
  /** Resolves to the new access token, or null when the session could not be refreshed. */
  refresh(): Promise<string | null>;
  /** True while a refresh is in flight. */
  readonly pending: boolean;
}

function isTokens(v: unknown): v is Tokens {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.accessToken === 'string' && o.accessToken.length > 0 && typeof o.refreshToken === 'string';
}

export function createTokenRefresher(opts: TokenRefresherOptions): TokenRefresher {
  let inFlight: Promise<string | null> | null = null;
  const timeoutMs = opts.timeoutMs ?? API_TIMEOUT_MS;

  async function doRefresh(): Promise<string | null> {
    const refreshToken = opts.store.getRefreshToken();
    if (!refreshToken) return null;
    try {
      const res = await opts.fetchFn(`${opts.baseUrl}/auth/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refreshToken }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        // Read nothing, but end the body: an unread body keeps the request open in the browser.
        await res.body?.cancel().catch(() => {});
        return null;
      }
      const body: unknown = await res.json();
      if (!isTokens(body)) return null;
      opts.store.setTokens({ accessToken: body.accessToken, refreshToken: body.refreshToken });
      return body.accessToken;
    } catch {
      return null;
    }
  }

  return {
    get pending() {
      return inFlight !== null;
    },
    refresh() {
      if (!inFlight) {
        inFlight = doRefresh()
          .then((token) => {
            if (!token) {
              opts.store.clear();
              opts.onFailure?.();
            }
            return token;
          })
          .finally(() => {
            inFlight = null;
          });
      }
      return inFlight;
    },
  };
}

export interface ExecuteOptions<R> {
  /** Performs the request with the given access token (null = no Authorization header). */
  exec: (accessToken: string | null) => Promise<R>;
  isUnauthorized: (result: R) => boolean;
  store: TokenStore;
  refresher: TokenRefresher;
  /** Login, register, refresh, logout: never refresh for these. */
  skipRefresh?: boolean;
}

/**
 * Runs a request; on a 401 refreshes (sharing any refresh already in flight) and retries once.
 * If another request already refreshed while this one was on the wire, it just retries with the
 * newer token instead of spending the (rotated) refresh token again.
 */
export async function executeWithRefresh<R>(o: ExecuteOptions<R>): Promise<R> {
  const used = o.store.getAccessToken();
  const first = await o.exec(used);
  if (o.skipRefresh || !o.isUnauthorized(first)) return first;
  // A visitor without a session has nothing to refresh: hand the 401 to the caller.
  if (!o.store.getRefreshToken() && !o.refresher.pending) return first;

  const current = o.store.getAccessToken();
  const token = current && current !== used && !o.refresher.pending ? current : await o.refresher.refresh();
  if (!token) return first;
  return o.exec(token);
}
