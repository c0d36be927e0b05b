import { useState, type ReactNode } from 'react';
import { Button } from './Button.tsx';
import { Dialog, DialogMessage } from './Dialog.tsx';

export const CANCEL_LABEL = 'Отмена';

export interface ConfirmDialogProps {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
  /** May return a promise: the button shows a spinner until it settles, then the dialog closes. */
  onConfirm: () => unknown;
  onClose: () => void;
  testId?: string;
  confirmTestId?: string;
}

/**
 * "Are you sure?" as an alertdialog: focus starts on Cancel so Enter never destroys by accident;
 * an outside click does not dismiss it, Escape does.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = CANCEL_LABEL,
  danger = false,
  onConfirm,
  onClose,
  testId,
  confirmTestId,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      alert
      size="sm"
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          <Button variant="ghost" size="sm" onClick={onClose} data-autofocus>
            {cancelLabel}
          </Button>
          <Button
            variant={danger ? 'danger' : 'primary'}
            size="sm"
            loading={busy}
            onClick={() => void confirm()}
            data-testid={confirmTestId}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {typeof message === 'string' ? <DialogMessage>{message}</DialogMessage> : message}
    </Dialog>
  );
}
