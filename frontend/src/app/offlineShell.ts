/**
 * The offline app shell's service worker (built by frontend/vite/offline-shell.ts; issue 35 item 7),
 * registered for those who can open a board offline: a signed-in user, a visitor of a board page, or a
 * browser that has the worker already (so it keeps updating). Registered once the page is idle, so its
 * precache never competes with the page's own first load.
 *
 * Update policy (docs/decisions.md "Offline app shell"): a new build's worker activates at once
 * (skipWaiting + clientsClaim) and serves the new code to every load from then on. An open tab keeps
 * running its code until its next route change, which becomes a full load of the new address: no
 * reload under the user's hands (mid-edit on a board), and no tab runs old code past one navigation.
 * Tabs ask for an update every hour and when they are shown again (at most every 10 minutes).
 */
import type { User } from '../features/auth/types.ts';
import { rememberUser } from '../features/auth/deviceData.ts';

const UPDATE_EVERY_MS = 60 * 60 * 1000;
const UPDATE_ON_SHOW_MIN_MS = 10 * 60 * 1000;

interface ShellStore {
  getState(): { auth: { user: User | null } };
  subscribe(listener: () => void): () => void;
}
interface ShellRouter {
  subscribe(listener: (state: { location: { pathname: string; search: string } }) => void): () => void;
}

let registered = false;

export function startOfflineShell(store: ShellStore, router: ShellRouter): void {
  // The last user the server confirmed, for an offline start (features/auth/session.ts).
  let seen: User | null = null;
  let wanted = window.location.pathname.startsWith('/board/');
  const onState = () => {
    const user = store.getState().auth.user;
    if (user && user !== seen) rememberUser(user);
    seen = user;
    if (user && !wanted) {
      wanted = true;
      whenIdle(() => void register(router));
    }
  };
  store.subscribe(onState);
  onState();
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  if (wanted || navigator.serviceWorker.controller) whenIdle(() => void register(router));
}

function whenIdle(fn: () => void): void {
  const idle = () =>
    typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 1000);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

async function register(router: ShellRouter): Promise<void> {
  if (registered || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registered = true;
  const sw = navigator.serviceWorker;
  let controlled = sw.controller !== null;
  let updated = false;
  // The first worker taking control is no update; a later change of controller is a new build.
  sw.addEventListener('controllerchange', () => {
    if (controlled) updated = true;
    controlled = true;
  });
  let here = window.location.pathname + window.location.search;
  router.subscribe(({ location }) => {
    const next = location.pathname + location.search;
    if (updated && next !== here) window.location.reload();
    here = next;
  });
  const reg = await sw.register('/sw.js', { scope: '/' }).catch(() => null);
  if (!reg) return;
  let checked = Date.now();
  const check = () => {
    checked = Date.now();
    void reg.update().catch(() => undefined);
  };
  setInterval(check, UPDATE_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - checked > UPDATE_ON_SHOW_MIN_MS) check();
  });
}
