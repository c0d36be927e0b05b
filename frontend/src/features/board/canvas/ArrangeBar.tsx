/**
 * Align and distribute (issue 35 item 5): a small bar at the bottom of the canvas while two or more
 * objects that may move are selected (distribute from three), and the same commands in the context
 * menu. Touch users get them from the bar with one tap. Locked objects do not count (align.ts).
 */
import {
  AlignCenterHorizontal,
  AlignCenterVertical,
  AlignEndHorizontal,
  AlignEndVertical,
  AlignHorizontalDistributeCenter,
  AlignStartHorizontal,
  AlignStartVertical,
  AlignVerticalDistributeCenter,
  type LucideIcon,
} from 'lucide-react';
import type { PointerEvent } from 'react';
import type { AlignMode, Axis } from '@wb/board-model';
import { Toolbar, ToolbarButton, ToolbarSeparator } from '../../../components/ui/index.ts';
import type { ContextMenuItem } from './ContextMenu.tsx';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { alignSelection, arrangeItems, canAlign, canDistribute, distributeSelection } from './engine/commands/align.ts';
import { ARRANGE_LABELS } from './texts.ts';
import { useCanvasState } from './useCanvasState.ts';
import styles from './arrange.module.css';

const ALIGN: Array<[AlignMode, LucideIcon]> = [
  ['left', AlignStartVertical],
  ['centre', AlignCenterVertical],
  ['right', AlignEndVertical],
  ['top', AlignStartHorizontal],
  ['middle', AlignCenterHorizontal],
  ['bottom', AlignEndHorizontal],
];
const DISTRIBUTE: Array<[Axis, LucideIcon]> = [
  ['horizontal', AlignHorizontalDistributeCenter],
  ['vertical', AlignVerticalDistributeCenter],
];

/** The context menu's align/distribute items for the current selection (none below two objects). */
export function arrangeMenuItems(engine: CanvasEngine): ContextMenuItem[] {
  if (!canAlign(engine)) return [];
  const items: ContextMenuItem[] = ALIGN.map(([mode]) => ({
    id: `align-${mode}`,
    label: ARRANGE_LABELS[mode],
    run: () => alignSelection(engine, mode),
  }));
  if (canDistribute(engine)) {
    for (const [axis] of DISTRIBUTE) items.push({ id: `distribute-${axis}`, label: ARRANGE_LABELS[axis], run: () => distributeSelection(engine, axis) });
  }
  return items;
}

/**
 * A finger acts on release: Chromium drops the click of a tap that follows a touch drag too
 * closely (the rubber band that made the selection), so a tap would sometimes do nothing. The
 * click that may still follow is then ignored.
 */
let touchedAt = -Infinity;
const TOUCH_CLICK_MS = 1000;
const actions = (run: () => void) => ({
  onPointerUp: (e: PointerEvent) => {
    if (e.pointerType !== 'touch') return;
    touchedAt = performance.now();
    run();
  },
  onClick: () => {
    if (performance.now() - touchedAt > TOUCH_CLICK_MS) run();
  },
});

export function ArrangeBar({ engine }: { engine: CanvasEngine }) {
  const selection = useCanvasState(engine.state, (s) => s.selection);
  const tool = useCanvasState(engine.state, (s) => s.tool);
  const editing = useCanvasState(engine.state, (s) => s.editing);
  // The selection's size decides; the objects are read at render (a lock changes them).
  const count = selection.size >= 2 ? arrangeItems(engine).length : 0;
  if (engine.readOnly || tool !== 'select' || editing || count < 2) return null;
  return (
    <Toolbar className={styles.bar} aria-label={ARRANGE_LABELS.bar} data-testid="arrange-bar" onPointerDown={(e) => e.stopPropagation()}>
      {ALIGN.map(([mode, Icon]) => (
        <ToolbarButton key={mode} aria-label={ARRANGE_LABELS[mode]} title={ARRANGE_LABELS[mode]} data-testid={`arrange-${mode}`} {...actions(() => alignSelection(engine, mode))}>
          <Icon size={16} aria-hidden />
        </ToolbarButton>
      ))}
      <ToolbarSeparator />
      {DISTRIBUTE.map(([axis, Icon]) => (
        <ToolbarButton
          key={axis}
          aria-label={ARRANGE_LABELS[axis]}
          title={ARRANGE_LABELS[axis]}
          data-testid={`arrange-${axis}`}
          disabled={count < 3}
          {...actions(() => distributeSelection(engine, axis))}
        >
          <Icon size={16} aria-hidden />
        </ToolbarButton>
      ))}
    </Toolbar>
  );
}
