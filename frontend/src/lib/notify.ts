import { toast, type ToastOptions } from 'react-toastify';

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

export const notify = {
  success(message: string, opts?: ToastOptions) {
    return toast.success(message, { autoClose: shownFor(SUCCESS_TOAST_MS), ...opts });
  },
  error(message: string, opts?: ToastOptions) {
    return toast.error(message, { autoClose: shownFor(ERROR_TOAST_MS), ...opts });
  },
  info(message: string, opts?: ToastOptions) {
    return toast.info(message, { autoClose: shownFor(SUCCESS_TOAST_MS), ...opts });
  },
};
