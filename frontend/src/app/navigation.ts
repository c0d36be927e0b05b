/**
 * Navigation from outside React (the 401 flow, logout). main.tsx registers the router's navigate.
 */
export interface NavigateOptions {
  replace?: boolean;
  /** Render the new route synchronously (not in a transition) before the call resolves. */
  flushSync?: boolean;
}
type Navigate = (to: string, opts?: NavigateOptions) => Promise<void> | void;

let navigator: Navigate = (to) => {
  window.location.assign(to);
};

export function setNavigator(fn: Navigate): void {
  navigator = fn;
}

export async function navigateTo(to: string, opts?: NavigateOptions): Promise<void> {
  await navigator(to, opts);
}

/**
 * A redirect target is only honoured if it is a path on this site ("/…", never "//host" or
 * "/\host"), so ?redirect= cannot send a user elsewhere.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/dashboard'): string {
  if (!target) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (/^\/(login|register)(\?|$|\/)/.test(target)) return fallback;
  return target;
}

/** /login, with ?redirect= back to `path` unless that is the default target anyway. */
export function loginPathFor(path: string): string {
  const target = safeRedirect(path, '/dashboard');
  return target === '/dashboard' || target === '/'
    ? '/login'
    : `/login?redirect=${encodeURIComponent(target)}`;
}
