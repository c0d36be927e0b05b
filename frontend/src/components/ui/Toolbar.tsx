import * as Radix from '@radix-ui/react-toolbar';
import type { ComponentProps } from 'react';
import styles from './Toolbar.module.css';

/**
 * role="toolbar" with one tab stop and arrow-key movement between its controls (Radix roving focus).
 * Every icon button needs an `aria-label`.
 */
export function Toolbar({ className, orientation = 'horizontal', ...rest }: ComponentProps<typeof Radix.Root>) {
  const cls = [styles.root, orientation === 'vertical' ? styles.vertical : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return <Radix.Root {...rest} orientation={orientation} className={cls} />;
}

export function ToolbarButton({ className, ...rest }: ComponentProps<typeof Radix.Button>) {
  return <Radix.Button {...rest} className={className ? `${styles.button} ${className}` : styles.button} />;
}

export function ToolbarSeparator() {
  return <Radix.Separator className={styles.separator} />;
}

/** A set of mutually exclusive tools (type="single") or toggles (type="multiple"). */
export function ToolbarToggleGroup({ className, ...rest }: ComponentProps<typeof Radix.ToggleGroup>) {
  return <Radix.ToggleGroup {...rest} className={className ? `${styles.group} ${className}` : styles.group} />;
}

export function ToolbarToggleItem({ className, ...rest }: ComponentProps<typeof Radix.ToggleItem>) {
  return <Radix.ToggleItem {...rest} className={className ? `${styles.button} ${className}` : styles.button} />;
}

export const ToolbarLink = Radix.Link;
