/**
 * Drawing the board: the konva stage and its three layers, and the frame loop. Nothing here reads
 * the pointer or edits the document; the engine tells it what changed (`invalidate`).
 *
 * Layers, bottom to top:
 *  - background: the pattern of the visible area, redrawn on every camera change (cheap);
 *  - static: every object not being interacted with, copied each frame from cached tiles of the
 *    scene at the camera's zoom level (TileCache.ts): a pan or zoom composes cached tiles and
 *    renders the few it uncovers within a frame budget, so every frame shows the whole board;
 *  - live (LiveLayer.ts): the selection with the transformer, temporary drawing, the rubber band.
 */
import Konva from 'konva';
import type { Background } from '@wb/board-model';
import type { SceneStore } from '../sceneStore.ts';
import type { Viewport } from '../viewport.ts';
import { paintBackground } from './background.ts';
import { onImageSettled } from './images.ts';
import { LiveLayer, native, type LiveLayerHooks } from './LiveLayer.ts';
import { TileCache } from './TileCache.ts';
import { exactLevel, levelOf, viewTiles } from './tileMath.ts';

/**
 * Milliseconds of tile rendering per frame (at least one tile): with the compose and the browser's
 * own raster this keeps a frame under 20 ms (50 fps) while a gesture uncovers new tiles.
 */
const FRAME_BUDGET_MS = 8;
/** Tiles rendered beyond the viewport on every side, so a pan uncovers drawn content. */
const OVERSCAN = 1;
/** The scale changed less than this long ago: a zoom gesture, drawn from whole levels' tiles. */
const ZOOM_SETTLE_MS = 150;

export interface EngineStats {
  /** performance.now() when the whole visible board was first drawn. */
  firstDrawAt: number | null;
  /** Complete static frames: every visible tile rendered and up to date. */
  staticDraws: number;
  /** Tiles rendered so far, and the cost of the last frame's tile rendering. */
  tilesRendered: number;
  lastStaticDrawMs: number;
  /** Objects and arrows in the view at the last draw of `draws`. */
  drawnItems: number;
  frames: number;
  /** Milliseconds spent in the renderer's frames altogether (the benchmark's cost per frame). */
  busyMs: number;
  /** The last frame showed every visible tile rendered at the current level and up to date. */
  complete: boolean;
  /** Tiles (visible or the overscan ring) are still to be rendered. */
  pending: boolean;
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
  /** The selection may have changed: objects moving to or from the live layer repaint their tiles. */
  scene?: boolean;
  camera?: boolean;
  /** The live shapes must be brought in line with the selection. */
  live?: boolean;
}

