import type { ReactNode } from 'react';
import { IconButton } from './Button.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './DropdownMenu.tsx';

export interface ActionsMenuItem {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onSelect: () => void;
}

/**
 * A "⋯" icon button opening a menu of `items` (each with test id `menu-<key>`). Clicks inside stay
 * inside: the menu usually sits on a card or a row that has a click of its own.
 */
export function ActionsMenu({
  items,
  label,
  testId,
  size = 'md',
  plain = false,
  className,
}: {
  items: ActionsMenuItem[];
  label: string;
  testId?: string;
  size?: 'sm' | 'md';
  /** The trigger's look comes from className alone (see IconButton). */
  plain?: boolean;
  className?: string;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <IconButton
          label={label}
          tooltip
          size={size}
          plain={plain}
          className={className}
          onClick={(e) => e.stopPropagation()}
          data-testid={testId}
        >
          <MoreDots />
        </IconButton>
      </DropdownMenuTrigger>
      <DropdownMenuContent onClick={(e) => e.stopPropagation()} onPointerDown={(e) => e.stopPropagation()}>
        {items.map((item) => (
          <DropdownMenuItem
            key={item.key}
            icon={item.icon}
            danger={item.danger}
            disabled={item.disabled}
            onSelect={item.onSelect}
            data-testid={`menu-${item.key}`}
          >
            <span>{item.label}</span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const MoreDots = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="5" cy="12" r="1.8" fill="currentColor" />
    <circle cx="12" cy="12" r="1.8" fill="currentColor" />
    <circle cx="19" cy="12" r="1.8" fill="currentColor" />
  </svg>
);
