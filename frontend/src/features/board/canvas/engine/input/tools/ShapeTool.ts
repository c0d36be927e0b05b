/** Rectangle, ellipse and line: dragged out on the live layer, added on release if inside the canvas. */
import { boundsOf, clampPointToCanvas, isInsideCanvas, newId, nextZIndex, shapeFromDrag, type Point } from '@wb/board-model';
import { insideOrExplain } from '../outside.ts';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';

type Kind = 'rectangle' | 'ellipse' | 'line';

class ShapeGesture implements Gesture {
  private end: Point;
  private readonly zIndex: number;

  constructor(
    private readonly ctx: ToolContext,
    private readonly kind: Kind,
    private readonly start: Point,
  ) {
    this.end = start;
    this.zIndex = nextZIndex(ctx.doc);
  }

  move({ board }: PointerInfo): void {
    this.end = clampPointToCanvas(board, this.ctx.limits);
    this.ctx.live.setTemp(shapeFromDrag(this.kind, this.start, this.end, this.ctx.style, { id: 'temp', zIndex: this.zIndex }));
  }

  up(): void {
    const obj = shapeFromDrag(this.kind, this.start, this.end, this.ctx.style, { id: newId(), zIndex: this.zIndex });
    this.ctx.live.setTemp(null);
    if (obj && isInsideCanvas(boundsOf(obj), this.ctx.limits)) this.ctx.commands.add([obj]);
  }

  cancel(): void {
    this.ctx.live.setTemp(null);
  }
}

export class ShapeTool implements ToolState {
  constructor(
    private readonly ctx: ToolContext,
    private readonly kind: Kind,
  ) {}

  down({ board }: PointerInfo): Gesture | null {
    if (!insideOrExplain(this.ctx, board)) return null;
    return new ShapeGesture(this.ctx, this.kind, board);
  }
}
