/**
 * Tile arithmetic of the static scene (pure, unit-tested in frontend/test/unit/canvas-tiles.test.ts).
 *
 * The static scene is cut into square tiles of TILE_PX device pixels, rendered at a zoom *level*:
 * while the scale stands still (pan, rest) the camera's exact level (`exactLevel`), so tiles are
 * copied 1:1; during a zoom gesture the nearest whole level (LEVELS_PER_OCTAVE per doubling of the
 * scale), so the gesture only re-renders when it crosses one, and in between cached tiles are drawn
 * scaled by at most 2^(1/8) either way. Level 0 is scale 1 exactly (pixel-identical to the
 * export at 100 %). A tile (level, tx, ty) covers the board square
 * [tx·T, (tx+1)·T) × [ty·T, (ty+1)·T) with T = TILE_PX / (levelScale · pixelRatio).
 */
import type { Bounds, Camera } from '@wb/board-model';

export const TILE_PX = 512;
export const LEVELS_PER_OCTAVE = 4;

export interface TileId {
  level: number;
  tx: number;
  ty: number;
}

/** Inclusive range of tile coordinates at one level. */
export interface TileRange {
  level: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const tileKey = (level: number, tx: number, ty: number): string => `${level}/${tx}/${ty}`;

/**
 * The level of exactly `scale` (usually not a whole number): used while the scale stands still, so
 * tiles are copied 1:1 — a scaled copy of the whole view costs software rendering more than a frame.
 */
export function exactLevel(scale: number): number {
  return Math.log2(scale) * LEVELS_PER_OCTAVE;
}

/** The whole level whose scale is nearest to `scale` (in log terms): the tiles of a zoom gesture. */
export function levelOf(scale: number): number {
  return Math.round(Math.log2(scale) * LEVELS_PER_OCTAVE);
}

export function levelScale(level: number): number {
  return 2 ** (level / LEVELS_PER_OCTAVE);
}

/** Board units per tile side at a level. */
export function tileSize(level: number, ratio: number): number {
  return TILE_PX / (levelScale(level) * ratio);
}

export function tileBounds(level: number, tx: number, ty: number, ratio: number): Bounds {
  const t = tileSize(level, ratio);
  return { x: tx * t, y: ty * t, width: t, height: t };
}

/** The tiles at `level` that touch `area` grown by `pad` board units on every side. */
export function tilesTouching(area: Bounds, level: number, ratio: number, pad = 0): TileRange {
  const t = tileSize(level, ratio);
  return {
    level,
    // `+ 0` turns -0 into 0: keys are strings, and "-0" would be another tile.
    x0: Math.floor((area.x - pad) / t) + 0,
    y0: Math.floor((area.y - pad) / t) + 0,
    // A box ending exactly on a tile edge does not reach into the next tile.
    x1: Math.ceil((area.x + area.width + pad) / t) - 1,
    y1: Math.ceil((area.y + area.height + pad) / t) - 1,
  };
}

export function rangeIds(r: TileRange): TileId[] {
  const out: TileId[] = [];
  for (let ty = r.y0; ty <= r.y1; ty++) for (let tx = r.x0; tx <= r.x1; tx++) out.push({ level: r.level, tx, ty });
  return out;
}

export interface ViewTiles {
  level: number;
  /** Tiles under the viewport, nearest to its centre first (rendered first). */
  visible: TileId[];
  /** The overscan ring around them, nearest first: rendered when the visible ones are done. */
  ring: TileId[];
}

/** The tiles a camera needs at `level`: those it shows, and `overscan` more tiles on every side. */
export function viewTiles(camera: Camera, width: number, height: number, ratio: number, overscan = 1, level = levelOf(camera.scale)): ViewTiles {
  const area = { x: -camera.x / camera.scale, y: -camera.y / camera.scale, width: width / camera.scale, height: height / camera.scale };
  const r = tilesTouching(area, level, ratio);
  const t = tileSize(level, ratio);
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  const dist = (id: TileId) => ((id.tx + 0.5) * t - cx) ** 2 + ((id.ty + 0.5) * t - cy) ** 2;
  const byDistance = (a: TileId, b: TileId) => dist(a) - dist(b);
  const visible = rangeIds(r).sort(byDistance);
  const outer = { level, x0: r.x0 - overscan, y0: r.y0 - overscan, x1: r.x1 + overscan, y1: r.y1 + overscan };
  const ring = rangeIds(outer)
    .filter((id) => id.tx < r.x0 || id.tx > r.x1 || id.ty < r.y0 || id.ty > r.y1)
    .sort(byDistance);
  return { level, visible, ring };
}

/**
 * Where a tile lands on the screen, in device pixels, with its edges rounded: neighbouring tiles
 * share their edges (no seams), and at a camera scale equal to the level's scale with a whole-pixel
 * camera offset a tile is copied 1:1 (no resampling blur).
 */
export function tileOnScreen(camera: Camera, id: TileId, ratio: number): { x: number; y: number; width: number; height: number } {
  const t = tileSize(id.level, ratio);
  const k = camera.scale * ratio;
  const x0 = Math.round(id.tx * t * k + camera.x * ratio);
  const y0 = Math.round(id.ty * t * k + camera.y * ratio);
  const x1 = Math.round((id.tx + 1) * t * k + camera.x * ratio);
  const y1 = Math.round((id.ty + 1) * t * k + camera.y * ratio);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
