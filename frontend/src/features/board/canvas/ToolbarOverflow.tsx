/**
 * The toolbar's "Ещё" menu (issue 35 items 5, 8): on a phone (under the spec's 640 px, §2) the bar
 * keeps one row of the main tools and this menu holds the rest (other tools, arrow, templates, the
 * current tool's colour and size); at every width it offers zoom to fit and to the selection.
 */
import { EllipsisIcon, FocusIcon, LayoutTemplateIcon, MaximizeIcon, MoveRightIcon } from 'lucide-react';
import { useSyncExternalStore, type ReactNode } from 'react';
import type { Tool } from '@wb/board-model';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  ToolbarButton,
} from '../../../components/ui/index.ts';
import { LABELS, NAV_LABELS, TOOL_LABELS } from './texts.ts';
import styles from './Toolbar.module.css';

/** The spec's mobile breakpoint (§2: under 640 px). */
const NARROW = '(max-width: 639px)';

/** Whether the screen is a phone's (the toolbar folds into one row and the menu). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(NARROW);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    () => window.matchMedia(NARROW).matches,
  );
}

/** The tools that stay in the bar on a phone: the ones used most (select, hand, pen, sticky, text). */
export const NARROW_BAR_TOOLS: readonly Tool[] = ['select', 'hand', 'pen', 'sticky', 'text'];

export interface ToolbarOverflowProps {
  /** Tools folded into the menu (none on a wide screen). */
  tools: { tool: Tool; icon: ReactNode; disabled: boolean }[];
  activeTool: Tool;
  onTool: (tool: Tool) => void;
  /** The arrow and templates buttons, folded in on a phone. */
  folded: boolean;
  readOnly: boolean;
  canArrow: boolean;
  onArrow: () => void;
  onTemplates: () => void;
  onZoomToFit: () => void;
  onZoomToSelection: () => void;
  canZoomToSelection: boolean;
  /** The current tool's style controls (colours, sizes) on a phone. */
  styleControls: ReactNode;
}

export function ToolbarOverflow(p: ToolbarOverflowProps) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <ToolbarButton
          aria-label={NAV_LABELS.more}
          title={NAV_LABELS.more}
          data-testid="toolbar-more"
          // The current tool lives in the menu: the button shows it is in use (as a pressed tool would).
          data-holds-tool={p.tools.some((t) => t.tool === p.activeTool) ? 'true' : undefined}
        >
          <EllipsisIcon size={18} />
        </ToolbarButton>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        className={styles.more}
        data-testid="toolbar-more-menu"
        aria-label={NAV_LABELS.more}
      >
        {p.tools.map(({ tool, icon, disabled }) => (
          <DropdownMenuItem
            key={tool}
            icon={icon}
            disabled={disabled}
            data-testid={`more-tool-${tool}`}
            data-active={p.activeTool === tool ? 'true' : undefined}
            onSelect={() => p.onTool(tool)}
          >
            {TOOL_LABELS[tool]}
          </DropdownMenuItem>
        ))}
        {p.folded ? (
          <>
            <DropdownMenuItem
              icon={<MoveRightIcon size={18} />}
              disabled={p.readOnly || !p.canArrow}
              data-testid="more-arrow"
              onSelect={p.onArrow}
            >
              {LABELS.arrow}
            </DropdownMenuItem>
            <DropdownMenuItem
              icon={<LayoutTemplateIcon size={18} />}
              disabled={p.readOnly}
              data-testid="more-templates"
              onSelect={p.onTemplates}
            >
              {LABELS.templates}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        <DropdownMenuItem
          icon={<MaximizeIcon size={18} />}
          data-testid="zoom-to-fit"
          onSelect={p.onZoomToFit}
        >
          {NAV_LABELS.zoomToFit}
        </DropdownMenuItem>
        <DropdownMenuItem
          icon={<FocusIcon size={18} />}
          disabled={!p.canZoomToSelection}
          data-testid="zoom-to-selection"
          onSelect={p.onZoomToSelection}
        >
          {NAV_LABELS.zoomToSelection}
        </DropdownMenuItem>
        {p.styleControls ? <div className={styles.moreStyles}>{p.styleControls}</div> : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
