import { ToastContainer } from 'react-toastify';
import { ERROR_TOAST_MS, TOAST_LIMIT } from '../lib/notify.ts';

export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      limit={TOAST_LIMIT}
      autoClose={ERROR_TOAST_MS}
      newestOnTop
      closeOnClick
      pauseOnFocusLoss={false}
      theme="light"
    />
  );
}
