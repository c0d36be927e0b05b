import * as Radix from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';
import styles from './Switch.module.css';

interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** Visible label; without it pass `aria-label`. */
  label?: ReactNode;
  'aria-label'?: string;
  disabled?: boolean;
  id?: string;
  testId?: string;
}

/** role="switch" with aria-checked, toggled by click, Space and Enter. */
export function Switch({ checked, onCheckedChange, label, disabled, id, testId, ...aria }: SwitchProps) {
  const autoId = useId();
  const switchId = id ?? autoId;
  const control = (
    <Radix.Root
      id={switchId}
      className={styles.root}
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled}
      aria-label={aria['aria-label']}
      data-testid={testId}
    >
      <Radix.Thumb className={styles.thumb} />
    </Radix.Root>
  );
  if (!label) return control;
  return (
    <span className={styles.row}>
      {control}
      <label className={styles.label} htmlFor={switchId}>
        {label}
      </label>
    </span>
  );
}
