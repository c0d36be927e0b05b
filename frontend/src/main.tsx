import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { setAuthFailureHandler } from './api/baseApi.ts';
import { setNavigator } from './app/navigation.ts';
import { startOfflineShell } from './app/offlineShell.ts';
import { createAppRouter, loadPage, pageFor } from './app/routes.tsx';
import { store } from './app/store.ts';
import { handleSessionExpired, initAuth } from './features/auth/session.ts';
import { prefetchDashboard } from './features/dashboard/prefetch.ts';
import { localTokenStore } from './features/auth/tokenStorage.ts';
import './styles/index.css';

const router = createAppRouter();
setNavigator((to, opts) => router.navigate(to, opts));
setAuthFailureHandler(() => handleSessionExpired(store.dispatch, store.getState));

// The offline app shell (service worker) and the remembered user, for boards reloaded offline.
startOfflineShell(store, router);

// Authentication is initialised once, before (and independently of) the first render; the page the
// app opens on is fetched meanwhile instead of after it.
void initAuth(store.dispatch);
const firstPage = pageFor(window.location.pathname);
if (firstPage) void loadPage(firstPage);
// Part of the entry (a few kB of endpoints), so the board list is asked for as soon as the entry runs,
// not after one more chunk round trip.
if (firstPage === '/dashboard' && localTokenStore.getAccessToken()) prefetchDashboard(store.dispatch);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
