import type { ButtonHTMLAttributes, Ref } from 'react';
import { Spinner } from '../FullScreenLoader.tsx';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Disables the button and shows a spinner in front of its label while an action runs. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** Class names of a button, for links and Radix `asChild` triggers that must look like one. */
export function buttonClass({
  variant = 'secondary',
  size = 'md',
  block = false,
}: Pick<ButtonProps, 'variant' | 'size' | 'block'> = {}): string {
  return [styles.button, styles[variant], size === 'md' ? '' : styles[size], block ? styles.block : '']
    .filter(Boolean)
    .join(' ');
}

export function Button({
  variant,
  size,
  block,
  loading = false,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  const cls = buttonClass({ variant, size, block });
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={className ? `${cls} ${className}` : cls}
    >
      {loading ? <Spinner size="sm" /> : null}
      {children}
    </button>
  );
}
