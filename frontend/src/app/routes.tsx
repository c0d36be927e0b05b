import { Suspense, lazy, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { AppLayout } from './App.tsx';
import { BoardAccess, GuestOnly, RequireAdmin, RequireAuth } from './guards.tsx';
import { LandingPage } from '../pages/LandingPage.tsx';
import { PricingPage } from '../pages/PricingPage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { RegisterPage } from '../pages/RegisterPage.tsx';
import { DashboardPage } from '../pages/DashboardPage.tsx';
import { SettingsPage } from '../pages/SettingsPage.tsx';

// The board (canvas, realtime) and the admin panel are heavy and used by few: separate chunks.
const BoardPage = lazy(() => import('../pages/BoardPage.tsx').then((m) => ({ default: m.BoardPage })));
const AdminPage = lazy(() => import('../pages/AdminPage.tsx').then((m) => ({ default: m.AdminPage })));

const Lazy = ({ children }: { children: ReactNode }) => (
  <Suspense fallback={<FullScreenLoader />}>{children}</Suspense>
);

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/pricing', element: <PricingPage /> },
      {
        path: '/login',
        element: (
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        ),
      },
      {
        path: '/register',
        element: (
          <GuestOnly>
            <RegisterPage />
          </GuestOnly>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        ),
      },
      {
        path: '/board/:id',
        element: (
          <BoardAccess>
            <Lazy>
              <BoardPage />
            </Lazy>
          </BoardAccess>
        ),
      },
      {
        path: '/settings',
        element: (
          <RequireAuth>
            <SettingsPage />
          </RequireAuth>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAdmin>
            <Lazy>
              <AdminPage />
            </Lazy>
          </RequireAdmin>
        ),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
