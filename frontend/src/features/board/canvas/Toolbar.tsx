import {
  CircleIcon,
  EraserIcon,
  HandIcon,
  HighlighterIcon,
  ImageIcon,
  LayoutTemplateIcon,
  MinusIcon,
  MousePointer2Icon,
  MoveRightIcon,
  PencilIcon,
  Redo2Icon,
  SquareIcon,
  StickyNoteIcon,
  Trash2Icon,
  TypeIcon,
  Undo2Icon,
} from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import {
  BRUSH_SIZES,
  FONT_SIZES,
  READ_ONLY_TOOLS,
  STICKY_COLORS,
  TEXT_COLORS,
  type Tool,
  type ToolStyle,
} from '@wb/board-model';
import {
  Button,
  Toolbar as UiToolbar,
  ToolbarButton,
  ToolbarSeparator,
  ToolbarToggleGroup,
  ToolbarToggleItem,
} from '../../../components/ui/index.ts';
import type { ArrowStyle } from './engine/CanvasEngine.ts';
import { LABELS, TOOL_LABELS } from './texts.ts';
import { NARROW_BAR_TOOLS, ToolbarOverflow, useNarrowScreen } from './ToolbarOverflow.tsx';
import styles from './Toolbar.module.css';

const TOOL_ICONS: Partial<Record<Tool, ReactNode>> = {
  select: <MousePointer2Icon size={18} />,
  hand: <HandIcon size={18} />,
  pen: <PencilIcon size={18} />,
  highlighter: <HighlighterIcon size={18} />,
  rectangle: <SquareIcon size={18} />,
  ellipse: <CircleIcon size={18} />,
  line: <MinusIcon size={18} />,
  text: <TypeIcon size={18} />,
  sticky: <StickyNoteIcon size={18} />,
  image: <ImageIcon size={18} />,
  eraser: <EraserIcon size={18} />,
};
const VISIBLE_TOOLS = Object.keys(TOOL_ICONS) as Tool[];
const STROKE_TOOLS: readonly Tool[] = ['pen', 'highlighter', 'rectangle', 'ellipse', 'line'];

export interface ToolbarProps {
  tool: Tool;
  onTool: (tool: Tool) => void;
  readOnly: boolean;
  canSelect: boolean;
  style: ToolStyle;
  onStyle: (patch: Partial<ToolStyle>) => void;
  /** Recolours the selection too (palette clicks and Alt+1..8). */
  onColor: (color: string) => void;
  arrowStyle: ArrowStyle;
  onArrowStyle: (style: ArrowStyle) => void;
  canArrow: boolean;
  arrowPending: boolean;
  onArrow: () => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onTemplates: () => void;
  onClear: () => void;
  /** Shift+1 / Shift+2 from the "Ещё" menu (issue 35 item 5). */
  onZoomToFit: () => void;
  onZoomToSelection: () => void;
  hasSelection: boolean;
}

/**
 * The toolbar of §2. In view-only mode (§6) everything stays in place but is disabled except select
 * and hand (for guests hand only), so a viewer sees what the board offers and that it is not theirs.
 */
