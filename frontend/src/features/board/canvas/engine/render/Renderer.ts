/**
 * Drawing the board: the konva stage and its three layers, and the frame loop. Nothing here reads
 * the pointer or edits the document; the engine tells it what changed (`invalidate`).
 *
 * Layers, bottom to top:
 *  - background: the pattern of the visible area, redrawn on every camera change (cheap);
 *  - static: every visible object not being interacted with, painted by one shape from the
 *    spatial index; while the camera moves its bitmap is only moved/scaled by CSS, and it is
 *    redrawn sharp when the camera rests (or every REFRESH_MS during a long gesture);
 *  - live (LiveLayer.ts): the selection with the transformer, temporary drawing, the rubber band.
 */
import Konva from 'konva';
import { unionBounds, type Background, type Bounds } from '@wb/board-model';
import { comparePaintOrder, type Entry, type SceneStore } from '../sceneStore.ts';
import { sameCamera, type Viewport } from '../viewport.ts';
import { paintBackground } from './background.ts';
import { LiveLayer, native, type LiveLayerHooks } from './LiveLayer.ts';
import { paintPrimitives } from './paint.ts';

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

/** What the renderer asks of the engine once per frame. */
export interface RenderHooks extends LiveLayerHooks {
  /** Before anything is drawn (a pending two-finger gesture moves the camera). */
  beforeFrame(): void;
  /** Objects changed: selected ids that no longer exist leave the selection. */
  pruneSelection(): void;
  /** After objects changed (count) — and after every camera change (overlays). */
  sceneChanged(): void;
  overlayMoved(): void;
  /** Ids drawn on the live layer rather than the static one. */
  liveIds(): Set<string>;
  selection(): ReadonlySet<string>;
  /** Whether the transformer shows handles. */
  editable(): boolean;
  background(): Background;
}

/** What changed since the last frame. */
export interface Dirty {
  /** The static bitmap must be redrawn (objects, selection, a camera set at once). */
  scene?: boolean;
  camera?: boolean;
  /** The live shapes must be brought in line with the selection. */
  live?: boolean;
}

export class Renderer {
  readonly stats: EngineStats = { firstDrawAt: null, staticDraws: 0, lastStaticDrawMs: 0, drawnItems: 0, frames: 0, draws: [] };
  readonly stage: Konva.Stage;
  readonly live: LiveLayer;
  private readonly bgLayer = new Konva.Layer({ listening: false });
  private readonly staticLayer = new Konva.Layer({ listening: false });
  private frame = 0;
  private loaded = false;
  private staticCamera: { x: number; y: number; scale: number } | null = null;
  private staticDrawnAt = 0;
  private restTimer: ReturnType<typeof setTimeout> | null = null;
  private staticDirty = true;
  private liveDirty = true;
  private cameraDirty = true;
  private visible: Entry[] = [];
  private destroyed = false;

  constructor(
    container: HTMLDivElement,
    private readonly viewport: Viewport,
    private readonly scene: SceneStore,
    private readonly hooks: RenderHooks,
  ) {
    this.stage = new Konva.Stage({ container, width: viewport.width, height: viewport.height });
    this.bgLayer.add(
      new Konva.Shape({
        listening: false,
        perfectDrawEnabled: false,
        sceneFunc: (ctx) => paintBackground(native(ctx), hooks.background(), viewport.area(0), viewport.camera.scale),
      }),
    );
    this.staticLayer.add(
      new Konva.Shape({ listening: false, perfectDrawEnabled: false, sceneFunc: (ctx) => this.paintStatic(native(ctx)) }),
    );
    this.live = new LiveLayer(viewport, scene, hooks);
    this.stage.add(this.bgLayer, this.staticLayer, this.live.layer);
    const staticCanvas = this.staticLayer.getNativeCanvasElement();
    staticCanvas.style.transformOrigin = '0 0';
    staticCanvas.style.willChange = 'transform';
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    if (this.restTimer) clearTimeout(this.restTimer);
    this.stage.destroy();
  }

