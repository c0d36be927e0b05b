/** What is under a board point: the topmost object (exact shapes, tools/hit.ts), else an arrow's shaft. */
import { distanceToPolyline, topmostHit, type Point } from '@wb/board-model';
import type { Entry, SceneStore } from '../sceneStore.ts';

/** Hit tolerance in screen pixels. */
const HIT_PX = 4;

export function hitAt(scene: SceneStore, board: Point, scale: number): Entry | null {
  const tol = HIT_PX / scale;
  const candidates = scene.search({ x: board.x - tol, y: board.y - tol, width: 2 * tol, height: 2 * tol });
  const objects = candidates.flatMap((e) => (e.obj ? [e.obj] : []));
  const hit = topmostHit(objects, board, tol);
  if (hit) return scene.entries.get(hit.id) ?? null;
  for (const e of candidates) {
    const p = e.item.primitives[0];
    if (e.arrow && p?.kind === 'arrow' && distanceToPolyline(board, p.points) <= (p.strokeWidth ?? 2) / 2 + tol) return e;
  }
  return null;
}
