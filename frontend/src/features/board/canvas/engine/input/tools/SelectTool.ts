/**
 * Select: a press on an object selects it (Shift toggles) and drags the selection; a press on the
 * empty board starts a rubber band. Resizing and rotating go through the transformer's handles
 * (render/LiveLayer.ts), committed by Commands.transform. A guest cannot select: the press pans.
 */
import { RUBBER_BAND_MIN, applyPatch, boundsOf, clampMove, isEditable, translatePatch, unionBounds, type Bounds, type CanvasObject, type Point } from '@wb/board-model';
import { withGroups } from '../../structureCommands.ts';
import type { EditorSession } from '../editing.ts';
import { MoveSnap, snapOff } from '../snapping.ts';
import type { Gesture, PointerInfo, ToolContext, ToolState } from '../tool.ts';
import { BrushGesture } from './brush.ts';
import { PanGesture } from './HandTool.ts';

/** Below this many screen pixels a press on an object is a click, not a drag. */
const DRAG_MIN_PX = 2;

/** Dragging the selection: a preview through the scene's overrides, one command on release. */
class TranslateGesture implements Gesture {
  private moved = false;
  private delta: Point = { x: 0, y: 0 };
  private readonly snap: MoveSnap;

  constructor(
    private readonly ctx: ToolContext,
    private readonly start: Point,
    private readonly originals: CanvasObject[],
    private readonly bounds: Bounds,
  ) {
    this.snap = new MoveSnap(ctx, originals);
  }

  move({ board, event }: PointerInfo): void {
    const { ctx } = this;
    const raw = { x: board.x - this.start.x, y: board.y - this.start.y };
    // A click stays a click: the snap must not turn a wobble into a move.
    if (!this.moved && Math.hypot(raw.x, raw.y) * ctx.viewport.camera.scale < DRAG_MIN_PX) return;
    const wanted = this.snap.pull(raw.x, raw.y, snapOff(event));
    const d = clampMove(this.bounds, wanted.x, wanted.y, ctx.limits);
    if (!this.moved && Math.hypot(d.x, d.y) * ctx.viewport.camera.scale < DRAG_MIN_PX) return;
    this.moved = true;
    this.delta = d;
    for (const obj of this.originals) ctx.scene.override(applyPatch(obj, translatePatch(obj, d.x, d.y)));
  }

  up(): void {
    this.snap.end();
    if (!this.moved) return;
    this.ctx.commands.move(this.originals, this.delta);
    this.ctx.scene.clearOverrides();
  }

  cancel(): void {
    this.snap.end();
    this.ctx.scene.clearOverrides();
  }
}

const containsBox = (outer: Bounds, inner: Bounds) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

export class SelectTool implements ToolState {
  constructor(
    private readonly ctx: ToolContext,
    private readonly editor: EditorSession,
  ) {}

  down({ board, shiftKey: additive }: PointerInfo): Gesture | null {
    const { ctx } = this;
    if (!ctx.canSelect) return new PanGesture(ctx, ctx.viewport.toScreen(board));
    const hit = ctx.hitAt(board);
    if (!hit) {
      if (!additive) ctx.setSelection([]);
      return new BrushGesture(ctx, board, (r) => this.selectInside(r, additive));
    }
    if (additive) {
      const next = new Set(ctx.selection);
      // Shift+click on a grouped object toggles its whole group.
      if (next.has(hit.id)) for (const id of withGroups(ctx.scene, [hit.id])) next.delete(id);
      else next.add(hit.id);
      ctx.setSelection(next);
    } else if (!ctx.selection.has(hit.id)) {
      ctx.setSelection([hit.id]);
    }
    if (ctx.readOnly) return null;
    // Locked objects stay where they are (issue 35 item 5).
    const originals = ctx.selectedObjects().filter((o) => !o.locked);
    const bounds = unionBounds(originals.map(boundsOf));
    return bounds ? new TranslateGesture(ctx, board, originals, bounds) : null;
  }

  doubleClick(board: Point): void {
    if (this.ctx.readOnly) return;
    const hit = this.ctx.hitAt(board);
    if (hit?.obj && isEditable(hit.obj) && !hit.obj.locked) this.editor.open({ object: hit.obj, isNew: false });
  }

  /** §4: a band counts only when it is more than 2 px (on screen) in some direction. */
  private selectInside(r: Bounds, additive: boolean): void {
    const { ctx } = this;
    if (Math.max(r.width, r.height) * ctx.viewport.camera.scale <= RUBBER_BAND_MIN) return;
    const inside = ctx.scene
      .search(r)
      .filter((e) => e.obj && containsBox(r, e.item.bounds))
      .map((e) => e.id);
    ctx.setSelection(additive ? [...ctx.selection, ...inside] : inside);
  }
}
