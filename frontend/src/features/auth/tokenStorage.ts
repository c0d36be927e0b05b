/** The auth session lives in localStorage under these two keys (spec §3 "Auth session"). */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** What the refresh logic needs from wherever tokens are kept (localStorage in the browser). */
export interface TokenStore {
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  setTokens(tokens: Tokens): void;
  clear(): void;
}

function safeGet(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export const localTokenStore: TokenStore = {
  getAccessToken: () => safeGet(ACCESS_TOKEN_KEY),
  getRefreshToken: () => safeGet(REFRESH_TOKEN_KEY),
  setTokens({ accessToken, refreshToken }) {
    try {
      localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
      localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
    } catch {
      /* storage disabled: the session then lasts only as long as the page */
    }
  },
  clear() {
    try {
      localStorage.removeItem(ACCESS_TOKEN_KEY);
      localStorage.removeItem(REFRESH_TOKEN_KEY);
    } catch {
      /* ignore */
    }
  },
};

/** An in-memory store with the same contract, for tests. */
export function createMemoryTokenStore(initial?: Partial<Tokens>): TokenStore {
  let access = initial?.accessToken ?? null;
  let refresh = initial?.refreshToken ?? null;
  return {
    getAccessToken: () => access,
    getRefreshToken: () => refresh,
    setTokens(t) {
      access = t.accessToken;
      refresh = t.refreshToken;
    },
    clear() {
      access = null;
      refresh = null;
    },
  };
}
