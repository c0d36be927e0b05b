/**
 * Cached tiles of the static scene (tileMath.ts for the arithmetic). Each frame the renderer asks
 * `update` to render what the camera needs within a time budget — the visible tiles nearest the
 * centre first, then the overscan ring — and `compose` copies the tiles onto the static layer with
 * drawImage. A pan therefore only copies cached tiles and renders the few it uncovers; a tile still
 * missing is covered meanwhile by the nearest cached level's tiles, scaled.
 *
 * A document edit marks only the tiles its old and new bounds touch (`invalidateBounds`): at the
 * current level they are re-rendered first (their old pixels stay on screen until then, a frame at
 * most for a few tiles); at other levels they are dropped.
 */
import type { Bounds, Camera } from '@wb/board-model';
import { comparePaintOrder, type SceneStore } from '../sceneStore.ts';
import { paintItem } from './lod.ts';
import { levelScale, tileBounds, tileKey, tileOnScreen, tilesTouching, TILE_PX, type TileId, type ViewTiles } from './tileMath.ts';

/** Tiles kept (about 1 MB of pixels each): two levels of a full-HD view with its ring. */
const MAX_TILES = 72;
/** Board units drawn beyond an object's bounds (the sticky shadow: blur 6 + offset 2). */
const PAINT_PAD = 12;

interface Tile extends TileId {
  key: string;
  /** null: nothing in this tile (nothing to copy). */
  canvas: HTMLCanvasElement | null;
  dirty: boolean;
  /** Frame number of the last compose that used it (eviction order). */
  used: number;
}

export interface UpdateResult {
  /** Every visible tile is rendered and up to date. */
  complete: boolean;
  /** Tiles (visible or ring) still to render: another frame is needed. */
  pending: boolean;
  rendered: number;
}

export class TileCache {
  private readonly tiles = new Map<string, Tile>();
  private readonly pool: HTMLCanvasElement[] = [];
  private frame = 0;
  /** What the last tile rendered cost (stats). */
  lastTileMs = 0;

  constructor(
    private readonly scene: SceneStore,
    /** Ids drawn on the live layer, left out of the tiles. */
    private readonly liveIds: () => ReadonlySet<string>,
  ) {}

  get size(): number {
    return this.tiles.size;
  }

  has(id: TileId): boolean {
    const t = this.tiles.get(tileKey(id.level, id.tx, id.ty));
    return !!t && !t.dirty;
  }

  /** Renders missing and dirty tiles of the view until `budgetMs` is spent (at least one per call). */
  update(view: ViewTiles, ratio: number, budgetMs: number): UpdateResult {
    const t0 = performance.now();
    let rendered = 0;
    let complete = true;
    let pending = false;
    for (const list of [view.visible, view.ring]) {
      for (const id of list) {
        const key = tileKey(id.level, id.tx, id.ty);
        const tile = this.tiles.get(key);
        if (tile && !tile.dirty) continue;
        if (rendered > 0 && performance.now() - t0 >= budgetMs) {
          pending = true;
          if (list === view.visible) complete = false;
          continue;
        }
        this.render(tile ?? this.create(id, key), ratio);
        rendered++;
      }
    }
    this.evict(view);
    return { complete, pending, rendered };
  }

  /** Copies the view's tiles onto `ctx` (device pixels, identity transform). */
  compose(ctx: CanvasRenderingContext2D, camera: Camera, view: ViewTiles, ratio: number): void {
    this.frame++;
    const missing: TileId[] = [];
    for (const id of view.visible) {
      const tile = this.tiles.get(tileKey(id.level, id.tx, id.ty));
      if (tile) tile.used = this.frame;
      else missing.push(id);
    }
    for (const id of missing) this.drawFallback(ctx, camera, id, ratio);
    for (const id of view.visible) {
      const tile = this.tiles.get(tileKey(id.level, id.tx, id.ty));
      if (!tile?.canvas) continue;
      const r = tileOnScreen(camera, id, ratio);
      ctx.drawImage(tile.canvas, r.x, r.y, r.width, r.height);
    }
  }

