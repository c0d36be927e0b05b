import type { ComponentType } from 'react';

/**
 * Every page is its own chunk, fetched when its route is first visited. `pageModules` is exported so
 * main.tsx can start fetching the page of the address the app opens on while auth initialises.
 */
export const pageModules = {
  '/': () => import('../pages/LandingPage.tsx').then((m) => ({ default: m.LandingPage })),
  '/pricing': () => import('../pages/PricingPage.tsx').then((m) => ({ default: m.PricingPage })),
  '/login': () => import('../pages/LoginPage.tsx').then((m) => ({ default: m.LoginPage })),
  '/register': () => import('../pages/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })),
  '/forgot-password': () => import('../pages/ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
  '/reset-password': () => import('../pages/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })),
  '/verify-email': () => import('../pages/VerifyEmailPage.tsx').then((m) => ({ default: m.VerifyEmailPage })),
  '/dashboard': () => import('../pages/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })),
  '/settings': () => import('../pages/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })),
  '/board': () => import('../pages/BoardPage.tsx').then((m) => ({ default: m.BoardPage })),
  '/admin': () => import('../pages/AdminPage.tsx').then((m) => ({ default: m.AdminPage })),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

export type PagePath = keyof typeof pageModules;

const started = new Map<PagePath, Promise<{ default: ComponentType }>>();
const loaded = new Map<PagePath, ComponentType>();

/** Fetches a page's chunk once; later calls share the same promise. */
export function loadPage(path: PagePath): Promise<{ default: ComponentType }> {
  let p = started.get(path);
  if (!p) {
    p = pageModules[path]().then(
      (m) => {
        loaded.set(path, m.default);
        return m;
      },
      (err: unknown) => {
        started.delete(path); // a later visit tries again (a network blip, a redeploy)
        throw err;
      },
    );
    started.set(path, p);
  }
  return p;
}

/**
 * The page's component if its chunk has already arrived. React suspends on a lazy component's first
 * render even when its chunk is in, and React 19 then holds the fallback for at least 300 ms: a page
 * whose chunk was fetched while auth initialised is rendered directly instead (about 300 ms of every
 * first load spent showing 'Загрузка...' for nothing).
 */
export function loadedPage(path: PagePath): ComponentType | undefined {
  return loaded.get(path);
}

/** The page chunk that serves `pathname`, if any. */
export function pageFor(pathname: string): PagePath | null {
  if (pathname.startsWith('/board/')) return '/board';
  return pathname in pageModules ? (pathname as PagePath) : null;
}

