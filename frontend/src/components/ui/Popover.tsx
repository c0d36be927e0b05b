import * as Radix from '@radix-ui/react-popover';
import type { ComponentProps } from 'react';
import styles from './Popover.module.css';

/** Non-modal floating panel (colour pickers, filters): Escape and outside click close it, focus returns. */
export const Popover = Radix.Root;
export const PopoverTrigger = Radix.Trigger;
export const PopoverClose = Radix.Close;
export const PopoverAnchor = Radix.Anchor;

export function PopoverContent({ className, sideOffset = 6, ...rest }: ComponentProps<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        {...rest}
        sideOffset={sideOffset}
        collisionPadding={8}
        className={className ? `${styles.content} ${className}` : styles.content}
      />
    </Radix.Portal>
  );
}
