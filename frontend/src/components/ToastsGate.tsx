import { Suspense, lazy, useSyncExternalStore } from 'react';
import { onToastsWanted, toastsWanted } from '../lib/notify.ts';

const Toasts = lazy(() => import('./Toasts.tsx').then((m) => ({ default: m.Toasts })));

/** The toast container, mounted with the first toast so react-toastify stays off the first load (lib/notify.ts). */
export function ToastsGate() {
  const wanted = useSyncExternalStore(onToastsWanted, toastsWanted);
  return wanted ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
