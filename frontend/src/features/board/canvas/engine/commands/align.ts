/**
 * Align and distribute the selection (issue 35 item 5): the rules are @wb/board-model's
 * (tools/align.ts); this applies them as one transaction, so one undo step each. Locked objects
 * and arrows are left out; each move stays inside a bounded canvas.
 */
import {
  ALIGN_MIN,
  DISTRIBUTE_MIN,
  alignMoves,
  arrangeable,
  arrangeBoxOf,
  clampArrangeMove,
  distributeMoves,
  translatePatch,
  updateObject,
  type AlignMode,
  type ArrangeItem,
  type Axis,
  type CanvasObject,
  type Point,
} from '@wb/board-model';
import type { CommandContext } from '../commands.ts';

type ArrangeContext = Pick<CommandContext, 'doc' | 'origin' | 'scene' | 'selection' | 'readOnly' | 'limits'>;

/** The selected objects that may be arranged, each with its arrange box. */
export function arrangeItems(ctx: Pick<ArrangeContext, 'scene' | 'selection'>): Array<ArrangeItem & { obj: CanvasObject }> {
  const out: Array<ArrangeItem & { obj: CanvasObject }> = [];
  for (const id of ctx.selection) {
    const e = ctx.scene.entries.get(id);
    if (!e?.obj || !arrangeable(e.obj)) continue;
    out.push({ id, obj: e.obj, box: arrangeBoxOf(e.obj, e.item.bounds) });
  }
  return out;
}

export const canAlign = (ctx: ArrangeContext): boolean => !ctx.readOnly && arrangeItems(ctx).length >= ALIGN_MIN;
export const canDistribute = (ctx: ArrangeContext): boolean => !ctx.readOnly && arrangeItems(ctx).length >= DISTRIBUTE_MIN;

function apply(ctx: ArrangeContext, objects: Map<string, CanvasObject>, moves: Map<string, Point>): boolean {
  const patches = [...moves].flatMap(([id, wanted]) => {
    const obj = objects.get(id)!;
    const d = clampArrangeMove(obj, wanted, ctx.limits);
    return d.x === 0 && d.y === 0 ? [] : [{ id, patch: translatePatch(obj, d.x, d.y) }];
  });
  // Nothing to move (already aligned): no empty step on the undo stack.
  if (patches.length === 0) return false;
  ctx.doc.transact(() => {
    for (const { id, patch } of patches) updateObject(ctx.doc, id, patch, ctx.origin);
  }, ctx.origin);
  return true;
}

export function alignSelection(ctx: ArrangeContext, mode: AlignMode): boolean {
  if (ctx.readOnly) return false;
  const items = arrangeItems(ctx);
  return apply(ctx, new Map(items.map((i) => [i.id, i.obj])), alignMoves(items, mode));
}

export function distributeSelection(ctx: ArrangeContext, axis: Axis): boolean {
  if (ctx.readOnly) return false;
  const items = arrangeItems(ctx);
  return apply(ctx, new Map(items.map((i) => [i.id, i.obj])), distributeMoves(items, axis));
}
