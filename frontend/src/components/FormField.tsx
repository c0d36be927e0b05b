import { EyeIcon, EyeOffIcon } from 'lucide-react';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';

interface Props {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** Label + control + the field's error (announced to screen readers). */
export function FormField({ id, label, error, hint, children }: Props) {
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert" data-testid={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {hint}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-invalid'>;
type FieldProps = Omit<Props, 'children'> & InputProps;

/** A labelled text input (`.input`) marked invalid while it has an error. */
export function TextField({ id, label, error, hint, ...input }: FieldProps) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <input {...input} id={id} className="input" aria-invalid={!!error || undefined} />
    </FormField>
  );
}

/** A labelled password input with a show/hide toggle (`<id>-toggle`). */
export function PasswordField({ id, label, error, hint, ...input }: Omit<FieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  const toggleLabel = visible ? 'Скрыть пароль' : 'Показать пароль';
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <div className={`input-group${error ? ' is-invalid' : ''}`}>
        <input
          {...input}
          id={id}
          type={visible ? 'text' : 'password'}
          className="input"
          aria-invalid={!!error || undefined}
        />
        <button
          type="button"
          className="input-group__toggle"
          onClick={() => setVisible((v) => !v)}
          aria-label={toggleLabel}
          aria-pressed={visible}
          title={toggleLabel}
          data-testid={`${id}-toggle`}
        >
          {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
        </button>
      </div>
    </FormField>
  );
}

/** The server's answer to a failed submit, shown above the form's fields. */
export function FormAlert({ message, testId }: { message: string | null; testId: string }) {
  return message ? (
    <div className="alert alert--error" role="alert" data-testid={testId}>
      {message}
    </div>
  ) : null;
}