export function Toolbar(p: ToolbarProps) {
  const ro = p.readOnly;
  const usable = (t: Tool) => (!ro || READ_ONLY_TOOLS.includes(t)) && (t !== 'select' || p.canSelect);
  const showStroke = !ro && STROKE_TOOLS.includes(p.tool);
  const showFont = !ro && p.tool === 'text';
  const showSticky = !ro && p.tool === 'sticky';
  const showColors = showStroke || showFont || p.tool === 'select' || ro;
  // A phone (issue 35 item 8): one row of the main tools; the rest, the arrow, templates and the
  // current tool's styles go into the "Ещё" menu.
  const narrow = useNarrowScreen();
  const inBar = (t: Tool) => !narrow || NARROW_BAR_TOOLS.includes(t);
  const styleControls = (
    <>
      {showStroke ? (
        <select
          className={styles.select}
          aria-label={LABELS.brush}
          data-testid="brush-size"
          value={p.style.brush}
          onChange={(e) => p.onStyle({ brush: Number(e.target.value) })}
        >
          {BRUSH_SIZES.map((b) => (
            <option key={b} value={b}>
              {b} px
            </option>
          ))}
        </select>
      ) : null}
      {showFont ? (
        <select
          className={styles.select}
          aria-label={LABELS.fontSize}
          data-testid="font-size"
          value={p.style.fontSize}
          onChange={(e) => p.onStyle({ fontSize: Number(e.target.value) })}
        >
          {FONT_SIZES.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      ) : null}
      {showColors ? (
        <Swatches
          label={LABELS.color}
          colors={TEXT_COLORS}
          value={p.style.color}
          onPick={p.onColor}
          testId="color"
          disabled={ro}
        />
      ) : null}
      {showSticky ? (
        <Swatches
          label={LABELS.stickyColor}
          colors={STICKY_COLORS}
          value={p.style.stickyColor}
          onPick={(c) => p.onStyle({ stickyColor: c })}
          testId="sticky-color"
        />
      ) : null}
    </>
  );
  return (
    <UiToolbar className={styles.bar} aria-label={LABELS.toolbar} data-testid="canvas-toolbar">
      <ToolbarToggleGroup
        type="single"
        value={p.tool}
        onValueChange={(v) => v && p.onTool(v as Tool)}
        aria-label={LABELS.toolbar}
      >
        {VISIBLE_TOOLS.filter(inBar).map((t) => (
          <ToolbarToggleItem
            key={t}
            value={t}
            disabled={!usable(t)}
            aria-label={TOOL_LABELS[t]}
            title={TOOL_LABELS[t]}
            data-testid={`tool-${t}`}
          >
            {TOOL_ICONS[t]}
          </ToolbarToggleItem>
        ))}
      </ToolbarToggleGroup>
      <ToolbarSeparator />
      {narrow ? null : styleControls}
      <ToolbarSeparator />
      {/* Each group wraps as a whole on a narrow screen: an arrow button never sits apart from its styles. */}
      {narrow ? null : (
        <div className={styles.group}>
          <IconButton
            label={LABELS.arrow}
            aria-pressed={p.arrowPending}
            disabled={ro || (!p.canArrow && !p.arrowPending)}
            onClick={p.onArrow}
            data-testid="arrow-start"
          >
            <MoveRightIcon size={18} />
          </IconButton>
          <ToolbarToggleGroup
            type="single"
            disabled={ro}
            value={p.arrowStyle}
            onValueChange={(v) => v && p.onArrowStyle(v as ArrowStyle)}
            aria-label={LABELS.arrow}
          >
            {(['solid', 'dashed', 'dotted'] as const).map((s) => (
              <ToolbarToggleItem
                key={s}
                value={s}
                aria-label={LABELS.arrowStyles[s]}
                title={LABELS.arrowStyles[s]}
                data-testid={`arrow-${s}`}
              >
                <ArrowStyleIcon style={s} />
              </ToolbarToggleItem>
            ))}
          </ToolbarToggleGroup>
        </div>
      )}
      <ToolbarSeparator />
      <div className={styles.group}>
        <IconButton label={LABELS.undo} disabled={ro || !p.canUndo} onClick={p.onUndo} data-testid="undo">
          <Undo2Icon size={18} />
        </IconButton>
        <IconButton label={LABELS.redo} disabled={ro || !p.canRedo} onClick={p.onRedo} data-testid="redo">
          <Redo2Icon size={18} />
        </IconButton>
        {narrow ? null : (
          <IconButton label={LABELS.templates} disabled={ro} onClick={p.onTemplates} data-testid="templates">
            <LayoutTemplateIcon size={18} />
          </IconButton>
        )}
        <IconButton
          className={styles.clear}
          label={LABELS.clear}
          disabled={ro}
          onClick={p.onClear}
          data-testid="clear-board"
        >
          <Trash2Icon size={18} />
        </IconButton>
        <ToolbarOverflow
          tools={VISIBLE_TOOLS.filter((t) => !inBar(t)).map((t) => ({
            tool: t,
            icon: TOOL_ICONS[t],
            disabled: !usable(t),
          }))}
          activeTool={p.tool}
          onTool={p.onTool}
          folded={narrow}
          readOnly={ro}
          canArrow={p.canArrow || p.arrowPending}
          onArrow={p.onArrow}
          onTemplates={p.onTemplates}
          onZoomToFit={p.onZoomToFit}
          onZoomToSelection={p.onZoomToSelection}
          canZoomToSelection={p.hasSelection}
          styleControls={
            narrow && (showStroke || showFont || showColors || showSticky) ? styleControls : null
          }
        />
      </div>
    </UiToolbar>
  );
}

/** An icon button of the toolbar: its name is also its tooltip. */
function IconButton({ label, ...rest }: ComponentProps<typeof ToolbarButton> & { label: string }) {
  return <ToolbarButton aria-label={label} title={label} {...rest} />;
}

function Swatches(props: {
  label: string;
  colors: readonly string[];
  value: string;
  onPick: (c: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <div className={styles.swatches} role="group" aria-label={props.label}>
      {props.colors.map((c) => (
        <Button
          key={c}
          variant="plain"
          className={styles.swatch}
          style={{ background: c }}
          aria-label={`${props.label} ${c}`}
          aria-pressed={props.value.toLowerCase() === c.toLowerCase()}
          data-testid={`${props.testId}-${c}`}
          disabled={props.disabled}
          onClick={() => props.onPick(c)}
        />
      ))}
    </div>
  );
}

function ArrowStyleIcon({ style }: { style: ArrowStyle }) {
  const dash = style === 'dashed' ? '5 3' : style === 'dotted' ? '1.5 2.5' : undefined;
  return (
    <svg width="22" height="12" viewBox="0 0 22 12" aria-hidden="true">
      <line x1="1" y1="6" x2="16" y2="6" stroke="currentColor" strokeWidth="2" strokeDasharray={dash} />
      <path d="M15 1 L21 6 L15 11 Z" fill="currentColor" />
    </svg>
  );
}
