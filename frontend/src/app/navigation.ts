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

const PROBE_ORIGIN = 'https://same-site.invalid';

/**
 * A redirect target is only honoured if it is a path on this site, so ?redirect= can neither send a
 * user elsewhere nor crash the router. The URL parser drops tabs and newlines and reads "\" as "/",
 * so "/\t/evil" or "/\\evil" would become "//evil": any control character or backslash is refused
 * outright, and what is left must resolve to our own origin.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/dashboard'): string {
  if (!target) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  if (!target.startsWith('/') || target.startsWith('//')) return fallback;
  let url: URL;
  try {
    url = new URL(target, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (/^\/(login|register)(\?|$|\/)/.test(path)) return fallback;
  return path;
}

/** /login, with ?redirect= back to `path` unless that is the default target anyway. */
export function loginPathFor(path: string): string {
  const target = safeRedirect(path, '/dashboard');
  return target === '/dashboard' || target === '/'
    ? '/login'
    : `/login?redirect=${encodeURIComponent(target)}`;
}
