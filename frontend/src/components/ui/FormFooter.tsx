import { Button, type ButtonSize } from './Button.tsx';
import { CANCEL_LABEL } from './ConfirmDialog.tsx';

export interface FormFooterProps {
  /**
   * The id of the <form> inside the dialog when the footer sits outside it (a Dialog's `footer`).
   * Without it and without `onSubmit`, the submit button submits the form it is rendered in.
   */
  formId?: string;
  /** A dialog with no form: the primary button calls this instead of submitting. */
  onSubmit?: () => void;
  submitLabel: string;
  loading?: boolean;
  disabled?: boolean;
  size?: ButtonSize;
  onCancel: () => void;
  submitTestId?: string;
}

/** 'Отмена' and the primary action: the buttons that end a form dialog. */
export function FormFooter({ formId, onSubmit, submitLabel, loading, disabled, size, onCancel, submitTestId }: FormFooterProps) {
  return (
    <>
      <Button variant="ghost" size={size} onClick={onCancel}>
        {CANCEL_LABEL}
      </Button>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        form={onSubmit ? undefined : formId}
        onClick={onSubmit}
        variant="primary"
        size={size}
        loading={loading}
        disabled={disabled}
        data-testid={submitTestId}
      >
        {submitLabel}
      </Button>
    </>
  );
}
