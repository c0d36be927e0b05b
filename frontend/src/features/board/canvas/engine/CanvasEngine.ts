/**
 * The canvas behind <BoardCanvas>: konva stage, camera, tools, selection and transforms, drawing
 * the board from the Y.Doc through the shared scene. React only wraps it (toolbar, editor,
 * dialogs); nothing here re-renders React per frame.
 *
 * Layers, bottom to top:
 *  - background: the pattern of the visible area, redrawn on every camera change (cheap);
 *  - static: every visible object not being interacted with, painted by one shape from the
 *    spatial index; while the camera moves its bitmap is only moved/scaled by CSS, and it is
 *    redrawn sharp when the camera rests (or every REFRESH_MS during a long gesture);
 *  - live: the selection (konva shapes with the transformer), the object being drawn, the
 *    rubber band. Small, so it follows the camera every frame.
 */
import Konva from 'konva';
import { LABELS } from '../texts.ts';
import * as Y from 'yjs';
import {
  DEFAULT_ARROW_COLOR,
  DEFAULT_ARROW_STROKE_WIDTH,
  DEFAULT_TEXT_COLOR,
  EXPORT_AREA_MIN,
  READ_ONLY_TOOLS,
  RUBBER_BAND_MIN,
  STICKY_DEFAULTS,
  acceptsBox,
  addArrow,
  addObject,
  anchorOf,
  appendStrokePoint,
  applyPatch,
  arrowRefusal,
  boundsOf,
  canStartArrow,
  canvasObjectSchema,
  cleanText,
  clampMove,
  clampPointToCanvas,
  clearBoard,
  colorPatch,
  connectedSticky,
  copySelection,
  deleteObjects,
  getArrows,
  getObjects,
  distanceToPolyline,
  isEditable,
  isInsideCanvas,
  isPointInsideCanvas,
  newId,
  newImage,
  newSticky,
  newText,
  nextZIndex,
  nodeRotationOf,
  normalizeRect,
  panBy,
  pinchFactor,
  planPaste,
  readClipboardText,
  screenToBoard,
  boardToScreen,
  shapeFromDrag,
  strokeObject,
  topmostHit,
  touchPinchFactor,
  transformPatch,
  translatePatch,
  unionBounds,
  updateObject,
  visibleArea,
  wheelFactor,
  zoomAt,
  type ArrowInput,
  type Background,
  type BoardRole,
  type Bounds,
  type Camera,
  type CanvasObject,
  type Point,
  type Side,
  type StickyObject,
  type TextObject,
  type Tool,
  type ToolStyle,
} from '@wb/board-model';
import { paintBackground } from './background.ts';
import { createHistory } from './history.ts';
import { onImageSettled } from './images.ts';
import { paintPrimitives } from './paint.ts';
import { objectToSceneItem, type ScenePrimitive } from './scene.ts';
import { SceneStore, comparePaintOrder, type Entry } from './sceneStore.ts';

export type ArrowStyle = 'solid' | 'dashed' | 'dotted';
type Limits = { max_width: number; max_height: number; unlimited: boolean };

export interface EditRequest {
  object: StickyObject | TextObject;
  isNew: boolean;
  /** A connected sticker: the arrow from this sticky to the new one is added with it. */
  linkFrom?: string;
}

export interface EngineEvents {
  camera?(camera: Camera): void;
  selection?(ids: string[]): void;
  tool?(tool: Tool): void;
  /** The selection moved on screen (camera, drag, transform): overlays re-read selectionBox(). */
  overlay?(): void;
  edit?(request: EditRequest): void;
  pickImage?(at: Point): void;
  cursor?(point: Point | null): void;
  exportArea?(area: Bounds): void;
  count?(count: number): void;
  history?(state: { canUndo: boolean; canRedo: boolean }): void;
  contextMenu?(event: { objectId: string | null; clientX: number; clientY: number }): void;
  message?(text: string, kind: 'info' | 'error'): void;
  arrowMode?(active: boolean): void;
}

type Gesture =
  | { kind: 'pan'; last: Point }
  | { kind: 'move'; start: Point; originals: CanvasObject[]; bounds: Bounds; moved: boolean; delta: Point }
  | { kind: 'band'; start: Point; end: Point; forExport: boolean; additive: boolean }
  | { kind: 'shape'; tool: 'rectangle' | 'ellipse' | 'line'; start: Point; end: Point; zIndex: number }
  | { kind: 'stroke'; tool: 'pen' | 'highlighter'; points: number[]; zIndex: number }
  | { kind: 'touch'; centre: Point; distance: number };

/** Camera at rest after this long without a change: the static layer is redrawn sharp. */
const REST_MS = 120;
/**
 * During a long gesture the static bitmap is refreshed this often, so uncovered edges fill in.
 * Rare on purpose: a refresh of thousands of items is the one long frame of a pan.
 */
const REFRESH_MS = 1500;
/** The static layer draws this much beyond the viewport, so short pans uncover drawn content. */
const CULL_MARGIN = 0.25;
/** Past this many changed items in one frame a full redraw is cheaper than regions. */
const PARTIAL_REDRAW_MAX = 200;
/** Hit tolerance in screen pixels. */
const HIT_PX = 4;
/** Sticky shadows cost a blur each; past this many visible items they are left out. */
const SHADOW_LIMIT = 400;

export interface EngineStats {
  /** performance.now() when the whole visible board was first drawn. */
  firstDrawAt: number | null;
  staticDraws: number;
  lastStaticDrawMs: number;
  drawnItems: number;
  frames: number;
  /** [objects on the board, performance.now(), scale] at each static draw whose object count changed. */
  draws: Array<[number, number, number]>;
}

