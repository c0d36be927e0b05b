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
  '/dashboard': () => import('../pages/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })),
  '/settings': () => import('../pages/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })),
  '/board': () => import('../pages/BoardPage.tsx').then((m) => ({ default: m.BoardPage })),
  '/admin': () => import('../pages/AdminPage.tsx').then((m) => ({ default: m.AdminPage })),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

export type PagePath = keyof typeof pageModules;

/** The page chunk that serves `pathname`, if any. */
export function pageFor(pathname: string): PagePath | null {
  if (pathname.startsWith('/board/')) return '/board';
  return pathname in pageModules ? (pathname as PagePath) : null;
}

