import { ToastContainer, cssTransition } from 'react-toastify';
import { ERROR_TOAST_MS, TOAST_COLLAPSE_MS, TOAST_LIMIT, shownFor } from '../lib/notify.ts';
import styles from './Toasts.module.css';

/** Short enter/exit animations whose length notify.ts subtracts from each toast's time on screen. */
const Motion = cssTransition({
  enter: styles.enter!,
  exit: styles.exit!,
  collapseDuration: TOAST_COLLAPSE_MS,
});

export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      className={styles.container}
      limit={TOAST_LIMIT}
      autoClose={shownFor(ERROR_TOAST_MS)}
      transition={Motion}
      newestOnTop
      closeOnClick
      pauseOnFocusLoss={false}
      theme="light"
    />
  );
}