export class CanvasEngine {
  readonly store: SceneStore;
  readonly history: Y.UndoManager;
  readonly stats: EngineStats = { firstDrawAt: null, staticDraws: 0, lastStaticDrawMs: 0, drawnItems: 0, frames: 0, draws: [] };
  camera: Camera = { x: 0, y: 0, scale: 1 };
  tool: Tool = 'select';
  style: ToolStyle = { color: '#000000', fill: 'transparent', brush: 2, fontSize: 16, stickyColor: STICKY_DEFAULTS.backgroundColor };
  arrowStyle: ArrowStyle = 'solid';
  selection = new Set<string>();

  private readonly stage: Konva.Stage;
  private readonly bgLayer = new Konva.Layer({ listening: false });
  private readonly staticLayer = new Konva.Layer({ listening: false });
  private readonly liveLayer = new Konva.Layer();
  private readonly bgShape: Konva.Shape;
  private readonly staticShape: Konva.Shape;
  private readonly tempShape: Konva.Shape;
  private readonly band = new Konva.Rect({ visible: false, listening: false, stroke: '#2196F3', fill: 'rgba(33,150,243,0.08)' });
  private readonly transformer: Konva.Transformer;
  private readonly liveShapes = new Map<string, { version: number; shape: Konva.Shape }>();
  private temps: CanvasObject[] = [];
  private tempExtra: ScenePrimitive[] = [];
  private width = 1;
  private height = 1;
  private role: BoardRole = 'owner';
  private limits: Limits = { max_width: 0, max_height: 0, unlimited: true };
  private background: Background = 'white';
  private gesture: Gesture | null = null;
  private arrowFrom: string | null = null;
  private spaceDown = false;
  private readonly touches = new Map<number, Point>();
  /** A finger moved since the two-finger gesture last moved the camera (see applyTouch). */
  private touchPending = false;
  private frame = 0;
  private loaded = false;
  private staticCamera: Camera | null = null;
  private staticDrawnAt = 0;
  private restTimer: ReturnType<typeof setTimeout> | null = null;
  private staticDirty = true;
  private liveDirty = true;
  private cameraDirty = true;
  private visible: Entry[] = [];
  private pasteCounts = new Map<string, number>();
  private editing: EditRequest | null = null;
  private readonly unsubscribeImages: () => void;
  private destroyed = false;

  constructor(
    private readonly container: HTMLDivElement,
    readonly doc: Y.Doc,
    readonly origin: unknown,
    private readonly events: EngineEvents,
  ) {
    this.width = Math.max(1, container.clientWidth);
    this.height = Math.max(1, container.clientHeight);
    this.camera = { x: this.width / 2, y: this.height / 2, scale: 1 };
    this.stage = new Konva.Stage({ container, width: this.width, height: this.height });
    this.bgShape = new Konva.Shape({
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => paintBackground(native(ctx), this.background, this.viewArea(0), this.camera.scale),
    });
    this.bgLayer.add(this.bgShape);
    this.staticShape = new Konva.Shape({
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => this.paintStatic(native(ctx)),
    });
    this.staticLayer.add(this.staticShape);
    this.tempShape = new Konva.Shape({
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => this.paintTemp(native(ctx)),
    });
    this.transformer = new Konva.Transformer({
      rotateEnabled: false,
      flipEnabled: false,
      keepRatio: false,
      ignoreStroke: true,
      anchorSize: 9,
      borderStroke: '#2196F3',
      anchorStroke: '#2196F3',
      boundBoxFunc: (oldBox, newBox) => {
        const group = this.transformer.nodes().length > 1;
        if (!acceptsBox(newBox, group)) return oldBox;
        return newBox;
      },
    });
    this.transformer.on('transformend', () => this.finishTransform());
    this.transformer.on('transform', () => this.events.overlay?.());
    this.liveLayer.add(this.tempShape, this.band, this.transformer);
    this.stage.add(this.bgLayer, this.staticLayer, this.liveLayer);
    const staticCanvas = this.staticLayer.getNativeCanvasElement();
    staticCanvas.style.transformOrigin = '0 0';
    staticCanvas.style.willChange = 'transform';

    this.store = new SceneStore(doc, () => this.invalidate());
    this.history = createHistory(doc, origin, () =>
      this.events.history?.({ canUndo: this.history.canUndo(), canRedo: this.history.canRedo() }),
    );
    this.unsubscribeImages = onImageSettled(() => {
      this.staticDirty = true;
      this.liveShapes.clear();
      this.liveDirty = true;
      this.invalidate();
    });

    container.style.touchAction = 'none';
    container.addEventListener('pointerdown', this.onPointerDown);
    container.addEventListener('pointermove', this.onPointerMove);
    container.addEventListener('pointerup', this.onPointerUp);
    container.addEventListener('pointercancel', this.onPointerUp);
    container.addEventListener('pointerleave', this.onPointerLeave);
    container.addEventListener('wheel', this.onWheel, { passive: false });
    container.addEventListener('dblclick', this.onDoubleClick);
    container.addEventListener('contextmenu', this.onContextMenu);
    this.invalidate();
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    if (this.restTimer) clearTimeout(this.restTimer);
    this.unsubscribeImages();
    this.store.destroy();
    this.history.destroy();
    const c = this.container;
    c.removeEventListener('pointerdown', this.onPointerDown);
    c.removeEventListener('pointermove', this.onPointerMove);
    c.removeEventListener('pointerup', this.onPointerUp);
    c.removeEventListener('pointercancel', this.onPointerUp);
    c.removeEventListener('pointerleave', this.onPointerLeave);
    c.removeEventListener('wheel', this.onWheel);
    c.removeEventListener('dblclick', this.onDoubleClick);
    c.removeEventListener('contextmenu', this.onContextMenu);
    this.stage.destroy();
  }

  // ---------------------------------------------------------------- settings from the page

  get readOnly(): boolean {
    return this.role === 'viewer' || this.role === 'guest';
  }

  get canSelect(): boolean {
    return this.role !== 'guest';
  }

  setRole(role: BoardRole): void {
    this.role = role;
    if (!this.canSelect) this.setSelection([]);
    if (this.readOnly && !READ_ONLY_TOOLS.includes(this.tool)) this.setTool(this.canSelect ? 'select' : 'hand');
    if (!this.canSelect && this.tool === 'select') this.setTool('hand');
    this.liveDirty = true;
    this.invalidate();
  }

