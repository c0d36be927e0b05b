import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { AppLayout } from './App.tsx';
import { BoardAccess, GuestOnly, RequireAdmin, RequireAuth } from './guards.tsx';
import { loadPage, loadedPage, pageModules, type PagePath } from './pages.ts';
import { RouteError } from './RouteError.tsx';

export { loadPage, pageFor, pageModules, type PagePath } from './pages.ts';

const lazyPages = {} as Record<PagePath, ComponentType>;
for (const path of Object.keys(pageModules) as PagePath[]) lazyPages[path] = lazy(() => loadPage(path));

/** The page, behind the spec's 'Загрузка...' spinner while its chunk arrives (not at all once it has). */
function PageOf({ path }: { path: PagePath }) {
  const Page = loadedPage(path) ?? lazyPages[path];
  return <Page />;
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
