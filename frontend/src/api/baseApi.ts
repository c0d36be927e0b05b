import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { localTokenStore } from '../features/auth/tokenStorage.ts';
import { API_TIMEOUT_MS, createTokenRefresher, executeWithRefresh, isRefreshExempt } from './refresh.ts';

export const API_BASE_URL = '/api';

let authFailureHandler: () => void = () => {};

/** Called once per failed refresh: the app resets the auth state and goes to /login. */
export function setAuthFailureHandler(handler: () => void): void {
  authFailureHandler = handler;
}

export const tokenRefresher = createTokenRefresher({
  fetchFn: (input, init) => fetch(input, init),
  baseUrl: API_BASE_URL,
  store: localTokenStore,
  onFailure: () => authFailureHandler(),
});

const rawBaseQuery = fetchBaseQuery({
  baseUrl: API_BASE_URL,
  timeout: API_TIMEOUT_MS,
  prepareHeaders: (headers) => {
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return headers;
  },
});

/**
 * fetchBaseQuery plus: the Bearer token on every call, and the single shared refresh on a 401.
 * Endpoints may pass their own `headers` (e.g. `x-share-token`) and `timeout` (e.g. 10 000 ms).
 * Pass `headers: { Authorization: '' }` to send a request without the user's token.
 */
export const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const fetchArgs: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const explicit = new Headers(fetchArgs.headers as HeadersInit | undefined);
  const withoutAuth = explicit.has('Authorization') && !explicit.get('Authorization');
  return executeWithRefresh({
    exec: (token) => {
      const headers = new Headers(fetchArgs.headers as HeadersInit | undefined);
      if (withoutAuth) headers.delete('Authorization');
      else if (token) headers.set('Authorization', `Bearer ${token}`);
      return Promise.resolve(rawBaseQuery({ ...fetchArgs, headers }, api, extraOptions));
    },
    isUnauthorized: (r) => r.error?.status === 401,
    store: localTokenStore,
    refresher: tokenRefresher,
    skipRefresh: withoutAuth || isRefreshExempt(fetchArgs.url),
  });
};

/**
 * The one RTK Query API of the SPA. Features add their endpoints with `baseApi.injectEndpoints`.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: ['User', 'Boards', 'Board', 'Folders', 'Tags', 'Plans', 'Admin', 'Billing', 'Subscription'],
  endpoints: () => ({}),
});