  setLimits(limits: Limits): void {
    this.limits = limits;
  }

  setBackground(background: Background): void {
    this.background = background;
    this.cameraDirty = true;
    this.invalidate();
  }

  setSize(width: number, height: number): void {
    if (width < 1 || height < 1 || (width === this.width && height === this.height)) return;
    this.width = width;
    this.height = height;
    this.stage.size({ width, height });
    this.staticDirty = true;
    this.cameraDirty = true;
    this.invalidate();
  }

  /**
   * `notify` marks a gesture (pan, zoom): the static bitmap follows by CSS until the camera rests.
   * Without it (the page restoring a saved view) the scene is redrawn sharp at once.
   */
  setCamera(camera: Camera, notify = false): void {
    this.camera = { ...camera };
    this.cameraDirty = true;
    if (!notify) this.staticDirty = true;
    this.invalidate();
    if (notify) this.events.camera?.(this.camera);
  }

  setTool(tool: Tool): void {
    if (this.readOnly && !READ_ONLY_TOOLS.includes(tool)) return;
    if (tool === 'select' && !this.canSelect) return;
    this.cancelArrow();
    this.tool = tool;
    this.container.style.cursor = toolCursor(tool);
    this.liveDirty = true;
    this.invalidate();
    this.events.tool?.(tool);
  }

  setStyle(patch: Partial<ToolStyle>): void {
    this.style = { ...this.style, ...patch };
  }

  setSpace(down: boolean): void {
    this.spaceDown = down;
    this.container.style.cursor = down ? 'grab' : toolCursor(this.tool);
  }

  // ---------------------------------------------------------------- coordinates

  toBoard(screen: Point): Point {
    return screenToBoard(this.camera, screen);
  }

  toScreen(board: Point): Point {
    return boardToScreen(this.camera, board);
  }

  viewportCentre(): Point {
    return this.toBoard({ x: this.width / 2, y: this.height / 2 });
  }

  private viewArea(margin: number): Bounds {
    const area = visibleArea(this.camera, this.width, this.height);
    return {
      x: area.x - area.width * margin,
      y: area.y - area.height * margin,
      width: area.width * (1 + 2 * margin),
      height: area.height * (1 + 2 * margin),
    };
  }

  /** The selection's bounds on screen (for the connected-sticker buttons and the editor), or null. */
  selectionBox(): Bounds | null {
    const bounds = unionBounds(
      [...this.selection].flatMap((id) => {
        const e = this.store.entries.get(id);
        return e?.obj ? [boundsOf(e.obj)] : [];
      }),
    );
    if (!bounds) return null;
    const tl = this.toScreen(bounds);
    return { x: tl.x, y: tl.y, width: bounds.width * this.camera.scale, height: bounds.height * this.camera.scale };
  }

  selectedObjects(): CanvasObject[] {
    return [...this.selection].flatMap((id) => {
      const o = this.store.object(id);
      return o ? [o] : [];
    });
  }

  // ---------------------------------------------------------------- rendering

  invalidate(): void {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      // Before the frame is released, so the camera it sets is drawn by this frame, not the next.
      this.applyTouch();
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    this.stats.frames++;
    let changed: Set<string> | null = null;
    if (!this.loaded) {
      changed = this.store.initialLoad();
      this.loaded = true;
      this.staticDirty = true;
    } else if (this.store.hasChanges) {
      changed = this.store.flush();
    }
    if (changed && changed.size > 0) {
      let pruned = false;
      for (const id of this.selection) {
        if (!this.store.entries.has(id)) {
          this.selection.delete(id);
          pruned = true;
        }
      }
      if (pruned) this.events.selection?.([...this.selection]);
      // A change only to what the live layer draws (a drag preview) leaves the static bitmap alone;
      // a few changed objects (a remote edit) repaint only their region of it.
      const live = this.liveIds();
      if ([...changed].some((id) => !live.has(id))) {
        const sharp = this.staticCamera !== null && sameCamera(this.staticCamera, this.camera);
        if (!this.staticDirty && sharp && changed.size <= PARTIAL_REDRAW_MAX) this.repaintRegions(this.store.changedBounds);
        else this.staticDirty = true;
      }
      this.liveDirty = true;
      this.events.count?.(this.store.objectCount);
      this.events.overlay?.();
    }
    if (this.liveDirty) this.syncLive();
    const cam = this.camera;
    const layerAttrs = { x: cam.x, y: cam.y, scaleX: cam.scale, scaleY: cam.scale };
    if (this.cameraDirty) {
      this.liveLayer.setAttrs(layerAttrs);
      this.bgLayer.setAttrs(layerAttrs);
      this.bgLayer.batchDraw();
      this.band.strokeWidth(1 / cam.scale);
      this.events.overlay?.();
    }
    const now = performance.now();
    const cameraMoved = this.staticCamera !== null && !sameCamera(this.staticCamera, cam);
    if (this.staticDirty || (cameraMoved && now - this.staticDrawnAt > REFRESH_MS)) {
      this.staticLayer.setAttrs(layerAttrs);
      this.drawStatic();
    } else if (cameraMoved && this.staticCamera) {
      // Between sharp draws the last bitmap follows the camera: one composited move per frame.
      const s0 = this.staticCamera;
      const k = cam.scale / s0.scale;
      this.staticLayer.getNativeCanvasElement().style.transform =
        `matrix(${k},0,0,${k},${cam.x - s0.x * k},${cam.y - s0.y * k})`;
      this.scheduleRest();
    }
    this.liveLayer.batchDraw();
    this.cameraDirty = false;
  }

