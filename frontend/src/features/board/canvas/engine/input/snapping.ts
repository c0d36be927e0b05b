/**
 * Snapping while moving (the select tool's drag) and resizing (the transformer), issue 35 item 5:
 * the rules are @wb/board-model's tools/snap.ts. Targets are the visible objects outside the
 * selection, found through the scene's spatial index and sorted once per gesture: per pointer move,
 * edges and centres cost a few binary searches, equal spacing one pass over the targets
 * (`npm run bench -- snap`); zoomed far out, past 10,000 objects in view, only those within 400
 * screen px of the selection count.
 * Holding Ctrl (Cmd on a Mac) turns snapping off for as long as it is held, as in tldraw and
 * Excalidraw; Alt is taken: konva's transformer resizes from the centre with it (decisions.md).
 */
import type Konva from 'konva';
import {
  SNAP_THRESHOLD_PX,
  acceptsBox,
  arrangeBoxOf,
  boxInFrame,
  frameForBox,
  snapEdges,
  snapIndex,
  snapMove,
  unionBounds,
  type Bounds,
  type CanvasObject,
  type Edges,
  type Point,
  type SnapIndex,
} from '@wb/board-model';
import { clearGuides, showGuides } from '../render/snapGuides.ts';
import type { LiveLayer } from '../render/LiveLayer.ts';
import type { SceneStore } from '../sceneStore.ts';
import type { Viewport } from '../viewport.ts';

interface SnapContext {
  readonly scene: SceneStore;
  readonly viewport: Viewport;
  readonly live: LiveLayer;
}

/** Ctrl (Cmd on a Mac) held: no snapping. */
export const snapOff = (e: { ctrlKey: boolean; metaKey: boolean }): boolean => e.ctrlKey || e.metaKey;

const arrangeBox = (scene: SceneStore, obj: CanvasObject): Bounds => arrangeBoxOf(obj, scene.entries.get(obj.id)?.item.bounds);

/** Past this many objects in view (zoomed far out) only those near the selection are targets. */
const MAX_TARGETS = 10_000;
/** How near, in screen px around the selection. */
const NEAR_PX = 400;

/** The visible objects other than `exclude`, as snap targets (nearby ones on a crowded view). */
function visibleTargets(ctx: SnapContext, exclude: ReadonlySet<string>, around: Bounds): SnapIndex {
  let found = ctx.scene.search(ctx.viewport.area(0));
  if (found.length > MAX_TARGETS) {
    const m = NEAR_PX / ctx.viewport.camera.scale;
    found = ctx.scene.search({ x: around.x - m, y: around.y - m, width: around.width + 2 * m, height: around.height + 2 * m });
  }
  const boxes: Bounds[] = [];
  for (const e of found) {
    if (e.obj && !exclude.has(e.id)) boxes.push(arrangeBoxOf(e.obj, e.item.bounds));
  }
  return snapIndex(boxes);
}

/** One drag of the selection: pulls the wanted movement onto the nearest lines. */
export class MoveSnap {
  private index: SnapIndex | null = null;
  private readonly box: Bounds | null;
  private readonly ids: Set<string>;

  constructor(
    private readonly ctx: SnapContext,
    originals: readonly CanvasObject[],
  ) {
    this.ids = new Set(originals.map((o) => o.id));
    this.box = unionBounds(originals.map((o) => arrangeBox(ctx.scene, o)));
  }

  /** The movement to apply for a wanted (dx, dy); guides are shown while it snaps. */
  pull(dx: number, dy: number, off: boolean): Point {
    if (off || !this.box) {
      clearGuides(this.ctx.live);
      return { x: dx, y: dy };
    }
    this.index ??= visibleTargets(this.ctx, this.ids, this.box);
    const moved = { ...this.box, x: this.box.x + dx, y: this.box.y + dy };
    const r = snapMove(moved, this.index, SNAP_THRESHOLD_PX / this.ctx.viewport.camera.scale);
    showGuides(this.ctx.live, r.guides);
    return { x: dx + r.dx, y: dy + r.dy };
  }

  end(): void {
    clearGuides(this.ctx.live);
  }
}

const edgesOf = (anchor: string | null): Edges => ({
  left: !!anchor?.includes('left'),
  right: !!anchor?.includes('right'),
  top: !!anchor?.startsWith('top'),
  bottom: !!anchor?.startsWith('bottom'),
});

/**
 * Wraps the transformer's box check so a resize snaps its moving edges. The transformer works in
 * absolute (screen) coordinates and around its own frame (which may hold reaction chips or a
 * stroke's ink); the arrange box inside that frame is what snaps.
 */
export function installResizeSnap(ctx: SnapContext & { selectedObjects(): CanvasObject[] }): void {
  const tr: Konva.Transformer = ctx.live.transformer;
  const inner = tr.boundBoxFunc();
  let off = false;
  let start: { frame0: Bounds; box0: Bounds; index: SnapIndex } | null = null;
  let active = false;
  tr.on('transformstart.snap', () => {
    active = true;
    start = null;
  });
  tr.on('transformend.snap', () => {
    active = false;
    start = null;
    clearGuides(ctx.live);
  });
  tr.anchorDragBoundFunc((_old, pos, e: MouseEvent | TouchEvent) => {
    off = snapOff(e);
    return pos;
  });
  const toBoard = (b: Bounds): Bounds => {
    const inv = ctx.live.layer.getAbsoluteTransform().copy().invert();
    const a = inv.point({ x: b.x, y: b.y });
    const c = inv.point({ x: b.x + b.width, y: b.y + b.height });
    return { x: a.x, y: a.y, width: c.x - a.x, height: c.y - a.y };
  };
  const toAbs = (b: Bounds): Bounds => {
    const t = ctx.live.layer.getAbsoluteTransform();
    const a = t.point({ x: b.x, y: b.y });
    const c = t.point({ x: b.x + b.width, y: b.y + b.height });
    return { x: a.x, y: a.y, width: c.x - a.x, height: c.y - a.y };
  };
  tr.boundBoxFunc((oldBox, newBox) => {
    const box = inner ? inner(oldBox, newBox) : newBox;
    if (!active || box === oldBox || Math.abs(box.rotation) > 1e-9 || box.width <= 0 || box.height <= 0) {
      clearGuides(ctx.live);
      return box;
    }
    if (!start) {
      const objs = ctx.selectedObjects();
      const box0 = unionBounds(objs.map((o) => arrangeBox(ctx.scene, o)));
      if (!box0 || box0.width <= 0 || box0.height <= 0) return box;
      start = { frame0: toBoard(oldBox), box0, index: visibleTargets(ctx, new Set(objs.map((o) => o.id)), box0) };
    }
    if (off) {
      clearGuides(ctx.live);
      return box;
    }
    const edges = edgesOf(tr.getActiveAnchor());
    const frame = toBoard(box);
    const { frame0, box0, index } = start;
    const snapped = snapEdges(boxInFrame(frame, frame0, box0), edges, index, SNAP_THRESHOLD_PX / ctx.viewport.camera.scale);
    if (snapped.guides.length === 0) {
      clearGuides(ctx.live);
      return box;
    }
    const out = { ...toAbs(frameForBox(frame, frame0, box0, snapped.box, edges)), rotation: box.rotation };
    if (!acceptsBox(out, tr.nodes().length > 1)) return box;
    showGuides(ctx.live, snapped.guides);
    return out;
  });
}
