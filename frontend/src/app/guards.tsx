/**
 * Route guards of spec §2 "Route table and guards". Auth is initialised before any route renders
 * (App shows the full-screen loader meanwhile), so the guards only read the settled state.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { selectAuthStatus, selectUser } from '../features/auth/authSlice.ts';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { loginPathFor, safeRedirect } from './navigation.ts';
import { useAppSelector } from './store.ts';

function useAuth() {
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectUser);
  return { loading: status === 'loading', user };
}

function useHere(): string {
  const loc = useLocation();
  return `${loc.pathname}${loc.search}${loc.hash}`;
}

/** Needs sign-in, otherwise /login (with ?redirect= back here). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth();
  const here = useHere();
  if (loading) return <FullScreenLoader />;
  if (!user) return <Navigate to={loginPathFor(here)} replace />;
  return <>{children}</>;
}

/** Visitors only; a signed-in user goes to /dashboard (or to a valid ?redirect= target on /login). */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth();
  const [params] = useSearchParams();
  if (loading) return <FullScreenLoader />;
  if (user) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return <>{children}</>;
}

/** Sign-in and the admin flag: a visitor goes to /login, a signed-in non-admin to /dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth();
  const here = useHere();
  if (loading) return <FullScreenLoader />;
  if (!user) return <Navigate to={loginPathFor(here)} replace />;
  if (!user.isAdmin) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

/** /board/:id is open with a ?token= share token or when signed in; otherwise /login?redirect=… */
export function BoardAccess({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth();
  const [params] = useSearchParams();
  const { id } = useParams();
  const here = useHere();
  if (loading) return <FullScreenLoader />;
  if (!id) return <Navigate to="/" replace />;
  if (params.get('token') || user) return <>{children}</>;
  return <Navigate to={`/login?redirect=${encodeURIComponent(here)}`} replace />;
}