export class Renderer {
  readonly stats: EngineStats = {
    firstDrawAt: null,
    staticDraws: 0,
    tilesRendered: 0,
    lastStaticDrawMs: 0,
    drawnItems: 0,
    frames: 0,
    busyMs: 0,
    complete: false,
    pending: true,
    draws: [],
  };
  readonly stage: Konva.Stage;
  readonly live: LiveLayer;
  private readonly bgLayer = new Konva.Layer({ listening: false });
  private readonly staticLayer = new Konva.Layer({ listening: false });
  private readonly tiles: TileCache;
  private frame = 0;
  private loaded = false;
  private liveDirty = true;
  private cameraDirty = true;
  /** The live set may have changed (selection): compare it with the one the tiles leave out. */
  private liveSetDirty = true;
  private liveSet: ReadonlySet<string> = new Set();
  private lastScale = 0;
  private scaleChangedAt = -Infinity;
  /** The level the tiles are drawn at this frame (whole while zooming, exact otherwise). */
  private level = 0;
  private zooming = false;
  /** The camera was set at once (a saved view, a jump), not moved by a gesture. */
  private cameraJump = true;
  /** Bench and tests: while held no frame is drawn, so a screenshot shows the last one. */
  private held = false;
  private destroyed = false;
  private readonly unsubscribeImages: () => void;

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
    this.tiles = new TileCache(scene, () => this.liveSet);
    this.staticLayer.add(
      new Konva.Shape({ listening: false, perfectDrawEnabled: false, sceneFunc: (ctx) => this.composeStatic(native(ctx)) }),
    );
    this.live = new LiveLayer(viewport, scene, hooks);
    this.stage.add(this.bgLayer, this.staticLayer, this.live.layer);
    // A decoded image changes how its tiles look (placeholder → picture).
    this.unsubscribeImages = onImageSettled(() => {
      this.tiles.invalidateAll(this.level);
      this.invalidate();
    });
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    this.unsubscribeImages();
    this.tiles.clear();
    this.stage.destroy();
  }

  /** Marks what changed and asks for a frame (at most one per animation frame). */
  invalidate(dirty: Dirty = {}): void {
    if (dirty.scene) this.liveSetDirty = true;
    if (dirty.camera) this.cameraDirty = true;
    if (dirty.camera && dirty.scene) this.cameraJump = true;
    if (dirty.live) this.liveDirty = true;
    if (this.frame || this.destroyed || this.held) return;
    this.frame = requestAnimationFrame(() => {
      // Before the frame is released, so the camera it sets is drawn by this frame, not the next.
      this.hooks.beforeFrame();
      this.frame = 0;
      this.render();
    });
  }

  /** Stops (true) or resumes drawing frames: the benchmark photographs a frame of a gesture. */
  hold(held: boolean): void {
    this.held = held;
    if (!held) this.invalidate();
  }

  resize(width: number, height: number): void {
    this.stage.size({ width, height });
    this.invalidate({ camera: true });
  }

  private get ratio(): number {
    return this.staticLayer.getCanvas().getPixelRatio();
  }

  private render(): void {
    const start = performance.now();
    this.stats.frames++;
    let changed: Set<string> | null = null;
    if (!this.loaded) {
      changed = this.scene.initialLoad();
      this.loaded = true;
    } else if (this.scene.hasChanges) {
      changed = this.scene.flush();
    }
    const cam = this.viewport.camera;
    const now = performance.now();
    if (cam.scale !== this.lastScale) {
      this.lastScale = cam.scale;
      // A jump is drawn at its exact scale at once; a gesture's scale keeps changing.
      this.scaleChangedAt = this.cameraJump ? -Infinity : now;
    }
    this.cameraJump = false;
    this.zooming = now - this.scaleChangedAt < ZOOM_SETTLE_MS;
    const level = this.zooming ? levelOf(cam.scale) : exactLevel(cam.scale);
    this.level = level;
    if (changed && changed.size > 0) {
      this.hooks.pruneSelection();
      this.liveSetDirty = true;
      // A change only to what the live layer draws (a drag preview) leaves the tiles alone.
      const live = this.hooks.liveIds();
      const regions = this.scene.changedBounds.filter((_, i) => !live.has(this.scene.changedIds[i]));
      this.tiles.invalidateBounds(regions, level, this.ratio);
      this.liveDirty = true;
      this.hooks.sceneChanged();
    }
    if (this.liveSetDirty) {
      this.liveSetDirty = false;
      this.syncLiveSet(level);
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
    const t0 = performance.now();
    const view = viewTiles(cam, this.viewport.width, this.viewport.height, this.ratio, OVERSCAN, level);
    const result = this.tiles.update(view, this.ratio, FRAME_BUDGET_MS);
    // A zoom gesture's frames are not complete: the exact level follows once the scale rests.
    if (this.zooming) {
      result.complete = false;
      result.pending = true;
    }
    const t1 = performance.now();
    this.staticLayer.draw();
    this.live.draw();
    this.cameraDirty = false;
    const stats = this.stats;
    stats.complete = result.complete;
    stats.pending = result.pending;
    if (result.rendered > 0) {
      stats.tilesRendered += result.rendered;
      stats.lastStaticDrawMs = t1 - t0;
    }
    if (result.complete) this.recordComplete(t1);
    if (result.pending) this.invalidate();
    stats.busyMs += performance.now() - start;
  }

  /**
   * Objects entering or leaving the live layer (selected, deselected, arrows of the selection) are
   * repainted in their tiles: left out of them while live, back in afterwards.
   */
  private syncLiveSet(level: number): void {
    const next = this.hooks.liveIds();
    const prev = this.liveSet;
    const regions = [];
    for (const id of next) if (!prev.has(id)) regions.push(this.scene.entries.get(id)?.item.bounds);
    for (const id of prev) if (!next.has(id)) regions.push(this.scene.entries.get(id)?.item.bounds);
    this.liveSet = next;
    this.tiles.invalidateBounds(
      regions.filter((b) => b !== undefined),
      level,
      this.ratio,
    );
  }

  private composeStatic(ctx: CanvasRenderingContext2D): void {
    const cam = this.viewport.camera;
    const view = viewTiles(cam, this.viewport.width, this.viewport.height, this.ratio, 0, this.level);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    // Scaled copies while zooming: nearest-pixel is a fraction of the cost of smoothing in software.
    ctx.imageSmoothingEnabled = !this.zooming;
    this.tiles.compose(ctx, cam, view, this.ratio);
    ctx.restore();
  }

  private recordComplete(at: number): void {
    const stats = this.stats;
    stats.staticDraws++;
    if (stats.firstDrawAt === null) stats.firstDrawAt = at;
    const last = stats.draws.at(-1);
    const scale = this.viewport.camera.scale;
    if (!last || last[0] !== this.scene.objectCount || last[2] !== scale) {
      stats.drawnItems = this.scene.search(this.viewport.area(0)).length;
      stats.draws.push([this.scene.objectCount, at, scale]);
      if (stats.draws.length > 100) stats.draws.shift();
    }
  }
}
