/**
 * The canvas element's pointer, wheel and touch events, routed: camera gestures (Space/middle
 * button/hand pan, wheel and pinch zoom, two fingers) are handled here; an armed arrow gets the
 * next press; everything else goes to the current tool (tools/), whose Gesture then follows the
 * pointer until release. Holds no document state.
 */
import { pinchFactor, panBy, touchPinchFactor, wheelFactor, zoomAt, type Point, type Tool } from '@wb/board-model';
import type Konva from 'konva';
import { sameCamera } from '../viewport.ts';
import type { EditorSession } from './editing.ts';
import type { Gesture, PointerInfo, ToolContext, ToolState } from './tool.ts';
import type { ArrowTool } from './tools/ArrowTool.ts';
import { grab } from './tools/HandTool.ts';

export interface InputHooks {
  cursor(point: Point | null): void;
  contextMenu(event: { objectId: string | null; clientX: number; clientY: number }): void;
  /** A second finger arrived or a finger moved: the next frame applies the two-finger gesture. */
  invalidate(): void;
}

/** Two fingers down: the camera follows their midpoint and distance, once per frame (applyTouch). */
class TouchGesture implements Gesture {
  constructor(
    public centre: Point,
    public distance: number,
  ) {}
  move(): void {}
  up(): void {}
  cancel(): void {}
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

export class PointerInput {
  private gesture: Gesture | null = null;
  private spaceDown = false;
  private readonly touches = new Map<number, Point>();
  /** A finger moved since the two-finger gesture last moved the camera (see applyTouch). */
  private touchPending = false;

  constructor(
    private readonly ctx: ToolContext,
    private readonly stage: Konva.Stage,
    private readonly tools: Record<Tool, ToolState>,
    private readonly arrow: ArrowTool,
    private readonly editor: EditorSession,
    private readonly hooks: InputHooks,
  ) {
    const c = ctx.container;
    c.style.touchAction = 'none';
    c.addEventListener('pointerdown', this.onPointerDown);
    c.addEventListener('pointermove', this.onPointerMove);
    c.addEventListener('pointerup', this.onPointerUp);
    c.addEventListener('pointercancel', this.onPointerUp);
    c.addEventListener('pointerleave', this.onPointerLeave);
    c.addEventListener('wheel', this.onWheel, { passive: false });
    c.addEventListener('dblclick', this.onDoubleClick);
    c.addEventListener('contextmenu', this.onContextMenu);
  }

  destroy(): void {
    const c = this.ctx.container;
    c.removeEventListener('pointerdown', this.onPointerDown);
    c.removeEventListener('pointermove', this.onPointerMove);
    c.removeEventListener('pointerup', this.onPointerUp);
    c.removeEventListener('pointercancel', this.onPointerUp);
    c.removeEventListener('pointerleave', this.onPointerLeave);
    c.removeEventListener('wheel', this.onWheel);
    c.removeEventListener('dblclick', this.onDoubleClick);
    c.removeEventListener('contextmenu', this.onContextMenu);
  }

  get busy(): boolean {
    return this.gesture !== null;
  }

  get space(): boolean {
    return this.spaceDown;
  }

  setSpace(down: boolean): void {
    this.spaceDown = down;
    this.ctx.container.style.cursor = down ? 'grab' : this.ctx.restCursor();
  }

  /** Drops the gesture in progress without a trace. */
  abort(): void {
    const g = this.gesture;
    this.gesture = null;
    g?.cancel();
    this.ctx.live.setTemp(null);
    this.ctx.live.hideBand(false);
  }

