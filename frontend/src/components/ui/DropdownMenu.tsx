import * as Radix from '@radix-ui/react-dropdown-menu';
import type { ComponentProps, ReactNode } from 'react';
import styles from './Menu.module.css';

/**
 * A menu button on Radix: arrows, Home/End, type-ahead, Escape returning focus to the trigger,
 * rendered in a portal so no overflow clips it and collision-aware so it stays on screen.
 */
export const DropdownMenu = Radix.Root;
export const DropdownMenuTrigger = Radix.Trigger;

export function DropdownMenuContent({
  children,
  align = 'end',
  sideOffset = 6,
  className,
  ...rest
}: ComponentProps<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        {...rest}
        align={align}
        sideOffset={sideOffset}
        collisionPadding={8}
        className={className ? `${styles.content} ${className}` : styles.content}
      >
        {children}
      </Radix.Content>
    </Radix.Portal>
  );
}

interface ItemProps extends ComponentProps<typeof Radix.Item> {
  icon?: ReactNode;
  danger?: boolean;
}

export function DropdownMenuItem({ icon, danger, className, children, asChild, ...rest }: ItemProps) {
  const cls = [styles.item, danger ? styles.danger : '', className ?? ''].filter(Boolean).join(' ');
  if (asChild) {
    return <Radix.Item {...rest} asChild className={cls}>{children}</Radix.Item>;
  }
  return (
    <Radix.Item {...rest} className={cls}>
      {icon}
      {children}
    </Radix.Item>
  );
}

export function DropdownMenuSeparator() {
  return <Radix.Separator className={styles.separator} />;
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Radix.Label className={styles.label}>{children}</Radix.Label>;
}
