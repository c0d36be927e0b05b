import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/index.ts';

export interface ContextMenuItem {
  id: string;
  label: string;
  danger?: boolean;
  disabled?: boolean;
  run?: () => void;
}

export interface ContextMenuState {
  x: number;
  y: number;
  items: ContextMenuItem[];
}

/**
 * The canvas's context menu (board-page.md §2 "Context menu", §6): a Radix menu opened at the
 * pointer, so arrows, Escape and focus behave as in every other menu of the app.
 */
export function CanvasContextMenu({ menu, onClose }: { menu: ContextMenuState; onClose: () => void }) {
  return (
    <DropdownMenu open modal={false} onOpenChange={(open) => !open && onClose()}>
      <DropdownMenuTrigger asChild>
        <span aria-hidden style={{ position: 'fixed', left: menu.x, top: menu.y, width: 0, height: 0 }} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side="bottom" sideOffset={2} data-testid="canvas-context-menu">
        {menu.items.map((item) => (
          <DropdownMenuItem
            key={item.id}
            data-testid={`context-${item.id}`}
            danger={item.danger}
            disabled={item.disabled}
            onSelect={() => item.run?.()}
          >
            {item.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