  /** Marks what changed and asks for a frame (at most one per animation frame). */
  invalidate(dirty: Dirty = {}): void {
    if (dirty.scene) this.staticDirty = true;
    if (dirty.camera) this.cameraDirty = true;
    if (dirty.live) this.liveDirty = true;
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      // Before the frame is released, so the camera it sets is drawn by this frame, not the next.
      this.hooks.beforeFrame();
      this.frame = 0;
      this.render();
    });
  }

  resize(width: number, height: number): void {
    this.stage.size({ width, height });
    this.invalidate({ scene: true, camera: true });
  }

  private render(): void {
    this.stats.frames++;
    let changed: Set<string> | null = null;
    if (!this.loaded) {
      changed = this.scene.initialLoad();
      this.loaded = true;
      this.staticDirty = true;
    } else if (this.scene.hasChanges) {
      changed = this.scene.flush();
    }
    const cam = this.viewport.camera;
    if (changed && changed.size > 0) {
      this.hooks.pruneSelection();
      // A change only to what the live layer draws (a drag preview) leaves the static bitmap alone;
      // a few changed objects (a remote edit) repaint only their region of it.
      const live = this.hooks.liveIds();
      if ([...changed].some((id) => !live.has(id))) {
        const sharp = this.staticCamera !== null && sameCamera(this.staticCamera, cam);
        if (!this.staticDirty && sharp && changed.size <= PARTIAL_REDRAW_MAX) this.repaintRegions(this.scene.changedBounds);
        else this.staticDirty = true;
      }
      this.liveDirty = true;
      this.hooks.sceneChanged();
    }
    if (this.liveDirty) {
      this.liveDirty = false;
      this.live.sync(this.hooks.liveIds(), this.hooks.selection(), this.hooks.editable());
    }
    const layerAttrs = { x: cam.x, y: cam.y, scaleX: cam.scale, scaleY: cam.scale };
    if (this.cameraDirty) {
      this.live.followCamera(layerAttrs);
      this.bgLayer.setAttrs(layerAttrs);
      this.bgLayer.batchDraw();
      this.hooks.overlayMoved();
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
      this.staticLayer.getNativeCanvasElement().style.transform = `matrix(${k},0,0,${k},${cam.x - s0.x * k},${cam.y - s0.y * k})`;
      this.scheduleRest();
    }
    this.live.draw();
    this.cameraDirty = false;
  }

  private scheduleRest(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => {
      this.restTimer = null;
      this.invalidate({ scene: true });
    }, REST_MS);
  }

  private drawStatic(): void {
    const t0 = performance.now();
    const live = this.hooks.liveIds();
    const found = this.scene.search(this.viewport.area(CULL_MARGIN));
    this.visible = found.filter((e) => !live.has(e.id)).sort(comparePaintOrder);
    this.staticCamera = { ...this.viewport.camera };
    this.staticLayer.getNativeCanvasElement().style.transform = '';
    this.staticLayer.draw();
    this.staticDirty = false;
    const t1 = performance.now();
    this.staticDrawnAt = t1;
    const stats = this.stats;
    stats.staticDraws++;
    stats.lastStaticDrawMs = t1 - t0;
    stats.drawnItems = this.visible.length;
    if (stats.firstDrawAt === null) stats.firstDrawAt = t1;
    const last = stats.draws.at(-1);
    const scale = this.viewport.camera.scale;
    if (!last || last[0] !== this.scene.objectCount || last[2] !== scale) {
      stats.draws.push([this.scene.objectCount, t1, scale]);
      if (stats.draws.length > 100) stats.draws.shift();
    }
  }

  /**
   * Repaints only the given board regions of the static bitmap, straight onto its canvas: a remote
   * change to one sticky costs the items around it, not the whole screen.
   */
  private repaintRegions(regions: Bounds[]): void {
    const area = unionBounds(regions);
    if (!area) return;
    const cam = this.viewport.camera;
    const pad = 12 + 2 / cam.scale;
    const r = { x: area.x - pad, y: area.y - pad, width: area.width + 2 * pad, height: area.height + 2 * pad };
    const canvas = this.staticLayer.getCanvas();
    const ctx = native(canvas.getContext());
    const ratio = canvas.getPixelRatio();
    const live = this.hooks.liveIds();
    const items = this.scene
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
    const opts = { scale: this.viewport.camera.scale, shadows: this.visible.length <= SHADOW_LIMIT };
    for (const e of this.visible) paintPrimitives(ctx, e.item.primitives, opts);
  }
}
