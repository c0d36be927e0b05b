import { Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
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
  const [Page, setPage] = useState<ComponentType | undefined>(() => loadedPage(path));
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    if (Page) return;
    let alive = true;
    loadPage(path).then(
      (m) => alive && setPage(() => m.default),
      (err: unknown) => alive && setFailure(err ?? new Error('page chunk failed')),
    );
    return () => {
      alive = false;
    };
  }, [Page, path]);
  if (failure) throw failure;
  return Page ? <Page /> : <FullScreenLoader />;
}

function page(path: PagePath, guard?: (children: ReactNode) => ReactNode): ReactNode {
  const el = (
    <Suspense fallback={<FullScreenLoader />}>
      <PageOf path={path} />
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
