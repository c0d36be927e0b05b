/**
 * A press outside a bounded canvas (§5 Geometry: nothing is created there) is refused with a
 * reason, not silently (issue 35 item 6). Once per few seconds: a scribble at the edge is one
 * message, not a stack of toasts.
 */
import { isInsideCanvas, isPointInsideCanvas, type Bounds, type Point } from '@wb/board-model';
import { OUTSIDE_BOARD_TEXT } from '../../texts.ts';
import type { ToolContext } from './tool.ts';

const REPEAT_AFTER_MS = 4000;
let lastShown = -Infinity;

/** True when `board` is inside the canvas; otherwise tells the user why nothing happens. */
export function insideOrExplain(ctx: Pick<ToolContext, 'limits' | 'message'>, board: Point): boolean {
  if (isPointInsideCanvas(board, ctx.limits)) return true;
  explainOutside(ctx);
  return false;
}

/** True when the whole of `bounds` is inside the canvas (a new sticky near the edge may not fit). */
export function fitsOrExplain(ctx: Pick<ToolContext, 'limits' | 'message'>, bounds: Bounds): boolean {
  if (isInsideCanvas(bounds, ctx.limits)) return true;
  explainOutside(ctx);
  return false;
}

function explainOutside(ctx: Pick<ToolContext, 'message'>): void {
  const now = performance.now();
  if (now - lastShown < REPEAT_AFTER_MS) return;
  lastShown = now;
  ctx.message(OUTSIDE_BOARD_TEXT, 'info');
}
