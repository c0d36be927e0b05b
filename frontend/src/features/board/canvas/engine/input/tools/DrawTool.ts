/** Pen and highlighter: a freehand stroke, drawn on the live layer, added on release. */
import { appendStrokePoint, clampPointToCanvas, newId, nextZIndex, strokeObject } from '@wb/board-model';
import { insideOrExplain } from '../outside.ts';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';

type Kind = 'pen' | 'highlighter';

class StrokeGesture implements Gesture {
  private readonly points: number[];
  private readonly zIndex: number;

  constructor(
    private readonly ctx: ToolContext,
    private readonly kind: Kind,
    p: PointerInfo,
  ) {
    this.points = [p.board.x, p.board.y];
    this.zIndex = nextZIndex(ctx.doc);
    this.preview();
  }

  private preview(): void {
    this.ctx.live.setTemp(strokeObject(this.kind, this.points, this.ctx.style, { id: 'temp', zIndex: this.zIndex }));
  }

  move({ board }: PointerInfo): void {
    const p = clampPointToCanvas(board, this.ctx.limits);
    if (appendStrokePoint(this.points, p, 1 / this.ctx.viewport.camera.scale)) this.preview();
  }

  up(): void {
    const obj = strokeObject(this.kind, this.points, this.ctx.style, { id: newId(), zIndex: this.zIndex });
    this.ctx.live.setTemp(null);
    if (obj) this.ctx.commands.add([obj]);
  }

  cancel(): void {
    this.ctx.live.setTemp(null);
  }
}

export class DrawTool implements ToolState {
  constructor(
    private readonly ctx: ToolContext,
    private readonly kind: Kind,
  ) {}

  down(p: PointerInfo): Gesture | null {
    if (!insideOrExplain(this.ctx, p.board)) return null;
    return new StrokeGesture(this.ctx, this.kind, p);
  }
}
