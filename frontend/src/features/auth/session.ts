/**
 * Session life cycle: initialise once at start, sign in, sign out, and the end of a session
 * whose refresh failed (spec §4 "Authentication").
 */
import type { AppDispatch, RootState } from '../../app/store.ts';
import { baseApi } from '../../api/baseApi.ts';
import { loginPathFor, navigateTo } from '../../app/navigation.ts';
import { ERRORS } from '@wb/contracts/constants';
import { notify } from '../../lib/notify.ts';
import { authApi } from './authApi.ts';
import { signedIn, signedOut } from './authSlice.ts';
import { clearDeviceData, rememberedUserFor, rememberedUserId } from './deviceData.ts';
import { localTokenStore } from './tokenStorage.ts';
import type { AuthResponse } from './types.ts';

export const LOGOUT_TOAST = 'Вы вышли из системы';

let initStarted = false;

/** If an access token exists, GET /auth/verify (a 401 goes through the refresh flow); otherwise visitor. */
export async function initAuth(dispatch: AppDispatch): Promise<void> {
  if (initStarted) return;
  initStarted = true;
  if (!localTokenStore.getAccessToken()) {
    localTokenStore.clear();
    dispatch(signedOut());
    return;
  }
  // Offline (a board reloaded without network, issue 35 item 7): the user the server last confirmed
  // for this very token, so the page opens from this device's copy instead of sending them to /login.
  // It opens nothing the device does not hold already; the server checks the token once online.
  const remembered = offline() ? rememberedUserFor(localTokenStore.getAccessToken()!) : null;
  if (remembered) {
    dispatch(signedIn(remembered));
    window.addEventListener('online', () => void verifyOnline(dispatch), { once: true });
    return;
  }
  for (let attempt = 0; ; attempt++) {
    const sub = dispatch(
      authApi.endpoints.verify.initiate(undefined, { subscribe: false, forceRefetch: true }),
    );
    try {
      const { user } = await sub.unwrap();
      dispatch(signedIn(user));
      return;
    } catch (err) {
      if (isSessionRefused(err)) {
        localTokenStore.clear();
        dispatch(signedOut());
        return;
      }
      // Auth down, slow or unreachable says nothing about the session: the tokens stay, so a later
      // load signs in again, instead of signing everybody out during an outage.
      if (attempt >= VERIFY_RETRY_MS.length) {
        notify.error(ERRORS.SERVICE_UNAVAILABLE.message);
        dispatch(signedOut());
        return;
      }
      await new Promise((r) => setTimeout(r, VERIFY_RETRY_MS[attempt]));
    }
  }
}

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Back online after an offline start: the real user (a refused session ends through the 401 flow). */
async function verifyOnline(dispatch: AppDispatch): Promise<void> {
  const sub = dispatch(authApi.endpoints.verify.initiate(undefined, { subscribe: false, forceRefetch: true }));
  try {
    dispatch(signedIn((await sub.unwrap()).user));
  } catch {
    /* refused: handleSessionExpired ran; unreachable: the remembered user stays */
  }
}

/** Pauses before asking /auth/verify again when it failed for a reason other than the session. */
export const VERIFY_RETRY_MS = [1_000, 3_000];

/** The server refused the session itself (the refresh flow has already run and failed). */
export function isSessionRefused(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}

/** Login and register: keep both tokens and set the user. */
export function completeSignIn(dispatch: AppDispatch, data: AuthResponse): void {
  // Another account on this device: the previous one's boards kept for offline use go.
  const previous = rememberedUserId();
  if (previous && previous !== data.user.id) void clearDeviceData();
  localTokenStore.setTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken });
  dispatch(signedIn(data.user));
}

/** POST /auth/logout {refreshToken} (its failure is ignored), clear tokens, go to /, toast. */
export async function logout(dispatch: AppDispatch): Promise<void> {
  const refreshToken = localTokenStore.getRefreshToken();
  try {
    await dispatch(authApi.endpoints.logout.initiate({ refreshToken })).unwrap();
  } catch {
    /* ignored by design: the local session ends anyway */
  }
  localTokenStore.clear();
  // Leave the protected page first (rendered synchronously, not in a transition), so its guard
  // does not see the signed-out state and bounce to /login on the way out.
  await navigateTo('/', { flushSync: true });
  dispatch(signedOut());
  dispatch(baseApi.util.resetApiState());
  // The next person on this device must not read this user's boards (the board page has unmounted).
  void clearDeviceData();
  notify.success(LOGOUT_TOAST);
}

export const ACCOUNT_DELETED_TOAST = 'Аккаунт удалён';

/** After DELETE /auth/account: the tokens are dead already; clear them, go to /, toast. */
export async function accountDeleted(dispatch: AppDispatch): Promise<void> {
  localTokenStore.clear();
  await navigateTo('/', { flushSync: true });
  dispatch(signedOut());
  dispatch(baseApi.util.resetApiState());
  void clearDeviceData();
  notify.success(ACCOUNT_DELETED_TOAST);
}

/**
 * The refresh failed: tokens are already cleared; reset the state and go to /login.
 * During the start-up verification nothing moves: the visitor simply stays where they are.
 */
export function handleSessionExpired(dispatch: AppDispatch, getState: () => RootState): void {
  if (getState().auth.status === 'loading') return;
  const here = `${window.location.pathname}${window.location.search}`;
  dispatch(signedOut());
  dispatch(baseApi.util.resetApiState());
  if (window.location.pathname !== '/login') void navigateTo(loginPathFor(here), { replace: true });
}