  /** Marks the tiles the given board regions touch (old and new bounds of changed items). */
  invalidateBounds(regions: readonly Bounds[], currentLevel: number, ratio: number): void {
    if (regions.length === 0 || this.tiles.size === 0) return;
    for (const level of this.levels()) {
      for (const b of regions) {
        const r = tilesTouching(b, level, ratio, PAINT_PAD);
        // A huge region (a select-all) is cheaper checked tile by tile than cell by cell.
        const cells = (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
        if (cells > this.tiles.size) {
          for (const tile of [...this.tiles.values()]) {
            if (tile.level === level && tile.tx >= r.x0 && tile.tx <= r.x1 && tile.ty >= r.y0 && tile.ty <= r.y1) this.mark(tile, currentLevel);
          }
          continue;
        }
        for (let ty = r.y0; ty <= r.y1; ty++) {
          for (let tx = r.x0; tx <= r.x1; tx++) {
            const tile = this.tiles.get(tileKey(level, tx, ty));
            if (tile) this.mark(tile, currentLevel);
          }
        }
      }
    }
  }

  /** Everything changes (an image loaded, the live set changed wholesale). */
  invalidateAll(currentLevel: number): void {
    for (const tile of [...this.tiles.values()]) this.mark(tile, currentLevel);
  }

  clear(): void {
    for (const tile of this.tiles.values()) this.release(tile);
    this.tiles.clear();
  }

  private mark(tile: Tile, currentLevel: number): void {
    if (tile.level === currentLevel) tile.dirty = true;
    else {
      this.release(tile);
      this.tiles.delete(tile.key);
    }
  }

  private levels(): Set<number> {
    const out = new Set<number>();
    for (const t of this.tiles.values()) out.add(t.level);
    return out;
  }

  private create(id: TileId, key: string): Tile {
    const tile: Tile = { ...id, key, canvas: null, dirty: true, used: this.frame };
    this.tiles.set(key, tile);
    return tile;
  }

  private render(tile: Tile, ratio: number): void {
    const t0 = performance.now();
    const b = tileBounds(tile.level, tile.tx, tile.ty, ratio);
    const live = this.liveIds();
    const found = this.scene.search({ x: b.x - PAINT_PAD, y: b.y - PAINT_PAD, width: b.width + 2 * PAINT_PAD, height: b.height + 2 * PAINT_PAD });
    const items = live.size > 0 ? found.filter((e) => !live.has(e.id)) : found;
    tile.dirty = false;
    if (items.length === 0) {
      this.release(tile);
      return;
    }
    items.sort(comparePaintOrder);
    const canvas = tile.canvas ?? this.pool.pop() ?? makeCanvas();
    tile.canvas = canvas;
    const ctx = canvas.getContext('2d')!;
    const scale = levelScale(tile.level);
    const px = scale * ratio;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, TILE_PX, TILE_PX);
    ctx.setTransform(px, 0, 0, px, -tile.tx * TILE_PX, -tile.ty * TILE_PX);
    for (const e of items) paintItem(ctx, e.item, scale);
    this.lastTileMs = performance.now() - t0;
  }

  /** A missing tile's area drawn from the nearest level that has tiles there (scaled, clipped). */
  private drawFallback(ctx: CanvasRenderingContext2D, camera: Camera, id: TileId, ratio: number): void {
    const area = tileBounds(id.level, id.tx, id.ty, ratio);
    const levels = [...this.levels()].filter((l) => l !== id.level).sort((a, b) => Math.abs(a - id.level) - Math.abs(b - id.level));
    const dest = tileOnScreen(camera, id, ratio);
    for (const level of levels.slice(0, 4)) {
      const r = tilesTouching(area, level, ratio);
      const cells = (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
      if (cells > 64) continue;
      let drawn = false;
      ctx.save();
      ctx.beginPath();
      ctx.rect(dest.x, dest.y, dest.width, dest.height);
      ctx.clip();
      for (let ty = r.y0; ty <= r.y1; ty++) {
        for (let tx = r.x0; tx <= r.x1; tx++) {
          const tile = this.tiles.get(tileKey(level, tx, ty));
          if (!tile) continue;
          drawn = true;
          if (!tile.canvas) continue;
          tile.used = this.frame;
          const s = tileOnScreen(camera, tile, ratio);
          ctx.drawImage(tile.canvas, s.x, s.y, s.width, s.height);
        }
      }
      ctx.restore();
      if (drawn) return;
    }
  }

  /** Past MAX_TILES, drops the least recently shown tiles the view does not need. */
  private evict(view: ViewTiles): void {
    // Empty tiles hold no pixels: they count only against a looser bound.
    let painted = 0;
    for (const t of this.tiles.values()) if (t.canvas) painted++;
    if (painted <= MAX_TILES && this.tiles.size <= 4 * MAX_TILES) return;
    const needed = new Set<string>();
    for (const id of view.visible) needed.add(tileKey(id.level, id.tx, id.ty));
    for (const id of view.ring) needed.add(tileKey(id.level, id.tx, id.ty));
    const candidates = [...this.tiles.values()].filter((t) => !needed.has(t.key)).sort((a, b) => a.used - b.used);
    for (const tile of candidates) {
      if (painted <= MAX_TILES && this.tiles.size <= 4 * MAX_TILES) break;
      if (tile.canvas) painted--;
      this.release(tile);
      this.tiles.delete(tile.key);
    }
  }

  private release(tile: Tile): void {
    if (tile.canvas && this.pool.length < 8) this.pool.push(tile.canvas);
    tile.canvas = null;
  }
}

function makeCanvas(): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = TILE_PX;
  c.height = TILE_PX;
  return c;
}
