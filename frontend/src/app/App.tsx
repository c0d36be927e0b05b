import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { FullScreenLoader } from '../components/FullScreenLoader.tsx';
import { ToastsGate } from '../components/ToastsGate.tsx';
import { selectAuthStatus } from '../features/auth/authSlice.ts';
import { useAppSelector } from './store.ts';

/** Root layout: waits for the one-time auth initialisation, then renders the route; toasts on top. */
export function AppLayout() {
  const status = useAppSelector(selectAuthStatus);
  const { pathname, hash } = useLocation();

  // In-page anchors (#features, #pricing) after client-side navigation.
  useEffect(() => {
    if (!hash) return;
    const el = document.getElementById(decodeURIComponent(hash.slice(1)));
    el?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [pathname, hash, status]);

  return (
    <>
      {status === 'loading' ? <FullScreenLoader /> : <Outlet />}
      <ScrollRestoration />
      <ToastsGate />
    </>
  );
}
