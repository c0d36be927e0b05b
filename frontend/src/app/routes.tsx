import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { AppLayout } from './App.tsx';
import { BoardAccess, GuestOnly, RequireAdmin, RequireAuth } from './guards.tsx';
import { RouteError } from './RouteError.tsx';

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

const pages = {} as Record<PagePath, ComponentType>;
for (const path of Object.keys(pageModules) as PagePath[]) pages[path] = lazy(pageModules[path]);

/** The page, behind the spec's 'Загрузка...' spinner while its chunk arrives. */
function page(path: PagePath, guard?: (children: ReactNode) => ReactNode): ReactNode {
  const Page = pages[path];
  const el = (
    <Suspense fallback={<FullScreenLoader />}>
      <Page />
    </Suspense>
  );
  return guard ? guard(el) : el;
}

const guest = (c: ReactNode) => <GuestOnly>{c}</GuestOnly>;
const signedIn = (c: ReactNode) => <RequireAuth>{c}</RequireAuth>;

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    // Anything a route throws (a chunk lost after a deploy, a bad address) gets a page with a way
    // out, never the router's raw error screen with a stack trace.
    errorElement: <RouteError />,
    children: [
      { path: '/', element: page('/') },
      { path: '/pricing', element: page('/pricing') },
      { path: '/login', element: page('/login', guest) },
      { path: '/register', element: page('/register', guest) },
      { path: '/dashboard', element: page('/dashboard', signedIn) },
      { path: '/board/:id', element: page('/board', (c) => <BoardAccess>{c}</BoardAccess>) },
      { path: '/settings', element: page('/settings', signedIn) },
      { path: '/admin', element: page('/admin', (c) => <RequireAdmin>{c}</RequireAdmin>) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
