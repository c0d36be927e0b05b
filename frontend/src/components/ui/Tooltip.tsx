import * as Radix from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';
import styles from './Tooltip.module.css';

/** Put once near the root so tooltips share one open delay (moving between them is instant). */
export const TooltipProvider = Radix.Provider;

interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button); it keeps its own accessible name. */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  delayMs?: number;
}

/** A hover and keyboard-focus hint; never the only place a control's name lives. */
export function Tooltip({ content, children, side = 'top', delayMs = 400 }: TooltipProps) {
  return (
    <Radix.Provider delayDuration={delayMs}>
      <Radix.Root>
        <Radix.Trigger asChild>{children}</Radix.Trigger>
        <Radix.Portal>
          <Radix.Content side={side} sideOffset={6} collisionPadding={8} className={styles.content}>
            {content}
            <Radix.Arrow className={styles.arrow} />
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </Radix.Provider>
  );
}
