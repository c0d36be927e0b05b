import { Button } from './Button.tsx';
import { CANCEL_LABEL } from './ConfirmDialog.tsx';

export interface FormFooterProps {
  /** The id of the <form> inside the dialog: the submit button sits in the footer, outside it. */
  formId: string;
  submitLabel: string;
  loading?: boolean;
  onCancel: () => void;
  submitTestId?: string;
}

/** A form dialog's footer: 'Отмена' and the form's submit button (a Dialog's `footer`). */
export function FormFooter({ formId, submitLabel, loading, onCancel, submitTestId }: FormFooterProps) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        {CANCEL_LABEL}
      </Button>
      <Button type="submit" form={formId} variant="primary" loading={loading} data-testid={submitTestId}>
        {submitLabel}
      </Button>
    </>
  );
}
