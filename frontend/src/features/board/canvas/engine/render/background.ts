/**
 * The board background (§9: white, grid 20, dots 10/50, lines 25) for the visible area only,
 * from the shared scene's pattern primitives. Marks closer than a few screen pixels are skipped:
 * zoomed far out they would only grey the screen and cost thousands of draw calls.
 */
import type { Background, Bounds } from '@wb/board-model';
import { backgroundToScene, type ScenePrimitive } from './scene.ts';
import { paintPrimitive } from './paint.ts';

const MIN_MARK_GAP_PX = 6;

export function paintBackground(ctx: CanvasRenderingContext2D, background: Background, area: Bounds, scale: number): void {
  for (const p of backgroundToScene(background, area)) paintBackgroundPrimitive(ctx, p, scale);
}

function paintBackgroundPrimitive(ctx: CanvasRenderingContext2D, p: ScenePrimitive, scale: number): void {
  if (p.kind !== 'pattern') {
    paintPrimitive(ctx, p, { scale, shadows: false });
    return;
  }
  if (p.spacing * scale < MIN_MARK_GAP_PX) return;
  const x0 = Math.floor(p.x / p.spacing) * p.spacing;
  const y0 = Math.floor(p.y / p.spacing) * p.spacing;
  const x1 = p.x + p.width;
  const y1 = p.y + p.height;
  ctx.fillStyle = p.color;
  ctx.strokeStyle = p.color;
  if (p.mark === 'dots') {
    const r = p.size;
    ctx.beginPath();
    for (let x = x0; x <= x1; x += p.spacing) {
      for (let y = y0; y <= y1; y += p.spacing) {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
    }
    ctx.fill();
    return;
  }
  ctx.lineWidth = p.size / scale;
  ctx.setLineDash([]);
  ctx.beginPath();
  if (p.mark === 'grid') {
    for (let x = x0; x <= x1; x += p.spacing) {
      ctx.moveTo(x, p.y);
      ctx.lineTo(x, y1);
    }
  }
  for (let y = y0; y <= y1; y += p.spacing) {
    ctx.moveTo(p.x, y);
    ctx.lineTo(x1, y);
  }
  ctx.stroke();
}
