import type { ToastOptions } from 'react-toastify';

/**
 * Spec §9: errors stay 4000 ms, successes 2000 ms, at most 20 at once (see <Toasts/>). The spec's
 * time is the whole life on screen, so the enter and exit animations come out of it: react-toastify
 * starts its timer after the enter animation ends. The collapse that follows the exit animation
 * only closes the gap of a toast that is already invisible, so it does not count.
 */
export const TOAST_LIMIT = 20;
export const ERROR_TOAST_MS = 4000;
export const SUCCESS_TOAST_MS = 2000;
export const TOAST_ENTER_MS = 200;
export const TOAST_EXIT_MS = 200;
export const TOAST_COLLAPSE_MS = 150;

/** The autoClose that gives a toast `total` ms on screen, animations included. */
export const shownFor = (total: number): number => total - TOAST_ENTER_MS - TOAST_EXIT_MS;

/**
 * react-toastify (~5 kB brotli) loads with the first toast, not with every page (issue 36 item 6):
 * `<Toasts/>` mounts its container once `toastsWanted()` and react-toastify queues what was shown
 * before the container mounted.
 */
let toastify: Promise<typeof import('react-toastify')> | null = null;
const wantedListeners = new Set<() => void>();
const loadToastify = () =>
  (toastify ??= import('react-toastify').catch((err: unknown) => {
    toastify = null;
    throw err;
  }));

export const toastsWanted = (): boolean => toastify !== null;
export function onToastsWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

function show(kind: 'success' | 'error' | 'info', message: string, opts: ToastOptions): void {
  const first = toastify === null;
  void loadToastify().then(({ toast }) => toast[kind](message, opts), () => undefined);
  if (first) for (const l of wantedListeners) l();
}

export const notify = {
  success(message: string, opts?: ToastOptions) {
    show('success', message, { autoClose: shownFor(SUCCESS_TOAST_MS), ...opts });
  },
  error(message: string, opts?: ToastOptions) {
    show('error', message, { autoClose: shownFor(ERROR_TOAST_MS), ...opts });
  },
  info(message: string, opts?: ToastOptions) {
    show('info', message, { autoClose: shownFor(SUCCESS_TOAST_MS), ...opts });
  },
};
