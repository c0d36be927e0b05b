/** The rubber band (select and export-select): a rectangle dragged on the board. */
import { normalizeRect, type Bounds, type Point } from '@wb/board-model';
import type { Gesture, PointerInfo, ToolContext } from '../tool.ts';

export class BrushGesture implements Gesture {
  private end: Point;

  constructor(
    private readonly ctx: ToolContext,
    private readonly start: Point,
    /** Receives the band (board coordinates, normalised) on release. */
    private readonly done: (area: Bounds) => void,
  ) {
    this.end = start;
  }

  move({ board }: PointerInfo): void {
    this.end = board;
    this.ctx.live.showBand(this.start, this.end);
  }

  up(): void {
    this.ctx.live.hideBand();
    const { start, end } = this;
    this.done(normalizeRect({ x: start.x, y: start.y, width: end.x - start.x, height: end.y - start.y }));
  }

  cancel(): void {
    this.ctx.live.hideBand(false);
  }
}
