/**
 * Arrow creation (§4): with one object selected, the toolbar's arrow button arms this mode; the
 * next press on another object connects them, anything else cancels. It overlays the current tool
 * (the tool stays what it was), so PointerInput asks it before the tool.
 */
import { arrowRefusal, boundsOf, canStartArrow, type Point } from '@wb/board-model';
import { toolCursor, type ToolContext } from '../tool.ts';

export class ArrowTool {
  private from: string | null = null;

  constructor(
    private readonly ctx: ToolContext,
    /** The page shows the hint while the mode is armed. */
    private readonly announce: (active: boolean) => void,
  ) {}

  get active(): boolean {
    return this.from !== null;
  }

  /** Starts an arrow from the one selected object; false when that is not possible. */
  begin(): boolean {
    const { ctx } = this;
    const [only] = ctx.selectedObjects();
    if (ctx.readOnly || ctx.selection.size !== 1 || !only || !canStartArrow(only)) return false;
    this.from = only.id;
    ctx.container.style.cursor = 'crosshair';
    this.announce(true);
    return true;
  }

  cancel(): void {
    if (!this.from) return;
    this.from = null;
    this.ctx.live.setPreview([]);
    this.ctx.container.style.cursor = toolCursor(this.ctx.tool);
    this.announce(false);
  }

  preview(board: Point): void {
    const { ctx } = this;
    const from = this.from ? ctx.scene.object(this.from) : null;
    if (!from) return;
    const b = boundsOf(from);
    const style = ctx.arrowStyle;
    ctx.live.setPreview([
      {
        kind: 'arrow',
        points: [b.x + b.width / 2, b.y + b.height / 2, board.x, board.y],
        pointerLength: 15,
        pointerWidth: 15,
        stroke: '#2196F3',
        fill: '#2196F3',
        strokeWidth: 2 / ctx.viewport.camera.scale,
        dash: style === 'dashed' ? [10, 5] : style === 'dotted' ? [2, 3] : undefined,
      },
    ]);
  }

  /** §4/§9: an empty click, the same object, a missing target or a stroke end cancels. */
  finish(board: Point): void {
    const { ctx } = this;
    const from = ctx.scene.object(this.from!);
    const to = ctx.hitAt(board)?.obj ?? null;
    this.cancel();
    if (arrowRefusal(from, to) !== null || !from || !to) return;
    ctx.commands.connect(from.id, to.id);
  }
}
