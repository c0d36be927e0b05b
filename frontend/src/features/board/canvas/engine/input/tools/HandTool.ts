/** The hand: every press pans (so do Space + drag and the middle button with any tool). */
import { panBy, type Point } from '@wb/board-model';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';

export class PanGesture implements Gesture {
  constructor(
    private readonly ctx: ToolContext,
    private last: Point,
  ) {}

  move({ screen }: PointerInfo): void {
    const cam = this.ctx.viewport.camera;
    this.ctx.moveCamera(panBy(cam, screen.x - this.last.x, screen.y - this.last.y));
    this.last = screen;
  }

  up(): void {
    this.ctx.container.style.cursor = this.ctx.restCursor();
  }

  cancel(): void {}
}

/** A pan that shows the grabbing hand while it lasts. */
export function grab(ctx: ToolContext, screen: Point): PanGesture {
  ctx.container.style.cursor = 'grabbing';
  return new PanGesture(ctx, screen);
}

export class HandTool implements ToolState {
  constructor(private readonly ctx: ToolContext) {}

  down({ screen }: PointerInfo): Gesture {
    return grab(this.ctx, screen);
  }
}
