import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { AppLayout } from './App.tsx';
import { BoardAccess, GuestOnly, RequireAdmin, RequireAuth } from './guards.tsx';
import { loadPage, loadedPage, type PagePath } from './pages.ts';
import { RouteError } from './RouteError.tsx';

export { loadPage, pageFor, pageModules, type PagePath } from './pages.ts';

/**
 * The page of `path`, with the spec's 'Загрузка...' spinner until its chunk arrives. Not React.lazy:
 * React 19 keeps a Suspense fallback on screen for at least 300 ms once shown, even when the chunk
 * lands a moment later (or had already landed: a lazy component suspends on its first render anyway).
 * A chunk that fails to load is thrown to the route's error page.
 */
function PageOf({ path }: { path: PagePath }) {
  // Read on every render, not kept in state: routes share this place in the tree, so React hands the
  // same instance from /dashboard to /settings (the key in page() remounts it as well).
  const Page = loadedPage(path);
  const [, arrived] = useState(0);
  const [failure, setFailure] = useState<{ path: PagePath; error: unknown } | null>(null);
  useEffect(() => {
    if (Page) return;
    let alive = true;
    loadPage(path).then(
      () => alive && arrived((n) => n + 1),
      (error: unknown) => alive && setFailure({ path, error: error ?? new Error('page chunk failed') }),
    );
    return () => {
      alive = false;
    };
  }, [Page, path]);
  if (failure?.path === path) throw failure.error;
  return Page ? <Page /> : <FullScreenLoader />;
}

function page(path: PagePath, guard?: (children: ReactNode) => ReactNode): ReactNode {
  const el = (
    <Suspense fallback={<FullScreenLoader />}>
      <PageOf key={path} path={path} />
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
      { path: '/forgot-password', element: page('/forgot-password', guest) },
      // Open to everyone: a link from a mail may be opened in a browser signed in to any account.
      { path: '/reset-password', element: page('/reset-password') },
      { path: '/verify-email', element: page('/verify-email') },
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
