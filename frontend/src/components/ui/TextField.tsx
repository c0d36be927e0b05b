import { EyeIcon, EyeOffIcon } from 'lucide-react';
import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
} from 'react';
import styles from './TextField.module.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'aria-invalid'>;

export interface TextFieldProps extends InputProps {
  label: ReactNode;
  /** The field's error, announced to screen readers and tied to the input with aria-describedby. */
  error?: string;
  /** Shown under the field (password strength, a note). */
  hint?: ReactNode;
  /** Hides the label visually but keeps it as the input's accessible name. */
  hideLabel?: boolean;
  /** The smaller control of dense places (a row inside a dialog's list). */
  compact?: boolean;
  ref?: Ref<HTMLInputElement>;
}

const inputClass = (compact?: boolean) => (compact ? `${styles.input} ${styles.compact}` : styles.input);

interface FieldFrameProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  hideLabel?: boolean;
  children: ReactNode;
}

/** Label, control and error; the error keeps the `<id>-error` test id the browser tests read. */
export function FieldFrame({ id, label, error, hint, hideLabel, children }: FieldFrameProps) {
  return (
    <div className={styles.field} data-invalid={error ? 'true' : undefined}>
      <label className={hideLabel ? 'visually-hidden' : styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <p className={styles.error} id={`${id}-error`} role="alert" data-testid={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {hint}
    </div>
  );
}

/** A labelled text input; `ref` and the rest go to the <input>, so react-hook-form's `register` fits. */
export function TextField({ id, label, error, hint, hideLabel, compact, ref, ...input }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <input
        {...input}
        ref={ref}
        id={fieldId}
        className={inputClass(compact)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
      />
    </FieldFrame>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  hideLabel?: boolean;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native <select> styled like the text inputs; `ref` goes to the <select> (react-hook-form). */
export function SelectField({ id, label, error, hint, hideLabel, ref, children, ...select }: SelectFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <select
        {...select}
        ref={ref}
        id={fieldId}
        className={`${styles.input} ${styles.select}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/** A password input with a show/hide toggle (test id `<id>-toggle`). */
export function PasswordField({ id, label, error, hint, hideLabel, ref, ...input }: Omit<TextFieldProps, 'type' | 'compact'>) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const [visible, setVisible] = useState(false);
  const toggleLabel = visible ? 'Скрыть пароль' : 'Показать пароль';
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <div className={styles.group}>
        <input
          {...input}
          ref={ref}
          id={fieldId}
          type={visible ? 'text' : 'password'}
          className={styles.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
        />
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setVisible((v) => !v)}
          aria-label={toggleLabel}
          aria-pressed={visible}
          title={toggleLabel}
          data-testid={`${fieldId}-toggle`}
        >
          {visible ? <EyeOffIcon size={18} aria-hidden="true" /> : <EyeIcon size={18} aria-hidden="true" />}
        </button>
      </div>
    </FieldFrame>
  );
}
