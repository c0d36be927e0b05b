/**
 * Eraser (issue 35 item 5): a drag over objects marks them (a red veil on the live layer), the
 * release deletes every marked object and arrow as one undo step. Whole groups go together; locked
 * objects are never marked. The path between two pointer events is sampled, so a fast stroke (or a
 * finger) misses nothing it crossed. Escape or a second finger cancels with nothing erased.
 */
import { isLocked, type Point } from '@wb/board-model';
import type { ScenePrimitive } from '../../render/scene.ts';
import { withGroups } from '../../structureCommands.ts';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';

/** Sample step along the pointer's path, in screen pixels. */
const STEP_PX = 4;
export const ERASE_MARK = { fill: 'rgba(229, 57, 53, 0.25)', stroke: '#E53935' } as const;

class EraseGesture implements Gesture {
  private readonly marked = new Set<string>();
  private last: Point;

  constructor(
    private readonly ctx: ToolContext,
    start: Point,
  ) {
    this.last = start;
    this.sweep(start);
  }

  move({ board }: PointerInfo): void {
    const step = STEP_PX / this.ctx.viewport.camera.scale;
    const n = Math.min(200, Math.ceil(Math.hypot(board.x - this.last.x, board.y - this.last.y) / step));
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      this.sweep({ x: this.last.x + (board.x - this.last.x) * t, y: this.last.y + (board.y - this.last.y) * t });
    }
    this.last = board;
  }

  private sweep(p: Point): void {
    const { ctx } = this;
    const hit = ctx.hitAt(p);
    if (!hit || this.marked.has(hit.id) || isLocked(hit.obj)) return;
    const before = this.marked.size;
    for (const id of withGroups(ctx.scene, [hit.id])) if (!isLocked(ctx.scene.object(id))) this.marked.add(id);
    if (this.marked.size > before) this.show();
  }

  private show(): void {
    const { ctx } = this;
    const w = 2 / ctx.viewport.camera.scale;
    const marks: ScenePrimitive[] = [];
    for (const id of this.marked) {
      const b = ctx.scene.entries.get(id)?.item.bounds;
      if (b) marks.push({ kind: 'rect', ...b, fill: ERASE_MARK.fill, stroke: ERASE_MARK.stroke, strokeWidth: w });
    }
    ctx.live.setPreview(marks);
  }

  up(): void {
    this.ctx.live.setPreview([]);
    if (this.marked.size > 0) this.ctx.commands.structure.erase(this.marked);
  }

  cancel(): void {
    this.ctx.live.setPreview([]);
  }
}

export class EraserTool implements ToolState {
  constructor(private readonly ctx: ToolContext) {}

  down({ board }: PointerInfo): Gesture | null {
    return this.ctx.readOnly ? null : new EraseGesture(this.ctx, board);
  }
}
