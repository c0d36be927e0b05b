import { toast, type ToastOptions } from 'react-toastify';

/** Spec §9: errors stay 4000 ms, successes 2000 ms; at most 20 at once (see <Toasts/>). */
export const TOAST_LIMIT = 20;
export const ERROR_TOAST_MS = 4000;
export const SUCCESS_TOAST_MS = 2000;

export const notify = {
  success(message: string, opts?: ToastOptions) {
    return toast.success(message, { autoClose: SUCCESS_TOAST_MS, ...opts });
  },
  error(message: string, opts?: ToastOptions) {
    return toast.error(message, { autoClose: ERROR_TOAST_MS, ...opts });
  },
  info(message: string, opts?: ToastOptions) {
    return toast.info(message, { autoClose: SUCCESS_TOAST_MS, ...opts });
  },
};