  private scheduleRest(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => {
      this.restTimer = null;
      this.staticDirty = true;
      this.invalidate();
    }, REST_MS);
  }

  private drawStatic(): void {
    const t0 = performance.now();
    const live = this.liveIds();
    const found = this.store.search(this.viewArea(CULL_MARGIN));
    this.visible = found.filter((e) => !live.has(e.id)).sort(comparePaintOrder);
    this.staticCamera = { ...this.camera };
    this.staticLayer.getNativeCanvasElement().style.transform = '';
    this.staticLayer.draw();
    this.staticDirty = false;
    const t1 = performance.now();
    this.staticDrawnAt = t1;
    this.stats.staticDraws++;
    this.stats.lastStaticDrawMs = t1 - t0;
    this.stats.drawnItems = this.visible.length;
    if (this.stats.firstDrawAt === null) this.stats.firstDrawAt = t1;
    const last = this.stats.draws.at(-1);
    if (!last || last[0] !== this.store.objectCount || last[2] !== this.camera.scale) {
      this.stats.draws.push([this.store.objectCount, t1, this.camera.scale]);
      if (this.stats.draws.length > 100) this.stats.draws.shift();
    }
  }

  /**
   * Repaints only the given board regions of the static bitmap, straight onto its canvas: a remote
   * change to one sticky costs the items around it, not the whole screen.
   */
  private repaintRegions(regions: Bounds[]): void {
    const area = unionBounds(regions);
    if (!area) return;
    const pad = 12 + 2 / this.camera.scale;
    const r = { x: area.x - pad, y: area.y - pad, width: area.width + 2 * pad, height: area.height + 2 * pad };
    const canvas = this.staticLayer.getCanvas();
    const ctx = native(canvas.getContext());
    const ratio = canvas.getPixelRatio();
    const cam = this.camera;
    const live = this.liveIds();
    const items = this.store
      .search(r)
      .filter((e) => !live.has(e.id))
      .sort(comparePaintOrder);
    ctx.save();
    ctx.setTransform(ratio * cam.scale, 0, 0, ratio * cam.scale, ratio * cam.x, ratio * cam.y);
    ctx.beginPath();
    ctx.rect(r.x, r.y, r.width, r.height);
    ctx.clip();
    ctx.clearRect(r.x, r.y, r.width, r.height);
    const opts = { scale: cam.scale, shadows: this.visible.length <= SHADOW_LIMIT };
    for (const e of items) paintPrimitives(ctx, e.item.primitives, opts);
    ctx.restore();
    this.stats.staticDraws++;
    // The full list is rebuilt at the next full draw; until then it only decides shadows.
  }

  private paintStatic(ctx: CanvasRenderingContext2D): void {
    const opts = { scale: this.camera.scale, shadows: this.visible.length <= SHADOW_LIMIT };
    for (const e of this.visible) paintPrimitives(ctx, e.item.primitives, opts);
  }

  private paintTemp(ctx: CanvasRenderingContext2D): void {
    const opts = { scale: this.camera.scale, shadows: true };
    for (const obj of this.temps) {
      const item = objectToSceneItem(obj);
      if (item) paintPrimitives(ctx, item.primitives, opts);
    }
    paintPrimitives(ctx, this.tempExtra, opts);
  }

  /** Selected objects and arrows, plus arrows attached to selected objects (they move with them). */
  private liveIds(): Set<string> {
    const ids = new Set(this.selection);
    for (const a of this.store.arrowsOf(this.selection)) ids.add(a);
    return ids;
  }

  private syncLive(): void {
    this.liveDirty = false;
    const ids = this.liveIds();
    for (const [id, live] of this.liveShapes) {
      const e = this.store.entries.get(id);
      if (!ids.has(id) || !e || e.version !== live.version) {
        live.shape.destroy();
        this.liveShapes.delete(id);
      }
    }
    const entries = [...ids].flatMap((id) => {
      const e = this.store.entries.get(id);
      return e ? [e] : [];
    });
    entries.sort(comparePaintOrder);
    for (const e of entries) {
      if (!this.liveShapes.has(e.id)) this.liveShapes.set(e.id, { version: e.version, shape: this.liveShape(e) });
    }
    entries.forEach((e, i) => this.liveShapes.get(e.id)?.shape.zIndex(i));
    const selectedShapes = entries
      .filter((e) => e.obj && this.selection.has(e.id))
      .map((e) => this.liveShapes.get(e.id)!.shape);
    const single = selectedShapes.length === 1 ? this.store.object([...this.selection][0]) : null;
    const editable = !this.readOnly && this.tool === 'select';
    // Read-only roles see the frame without handles (§6).
    this.transformer.resizeEnabled(editable);
    this.transformer.rotateEnabled(editable && single?.type === 'rectangle');
    this.transformer.enabledAnchors(editable ? ALL_ANCHORS : []);
    this.transformer.nodes(selectedShapes);
    this.transformer.moveToTop();
    this.tempShape.moveToTop();
    this.band.moveToTop();
  }

  private liveShape(e: Entry): Konva.Shape {
    const anchor = e.obj ? anchorOf(e.obj) : { x: 0, y: 0 };
    const rotation = e.obj ? nodeRotationOf(e.obj) : 0;
    const primitives = e.item.primitives;
    const rad = (-rotation * Math.PI) / 180;
    const self = e.obj?.type === 'rectangle'
      ? { x: 0, y: 0, width: e.obj.width, height: e.obj.height }
      : { x: e.item.bounds.x - anchor.x, y: e.item.bounds.y - anchor.y, width: e.item.bounds.width, height: e.item.bounds.height };
    const shape = new Konva.Shape({
      x: anchor.x,
      y: anchor.y,
      rotation,
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => {
        const c = native(ctx);
        c.save();
        c.rotate(rad);
        c.translate(-anchor.x, -anchor.y);
        paintPrimitives(c, primitives, { scale: this.camera.scale, shadows: true });
        c.restore();
      },
    });
    shape.getSelfRect = () => self;
    shape.setAttr('objectId', e.id);
    this.liveLayer.add(shape);
    return shape;
  }

  // ---------------------------------------------------------------- selection

  setSelection(ids: Iterable<string>): void {
    if (!this.canSelect) ids = [];
    const next = new Set(ids);
    if (next.size === this.selection.size && [...next].every((id) => this.selection.has(id))) return;
    this.selection = next;
    this.liveDirty = true;
    this.staticDirty = true;
    this.invalidate();
    this.events.selection?.([...next]);
    this.events.overlay?.();
  }

  private hitAt(board: Point): Entry | null {
    const tol = HIT_PX / this.camera.scale;
    const candidates = this.store.search({ x: board.x - tol, y: board.y - tol, width: 2 * tol, height: 2 * tol });
    const objects = candidates.flatMap((e) => (e.obj ? [e.obj] : []));
    const hit = topmostHit(objects, board, tol);
    if (hit) return this.store.entries.get(hit.id) ?? null;
    for (const e of candidates) {
      const p = e.item.primitives[0];
      if (e.arrow && p?.kind === 'arrow' && distanceToPolyline(board, p.points) <= (p.strokeWidth ?? 2) / 2 + tol) return e;
    }
    return null;
  }

  // ---------------------------------------------------------------- pointer input

  private screenPoint(e: PointerEvent | MouseEvent | WheelEvent): Point {
    const r = this.container.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private onTransformerAnchor(screen: Point): boolean {
    const shape = this.stage.getIntersection(screen);
    return !!shape && shape.getParent() === this.transformer;
  }

  private readonly onPointerDown = (e: PointerEvent): void => {
    const screen = this.screenPoint(e);
    if (e.pointerType === 'touch') {
      this.touches.set(e.pointerId, screen);
      if (this.touches.size === 2) {
        this.abortGesture();
        const [a, b] = [...this.touches.values()];
        this.gesture = { kind: 'touch', centre: mid(a, b), distance: dist(a, b) };
        this.touchPending = false;
        return;
      }
      if (this.touches.size > 2) return;
    }
    if (e.button === 2) return;
    if (this.editing) return;
    if (this.onTransformerAnchor(screen)) return;
    try {
      this.container.setPointerCapture(e.pointerId);
    } catch {
      // A synthetic pointer may not be capturable; the gesture still works inside the canvas.
    }
    const board = this.toBoard(screen);
    if (this.spaceDown || this.tool === 'hand' || e.button === 1) {
      this.gesture = { kind: 'pan', last: screen };
      this.container.style.cursor = 'grabbing';
      return;
    }
    if (this.arrowFrom) {
      this.finishArrow(board);
      return;
    }
    const inside = isPointInsideCanvas(board, this.limits);
    switch (this.tool) {
      case 'select':
        this.pressSelect(board, e.shiftKey);
        return;
      case 'export-select':
        this.gesture = { kind: 'band', start: board, end: board, forExport: true, additive: false };
        return;
      case 'pen':
      case 'highlighter':
        if (!inside) return;
        this.gesture = { kind: 'stroke', tool: this.tool, points: [board.x, board.y], zIndex: nextZIndex(this.doc) };
        this.updateTempStroke();
        return;
      case 'rectangle':
      case 'ellipse':
      case 'line':
        if (!inside) return;
        this.gesture = { kind: 'shape', tool: this.tool, start: board, end: board, zIndex: nextZIndex(this.doc) };
        return;
      case 'sticky':
      case 'text':
        if (!inside) return;
        // No compatibility mousedown: its default action would move focus out of the editor it opens.
        e.preventDefault();
        this.startNewText(this.tool, board);
        return;
      case 'image':
        if (!inside) return;
        this.events.pickImage?.(board);
        return;
      default:
        return;
    }
  };

  private pressSelect(board: Point, additive: boolean): void {
    if (!this.canSelect) {
      this.gesture = { kind: 'pan', last: this.toScreen(board) };
      return;
    }
    const hit = this.hitAt(board);
    if (!hit) {
      if (!additive) this.setSelection([]);
      this.gesture = { kind: 'band', start: board, end: board, forExport: false, additive };
      return;
    }
    if (additive) {
      const next = new Set(this.selection);
      if (next.has(hit.id)) next.delete(hit.id);
      else next.add(hit.id);
      this.setSelection(next);
    } else if (!this.selection.has(hit.id)) {
      this.setSelection([hit.id]);
    }
    if (this.readOnly) return;
    const originals = this.selectedObjects();
    const bounds = unionBounds(originals.map(boundsOf));
    if (bounds) this.gesture = { kind: 'move', start: board, originals, bounds, moved: false, delta: { x: 0, y: 0 } };
  }

  private readonly onPointerMove = (e: PointerEvent): void => {
    const screen = this.screenPoint(e);
    const board = this.toBoard(screen);
    this.events.cursor?.(board);
    if (e.pointerType === 'touch' && this.touches.has(e.pointerId)) {
      this.touches.set(e.pointerId, screen);
      if (this.gesture?.kind === 'touch' && this.touches.size >= 2) {
        // Each finger of one touch move arrives as its own pointermove: the camera follows once
        // per frame, from where all the fingers are (applyTouch), never from one finger moved alone.
        this.touchPending = true;
        this.invalidate();
        return;
      }
    }
    const g = this.gesture;
    if (this.arrowFrom) {
      this.updateArrowPreview(board);
      return;
    }
    if (!g) return;
    switch (g.kind) {
      case 'pan':
        this.setCamera(panBy(this.camera, screen.x - g.last.x, screen.y - g.last.y), true);
        g.last = screen;
        return;
      case 'move': {
        const d = clampMove(g.bounds, board.x - g.start.x, board.y - g.start.y, this.limits);
        if (!g.moved && Math.hypot(d.x, d.y) * this.camera.scale < 2) return;
        g.moved = true;
        g.delta = d;
        for (const obj of g.originals) this.store.override(applyPatch(obj, translatePatch(obj, d.x, d.y)));
        return;
      }
      case 'band':
        g.end = board;
        this.showBand(g.start, g.end);
        return;
      case 'shape':
        g.end = clampPointToCanvas(board, this.limits);
        this.setTemp(shapeFromDrag(g.tool, g.start, g.end, this.style, { id: 'temp', zIndex: g.zIndex }));
        return;
      case 'stroke': {
        const p = clampPointToCanvas(board, this.limits);
        if (appendStrokePoint(g.points, p, 1 / this.camera.scale)) this.updateTempStroke();
        return;
      }
      default:
        return;
    }
  };

  private readonly onPointerUp = (e: PointerEvent): void => {
    if (e.pointerType === 'touch') {
      this.applyTouch();
      this.touches.delete(e.pointerId);
      if (this.gesture?.kind === 'touch') {
        if (this.touches.size < 2) this.gesture = null;
        return;
      }
    }
    const g = this.gesture;
    this.gesture = null;
    if (!g) return;
    switch (g.kind) {
      case 'pan':
        this.container.style.cursor = this.spaceDown ? 'grab' : toolCursor(this.tool);
        return;
      case 'move':
        if (g.moved) this.commitMove(g);
        return;
      case 'band':
        this.finishBand(g);
        return;
      case 'shape': {
        const obj = shapeFromDrag(g.tool, g.start, g.end, this.style, { id: newId(), zIndex: g.zIndex });
        this.setTemp(null);
        if (obj && isInsideCanvas(boundsOf(obj), this.limits)) this.add([obj]);
        return;
      }
      case 'stroke': {
        const obj = strokeObject(g.tool, g.points, this.style, { id: newId(), zIndex: g.zIndex });
        this.setTemp(null);
        if (obj) this.add([obj]);
        return;
      }
      default:
        return;
    }
  };

  /**
   * The two-finger gesture since the last frame: pan by the fingers' midpoint, zoom around it by the
   * pinch step of the change of their distance (one step per frame, §9 steps 1.02 / 1.05 / 1.08).
   * Fed one finger at a time (the pointermoves of one touch move), a two-finger pan zoomed in and
   * out again, by steps that need not cancel, around two different midpoints, and a pinch took one
   * step per finger.
   */
  private applyTouch(): void {
    const g = this.gesture;
    if (!this.touchPending || g?.kind !== 'touch' || this.touches.size < 2) return;
    this.touchPending = false;
    const [a, b] = [...this.touches.values()];
    const centre = mid(a, b);
    const distance = dist(a, b);
    let cam = panBy(this.camera, centre.x - g.centre.x, centre.y - g.centre.y);
    const factor = touchPinchFactor(g.distance, distance);
    if (factor !== 1) cam = zoomAt(cam, centre, factor);
    this.gesture = { kind: 'touch', centre, distance };
    if (!sameCamera(cam, this.camera)) this.setCamera(cam, true);
  }

  private readonly onPointerLeave = (): void => {
    this.events.cursor?.(null);
  };

  private readonly onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const pointer = this.screenPoint(e);
    // Trackpad pinches arrive as ctrl+wheel; a mouse wheel notch zooms by 1.1 (§9).
    const factor = e.ctrlKey ? pinchFactor(e.deltaY) : wheelFactor(e.deltaY);
    this.setCamera(zoomAt(this.camera, pointer, factor), true);
  };

  private readonly onDoubleClick = (e: MouseEvent): void => {
    if (this.readOnly || this.tool !== 'select') return;
    const hit = this.hitAt(this.toBoard(this.screenPoint(e)));
    if (hit?.obj && isEditable(hit.obj)) this.openEditor({ object: hit.obj, isNew: false });
  };

  private readonly onContextMenu = (e: MouseEvent): void => {
    e.preventDefault();
    const hit = this.hitAt(this.toBoard(this.screenPoint(e)));
    this.events.contextMenu?.({ objectId: hit?.obj ? hit.id : null, clientX: e.clientX, clientY: e.clientY });
  };

  private abortGesture(): void {
    const g = this.gesture;
    this.gesture = null;
    if (g?.kind === 'move') this.store.clearOverrides();
    this.setTemp(null);
    this.band.visible(false);
  }

  /** Escape: drops the gesture in progress, a pending arrow, then the selection. */
  escape(): void {
    if (this.gesture) {
      this.abortGesture();
      this.invalidate();
      return;
    }
    if (this.arrowFrom) {
      this.cancelArrow();
      return;
    }
    this.setSelection([]);
  }

  // ---------------------------------------------------------------- gestures' results

  private showBand(a: Point, b: Point): void {
    const r = normalizeRect({ x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y });
    this.band.setAttrs({ ...r, visible: true });
    this.liveLayer.batchDraw();
  }

  private finishBand(g: Extract<Gesture, { kind: 'band' }>): void {
    this.band.visible(false);
    this.liveLayer.batchDraw();
    const r = normalizeRect({ x: g.start.x, y: g.start.y, width: g.end.x - g.start.x, height: g.end.y - g.start.y });
    if (g.forExport) {
      if (r.width > EXPORT_AREA_MIN && r.height > EXPORT_AREA_MIN) {
        this.events.exportArea?.(r);
        this.setTool('select');
      }
      return;
    }
    // §4: a band counts only when it is more than 2 px (on screen) in some direction.
    if (Math.max(r.width, r.height) * this.camera.scale <= RUBBER_BAND_MIN) return;
    const inside = this.store
      .search(r)
      .filter((e) => e.obj && containsBox(r, e.item.bounds))
      .map((e) => e.id);
    this.setSelection(g.additive ? [...this.selection, ...inside] : inside);
  }

  private commitMove(g: Extract<Gesture, { kind: 'move' }>): void {
    this.doc.transact(() => {
      for (const obj of g.originals) updateObject(this.doc, obj.id, translatePatch(obj, g.delta.x, g.delta.y), this.origin);
    }, this.origin);
    this.store.clearOverrides();
  }

  private finishTransform(): void {
    const nodes = this.transformer.nodes();
    const inGroup = nodes.length > 1;
    this.doc.transact(() => {
      for (const node of nodes) {
        const id = node.getAttr('objectId') as string;
        const obj = this.store.object(id);
        if (!obj) continue;
        const patch = transformPatch(
          obj,
          { x: node.x(), y: node.y(), scaleX: node.scaleX(), scaleY: node.scaleY(), rotation: node.rotation() },
          inGroup,
        );
        const next = applyPatch(obj, patch);
        // A bounded canvas refuses a result that reaches outside it (the node snaps back on redraw).
        if (!isInsideCanvas(boundsOf(next), this.limits) && isInsideCanvas(boundsOf(obj), this.limits)) continue;
        updateObject(this.doc, id, patch, this.origin);
      }
    }, this.origin);
    // Nodes are rebuilt from the document (scale back to 1); unchanged ones too.
    for (const live of this.liveShapes.values()) live.shape.destroy();
    this.liveShapes.clear();
    this.liveDirty = true;
    this.invalidate();
  }

  private setTemp(obj: CanvasObject | null): void {
    this.temps = obj ? [obj] : [];
    this.liveLayer.batchDraw();
  }

  private updateTempStroke(): void {
    const g = this.gesture;
    if (g?.kind !== 'stroke') return;
    this.setTemp(strokeObject(g.tool, g.points, this.style, { id: 'temp', zIndex: g.zIndex }));
  }

  /** Adds objects (and arrows) as one undoable command. */
  add(objects: CanvasObject[], arrows: ArrowInput[] = []): void {
    if (this.readOnly || (objects.length === 0 && arrows.length === 0)) return;
    this.doc.transact(() => {
      for (const obj of objects) addObject(this.doc, obj, this.origin);
      for (const a of arrows) addArrow(this.doc, a, this.origin);
    }, this.origin);
  }

  // ---------------------------------------------------------------- sticky and text editor

  private startNewText(tool: 'sticky' | 'text', at: Point): void {
    const base = { id: newId(), zIndex: nextZIndex(this.doc) };
    const obj = tool === 'sticky' ? newSticky(at, this.style, base) : newText(at, { color: this.style.color === '#FFFFFF' ? DEFAULT_TEXT_COLOR : this.style.color, fontSize: this.style.fontSize }, base);
    if (!isInsideCanvas(boundsOf(obj), this.limits)) return;
    this.openEditor({ object: obj, isNew: true });
  }

  /** Opens the editor on an existing sticky or text (the context menu's "edit", like a double click). */
  editObject(id: string): void {
    const obj = this.store.object(id);
    if (this.readOnly || !obj || !isEditable(obj)) return;
    this.openEditor({ object: obj, isNew: false });
  }

  private openEditor(request: EditRequest): void {
    this.editing = request;
    if (request.isNew) this.setTemp(request.object);
    this.events.edit?.(request);
  }

  /** The editor's Save: a new object is added (with its connecting arrow), an existing one gets the text. */
  finishEdit(typed: string): void {
    const text = cleanText(typed);
    const req = this.editing;
    this.editing = null;
    this.setTemp(null);
    if (!req || this.readOnly) return;
    if (req.isNew) {
      const obj = { ...req.object, text };
      const arrows: ArrowInput[] = req.linkFrom ? [this.arrowInput(req.linkFrom, obj.id)] : [];
      this.add([obj], arrows);
      if (obj.type === 'sticky') this.setTool('select');
      this.setSelection([obj.id]);
    } else {
      updateObject(this.doc, req.object.id, { text }, this.origin);
    }
  }

  cancelEdit(): void {
    this.editing = null;
    this.setTemp(null);
  }

  connectSticky(side: Side): void {
    const [only] = this.selectedObjects();
    if (this.readOnly || this.selection.size !== 1 || only?.type !== 'sticky') return;
    const obj = connectedSticky(only, side, { id: newId(), zIndex: nextZIndex(this.doc) });
    this.openEditor({ object: obj, isNew: true, linkFrom: only.id });
  }

  // ---------------------------------------------------------------- arrows

  private arrowInput(fromId: string, toId: string): ArrowInput {
    return { id: newId(), fromId, toId, style: this.arrowStyle, color: DEFAULT_ARROW_COLOR, strokeWidth: DEFAULT_ARROW_STROKE_WIDTH };
  }

  /** Starts an arrow from the one selected object; the next click on another object ends it. */
  beginArrow(): boolean {
    const [only] = this.selectedObjects();
    if (this.readOnly || this.selection.size !== 1 || !only || !canStartArrow(only)) return false;
    this.arrowFrom = only.id;
    this.container.style.cursor = 'crosshair';
    this.events.arrowMode?.(true);
    return true;
  }

  get arrowPending(): boolean {
    return this.arrowFrom !== null;
  }

  cancelArrow(): void {
    if (!this.arrowFrom) return;
    this.arrowFrom = null;
    this.tempExtra = [];
    this.container.style.cursor = toolCursor(this.tool);
    this.liveLayer.batchDraw();
    this.events.arrowMode?.(false);
  }

  private updateArrowPreview(board: Point): void {
    const from = this.arrowFrom ? this.store.object(this.arrowFrom) : null;
    if (!from) return;
    const b = boundsOf(from);
    this.tempExtra = [
      {
        kind: 'arrow',
        points: [b.x + b.width / 2, b.y + b.height / 2, board.x, board.y],
        pointerLength: 15,
        pointerWidth: 15,
        stroke: '#2196F3',
        fill: '#2196F3',
        strokeWidth: 2 / this.camera.scale,
        dash: this.arrowStyle === 'dashed' ? [10, 5] : this.arrowStyle === 'dotted' ? [2, 3] : undefined,
      },
    ];
    this.liveLayer.batchDraw();
  }

  /** §4/§9: an empty click, the same object, a missing target or a stroke end cancels. */
  private finishArrow(board: Point): void {
    const fromId = this.arrowFrom!;
    const from = this.store.object(fromId);
    const hit = this.hitAt(board);
    const to = hit?.obj ?? null;
    this.cancelArrow();
    if (arrowRefusal(from, to) !== null || !from || !to) return;
    const arrow = this.arrowInput(from.id, to.id);
    this.doc.transact(() => addArrow(this.doc, arrow, this.origin), this.origin);
  }

  // ---------------------------------------------------------------- commands

  deleteSelection(): void {
    if (this.readOnly || this.selection.size === 0) return;
    const ids = [...this.selection];
    this.doc.transact(() => {
      deleteObjects(this.doc, ids, this.origin);
      const arrows = getArrows(this.doc);
      for (const id of ids) if (arrows.has(id)) arrows.delete(id);
    }, this.origin);
    this.setSelection([]);
  }

  recolorSelection(color: string): void {
    this.setStyle({ color });
    if (this.readOnly || this.selection.size === 0) return;
    this.doc.transact(() => {
      for (const obj of this.selectedObjects()) {
        const patch = colorPatch(obj, color);
        if (Object.keys(patch).length > 0) updateObject(this.doc, obj.id, patch, this.origin);
      }
      const arrows = getArrows(this.doc);
      for (const id of this.selection) {
        const a = arrows.get(id);
        if (a instanceof Y.Map) a.set('color', color);
      }
    }, this.origin);
  }

  undo(): void {
    if (this.readOnly) return;
    this.history.undo();
  }

  redo(): void {
    if (this.readOnly) return;
    this.history.redo();
  }

  /** Clears the board for everyone; not undoable (§5 confirmation text says so), so history goes too. */
  clear(): void {
    if (this.readOnly) return;
    clearBoard(this.doc, 'clear-board');
    this.history.clear();
    this.setSelection([]);
  }

  /** The clipboard text of the selection, or null when nothing (or nothing copyable) is selected. */
  copy(): string | null {
    if (this.readOnly || this.selection.size === 0) return null;
    const payload = copySelection(this.store.allObjects(), this.store.allArrows(), this.selection);
    if (payload.objects.length === 0) return null;
    return JSON.stringify(payload);
  }

  /**
   * Which image sources may be written to this board (the page: the board's own store or a small
   * data URL; the server refuses the rest, and a refused update would leave this client's later
   * edits waiting for it). Null: every source.
   */
  imageSrcFilter: ((src: string) => boolean) | null = null;

  /** Pastes clipboard text; answers false when the text is not ours (the caller may try other content). */
  paste(text: string): boolean {
    if (this.readOnly) return true;
    const read = readClipboardText(text);
    if (!read.ok) {
      if (read.error) this.events.message?.(read.error, 'error');
      return read.error !== null;
    }
    let payload = read.payload;
    const accepts = this.imageSrcFilter;
    if (accepts) {
      // Another board's images (or outside addresses) stay behind; their arrows go with them.
      const kept = payload.objects.filter((o) => o.type !== 'image' || accepts(o.src));
      if (kept.length < payload.objects.length) {
        this.events.message?.(LABELS.imageForeignSkipped, 'error');
        if (kept.length === 0) return true;
        payload = { ...payload, objects: kept };
      }
    }
    const count = (this.pasteCounts.get(text) ?? 0) + 1;
    this.pasteCounts.set(text, count);
    const plan = planPaste(payload, {
      offset: { x: 20 * count, y: 20 * count },
      zIndexStart: nextZIndex(this.doc),
      limits: this.limits,
    });
    if (!plan.ok) {
      this.events.message?.(plan.error, 'error');
      return true;
    }
    this.add(plan.objects, plan.arrows);
    this.setSelection(plan.objects.map((o) => o.id));
    return true;
  }

  /** Inserts template objects centred on the viewport, as one command, and selects them. */
  insertAtCentre(objects: CanvasObject[]): void {
    if (this.readOnly || objects.length === 0) return;
    const bounds = unionBounds(objects.map(boundsOf))!;
    const c = this.viewportCentre();
    const wanted = { x: c.x - (bounds.x + bounds.width / 2), y: c.y - (bounds.y + bounds.height / 2) };
    const d = clampMove(bounds, wanted.x, wanted.y, this.limits);
    const z = nextZIndex(this.doc);
    const moved = objects.map((o, i) => canvasObjectSchema.parse({ ...applyPatch(o, translatePatch(o, d.x, d.y)), zIndex: z + i }));
    this.add(moved);
    this.setSelection(moved.map((o) => o.id));
  }

  /** Objects laid out at fixed board positions (the JSON sticker grid of §9). */
  insertAsIs(objects: CanvasObject[]): void {
    if (this.readOnly || objects.length === 0) return;
    const z = nextZIndex(this.doc);
    const placed = objects.map((o, i) => ({ ...o, zIndex: z + i }));
    this.add(placed);
    this.setSelection(placed.map((o) => o.id));
  }

  insertImage(src: string, natural: { width: number; height: number }, at?: Point): void {
    if (this.readOnly) return;
    const centre = at ?? this.viewportCentre();
    let obj = newImage(centre, src, natural, { id: newId(), zIndex: nextZIndex(this.doc) });
    const d = clampMove(boundsOf(obj), 0, 0, this.limits);
    obj = { ...obj, x: obj.x + d.x, y: obj.y + d.y };
    this.add([obj]);
    this.setSelection([obj.id]);
  }

  objectCount(): number {
    return getObjects(this.doc).size;
  }
}

function native(ctx: Konva.Context): CanvasRenderingContext2D {
  return (ctx as unknown as { _context: CanvasRenderingContext2D })._context;
}

const ALL_ANCHORS = ['top-left', 'top-center', 'top-right', 'middle-right', 'middle-left', 'bottom-left', 'bottom-center', 'bottom-right'];
const sameCamera = (a: Camera, b: Camera) => a.x === b.x && a.y === b.y && a.scale === b.scale;
const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
const containsBox = (outer: Bounds, inner: Bounds) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

function toolCursor(tool: Tool): string {
  switch (tool) {
    case 'hand':
      return 'grab';
    case 'select':
      return 'default';
    case 'text':
      return 'text';
    default:
      return 'crosshair';
  }
}

