import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Spinner } from '../FullScreenLoader.tsx';
import styles from './Button.module.css';

/**
 * `plain` draws nothing of its own: for buttons whose look is a list row, a chip or a swatch that
 * their feature's stylesheet gives them, so they still get the one button's behaviour (type,
 * disabled while loading, aria-busy) without a second set of styles fighting the first.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'accent' | 'light' | 'link' | 'plain';
/** Icon-only buttons are IconButton (it requires their accessible name). */
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Disables the button and shows a spinner in front of its label while an action runs. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** Class names of a button, for links and Radix `asChild` triggers that must look like one. */
export function buttonClass({
  variant = 'secondary',
  size = 'md',
  block = false,
}: Pick<ButtonProps, 'variant' | 'size' | 'block'> = {}): string {
  if (variant === 'plain') return '';
  if (variant === 'link') return styles.link;
  return cx(styles.button, styles[variant], size !== 'md' && styles[size], block && styles.block);
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
  const cls = cx(buttonClass({ variant, size, block }), className);
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cls || undefined}
    >
      {loading ? <Spinner size="sm" /> : null}
      {children}
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonProps, 'variant' | 'size' | 'block' | 'aria-label' | 'children'> {
  /** The accessible name (aria-label): an icon alone says nothing to a screen reader. */
  label: string;
  /** The icon (aria-hidden is the caller's svg's business; lucide icons are decorative by default). */
  children: ReactNode;
  size?: 'sm' | 'md';
  /** danger: turns red on hover; glass: a light frosted square for use over pictures. */
  tone?: 'default' | 'danger' | 'glass';
  /** The label also shows as the native tooltip. */
  tooltip?: boolean;
  /** The caller's className alone draws it (a close × or a tree toggle with a look of its own). */
  plain?: boolean;
}

/** A button showing only an icon: the one place icon buttons get their look and their required name. */
export function IconButton({
  label,
  size = 'md',
  tone = 'default',
  tooltip = false,
  plain = false,
  className,
  title,
  ...rest
}: IconButtonProps) {
  const look = plain
    ? ''
    : cx(styles.iconButton, size === 'sm' && styles.iconSm, tone === 'danger' && styles.iconDanger, tone === 'glass' && styles.iconGlass);
  return (
    <Button
      {...rest}
      variant="plain"
      aria-label={label}
      title={title ?? (tooltip ? label : undefined)}
      className={cx(look, className) || undefined}
    />
  );
}
