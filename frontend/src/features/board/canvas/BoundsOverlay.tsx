/**
 * The edge of a bounded canvas (issue 35 item 6): outside is shaded and the edge drawn, so users
 * see where the board ends before a press there is refused. An SVG over the stage (no pointer
 * events), moved with the camera: read each animation frame and redrawn only when the camera, the
 * stage size or the limits changed, so it stays exact during gestures without touching the renderer.
 */
import { useEffect, useRef } from 'react';
import { canvasArea } from '@wb/board-model';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import styles from './canvas.module.css';

/** Screen coordinates beyond this margin are clamped: the shape looks the same and stays small. */
const CLAMP_PX = 64;

export function BoundsOverlay({ engine }: { engine: CanvasEngine }) {
  const shade = useRef<SVGPathElement>(null);
  const edge = useRef<SVGRectElement>(null);
  const root = useRef<SVGSVGElement>(null);
  useEffect(() => {
    let frame = 0;
    let last = '';
    const tick = () => {
      frame = requestAnimationFrame(tick);
      const area = canvasArea(engine.limits);
      const { camera, width, height } = engine.viewport;
      const key = area
        ? `${camera.x},${camera.y},${camera.scale},${width},${height},${area.width},${area.height}`
        : '';
      if (key === last) return;
      last = key;
      root.current!.style.display = area ? '' : 'none';
      if (!area) return;
      const clampX = (v: number) => Math.min(width + CLAMP_PX, Math.max(-CLAMP_PX, v));
      const clampY = (v: number) => Math.min(height + CLAMP_PX, Math.max(-CLAMP_PX, v));
      const tl = engine.toScreen({ x: area.x, y: area.y });
      const br = engine.toScreen({ x: area.x + area.width, y: area.y + area.height });
      const [x0, y0, x1, y1] = [clampX(tl.x), clampY(tl.y), clampX(br.x), clampY(br.y)];
      const o = CLAMP_PX * 2;
      shade.current!.setAttribute(
        'd',
        `M${-o} ${-o}H${width + o}V${height + o}H${-o}Z M${x0} ${y0}V${y1}H${x1}V${y0}Z`,
      );
      const e = edge.current!;
      e.setAttribute('x', String(x0));
      e.setAttribute('y', String(y0));
      e.setAttribute('width', String(Math.max(0, x1 - x0)));
      e.setAttribute('height', String(Math.max(0, y1 - y0)));
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [engine]);
  return (
    <svg
      ref={root}
      className={styles.bounds}
      aria-hidden="true"
      data-testid="canvas-bounds"
      style={{ display: 'none' }}
    >
      <path ref={shade} className={styles.boundsShade} fillRule="evenodd" />
      <rect ref={edge} className={styles.boundsEdge} data-testid="canvas-bounds-edge" />
    </svg>
  );
}
