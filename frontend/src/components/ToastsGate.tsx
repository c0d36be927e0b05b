import { Suspense, lazy, useSyncExternalStore, type ComponentType } from 'react';
import { onToastsWanted, toastsWanted } from '../lib/notify.ts';

// A chunk that cannot be fetched (offline, a deploy removed it) costs the toasts, never the page: the
// route's error page would otherwise replace whatever is on screen.
const Toasts = lazy(
  (): Promise<{ default: ComponentType }> =>
    import('./Toasts.tsx').then(
      (m) => ({ default: m.Toasts }),
      () => ({ default: () => null }),
    ),
);

/** The toast container, mounted with the first toast so react-toastify stays off the first load (lib/notify.ts). */
export function ToastsGate() {
  const wanted = useSyncExternalStore(onToastsWanted, toastsWanted);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
