import { useState, type ChangeEvent } from 'react';
import type { FieldErrors } from '../features/auth/validation.ts';

/**
 * A form of text fields: its values, its field errors and `set(field)`, the change handler that
 * stores the new value and clears that field's error (then calls `onEdit`, if given).
 */
export function useFormValues<T extends { [K in keyof T]: string }>(initial: T, onEdit?: () => void) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof T & string>>({});
  const set = (field: keyof T & string) => (e: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
    onEdit?.();
  };
  return { values, setValues, errors, setErrors, set };
}