  private screenPoint(e: MouseEvent): Point {
    const r = this.ctx.container.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private info(e: PointerEvent): PointerInfo {
    const screen = this.screenPoint(e);
    return { screen, board: this.ctx.viewport.toBoard(screen), shiftKey: e.shiftKey, event: e };
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    const p = this.info(e);
    if (e.pointerType === 'touch') {
      this.touches.set(e.pointerId, p.screen);
      if (this.touches.size === 2) {
        this.abort();
        const [a, b] = [...this.touches.values()];
        this.gesture = new TouchGesture(mid(a, b), dist(a, b));
        this.touchPending = false;
        return;
      }
      if (this.touches.size > 2) return;
    }
    if (e.button === 2 || this.editor.request) return;
    if (this.ctx.live.isOnTransformer(this.stage, p.screen)) return;
    try {
      this.ctx.container.setPointerCapture(e.pointerId);
    } catch {
      // A synthetic pointer may not be capturable; the gesture still works inside the canvas.
    }
    const tool = this.ctx.tool;
    if (this.spaceDown || e.button === 1) {
      this.gesture = grab(this.ctx, p.screen);
      return;
    }
    if (tool === 'hand') {
      this.gesture = this.tools.hand.down(p);
      return;
    }
    if (this.arrow.active) {
      this.arrow.finish(p.board);
      return;
    }
    this.gesture = this.tools[tool].down(p);
  };

  private readonly onPointerMove = (e: PointerEvent): void => {
    const p = this.info(e);
    this.hooks.cursor(p.board);
    if (e.pointerType === 'touch' && this.touches.has(e.pointerId)) {
      this.touches.set(e.pointerId, p.screen);
      if (this.gesture instanceof TouchGesture && this.touches.size >= 2) {
        // Each finger of one touch move arrives as its own pointermove: the camera follows once
        // per frame, from where all the fingers are (applyTouch), never from one finger moved alone.
        this.touchPending = true;
        this.hooks.invalidate();
        return;
      }
    }
    if (this.arrow.active) {
      this.arrow.preview(p.board);
      return;
    }
    this.gesture?.move(p);
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    if (e.pointerType === 'touch') {
      this.applyTouch();
      this.touches.delete(e.pointerId);
      if (this.gesture instanceof TouchGesture) {
        if (this.touches.size < 2) this.gesture = null;
        return;
      }
    }
    const g = this.gesture;
    this.gesture = null;
    g?.up(this.info(e));
  };

  /**
   * The two-finger gesture since the last frame: pan by the fingers' midpoint, zoom around it by the
   * pinch step of the change of their distance (one step per frame, §9 steps 1.02 / 1.05 / 1.08).
   * Fed one finger at a time (the pointermoves of one touch move), a two-finger pan zoomed in and
   * out again, by steps that need not cancel, around two different midpoints, and a pinch took one
   * step per finger. Called by the renderer before each frame.
   */
  applyTouch(): void {
    const g = this.gesture;
    if (!this.touchPending || !(g instanceof TouchGesture) || this.touches.size < 2) return;
    this.touchPending = false;
    const [a, b] = [...this.touches.values()];
    const centre = mid(a, b);
    const distance = dist(a, b);
    const camera = this.ctx.viewport.camera;
    let cam = panBy(camera, centre.x - g.centre.x, centre.y - g.centre.y);
    const factor = touchPinchFactor(g.distance, distance);
    if (factor !== 1) cam = zoomAt(cam, centre, factor);
    this.gesture = new TouchGesture(centre, distance);
    if (!sameCamera(cam, camera)) this.ctx.moveCamera(cam);
  }

  private readonly onPointerLeave = (): void => {
    this.hooks.cursor(null);
  };

  private readonly onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const pointer = this.screenPoint(e);
    // Trackpad pinches arrive as ctrl+wheel; a mouse wheel notch zooms by 1.1 (§9).
    const factor = e.ctrlKey ? pinchFactor(e.deltaY) : wheelFactor(e.deltaY);
    this.ctx.moveCamera(zoomAt(this.ctx.viewport.camera, pointer, factor));
  };

  private readonly onDoubleClick = (e: MouseEvent): void => {
    this.tools[this.ctx.tool].doubleClick?.(this.ctx.viewport.toBoard(this.screenPoint(e)));
  };

  private readonly onContextMenu = (e: MouseEvent): void => {
    e.preventDefault();
    const hit = this.ctx.hitAt(this.ctx.viewport.toBoard(this.screenPoint(e)));
    this.hooks.contextMenu({ objectId: hit?.obj ? hit.id : null, clientX: e.clientX, clientY: e.clientY });
  };
}
