import * as RadixDialog from '@radix-ui/react-dialog';
import { XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './Dialog.module.css';

export const CLOSE_LABEL = 'Закрыть';

export interface DialogProps {
  title: ReactNode;
  /** One line under the title; it becomes the dialog's accessible description. */
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
  /** Dialogs are usually mounted only while open; pass `open` to keep one mounted. */
  open?: boolean;
  /** role="alertdialog" for confirmations that interrupt (no close on outside click). */
  alert?: boolean;
  /** false: a blocking dialog (a progress the user must wait out): no ×, Escape and outside clicks do nothing. */
  closable?: boolean;
}

/**
 * A modal dialog on Radix: focus trapped inside, returned to where it was on close, Escape and an
 * outside click close it (only the top one when several are open), the page behind is inert.
 * The first element marked `data-autofocus` (else the first text input, else the panel) gets focus,
 * as the dashboard's dialogs always did, rather than Radix's default of the first focusable (the ×).
 */
export function Dialog({
  title,
  subtitle,
  onClose,
  children,
  footer,
  size = 'md',
  testId,
  open = true,
  alert = false,
  closable = true,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay}>
          <RadixDialog.Content
            className={`${styles.content} ${styles[size]}`}
            role={alert ? 'alertdialog' : 'dialog'}
            data-testid={testId}
            {...(subtitle ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(e) => {
              const panel = e.currentTarget as HTMLElement;
              const first = panel.querySelector<HTMLElement>(
                '[data-autofocus], input:not([type=checkbox]):not([type=radio]), textarea',
              );
              e.preventDefault();
              (first ?? panel).focus();
            }}
            onPointerDownOutside={(e) => {
              // Closing a toast is no click on the page behind: the dialog stays (toasts sit above it).
              const target = e.detail.originalEvent.target as Element | null;
              if (alert || !closable || target?.closest?.('.Toastify')) e.preventDefault();
            }}
            onEscapeKeyDown={closable ? undefined : (e) => e.preventDefault()}
          >
            <header className={styles.header}>
              <div className={styles.heading}>
                <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
                {subtitle ? (
                  <RadixDialog.Description className={styles.subtitle}>{subtitle}</RadixDialog.Description>
                ) : null}
              </div>
              {closable ? (
                <RadixDialog.Close className={styles.close} aria-label={CLOSE_LABEL}>
                  <XIcon size={18} aria-hidden="true" />
                </RadixDialog.Close>
              ) : null}
            </header>
            <div className={styles.body}>{children}</div>
            {footer ? <footer className={styles.footer}>{footer}</footer> : null}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Paragraph style for a dialog's explanatory text. */
export function DialogMessage({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className={styles.message} data-testid={testId}>
      {children}
    </p>
  );
}
