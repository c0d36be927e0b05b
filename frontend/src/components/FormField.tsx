import type { ReactNode } from 'react';

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
