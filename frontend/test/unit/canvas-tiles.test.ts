import { describe, expect, it } from 'vitest';
import { decimate } from '../../src/features/board/canvas/engine/render/lod.ts';
import {
  TILE_PX,
  exactLevel,
  levelOf,
  levelScale,
  tileBounds,
  tileOnScreen,
  tileSize,
  tilesTouching,
  viewTiles,
  type TileId,
} from '../../src/features/board/canvas/engine/render/tileMath.ts';

const keys = (ids: TileId[]) => ids.map((t) => `${t.tx},${t.ty}`).sort();

describe('zoom levels', () => {
  it('scale 1 is level 0 exactly, four levels per doubling, the nearest level in log terms', () => {
    expect(levelOf(1)).toBe(0);
    expect(levelScale(0)).toBe(1);
    expect(levelOf(2)).toBe(4);
    expect(levelScale(4)).toBe(2);
    expect(levelOf(0.5)).toBe(-4);
    expect(levelOf(1.09)).toBe(0);
    expect(levelOf(1.1)).toBe(1);
    // A cached level is never drawn scaled by more than 2^(1/8) either way.
    for (const s of [0.01, 0.043, 0.134, 0.7, 1, 1.3, 3.9, 20]) {
      const k = s / levelScale(levelOf(s));
      expect(k).toBeGreaterThanOrEqual(2 ** (-1 / 8) - 1e-9);
      expect(k).toBeLessThanOrEqual(2 ** (1 / 8) + 1e-9);
    }
  });

  it('at rest the exact level of the scale: its tiles are copied 1:1 at any whole-pixel camera offset', () => {
    for (const s of [0.134, 0.7, 1.37]) {
      const level = exactLevel(s);
      expect(levelScale(level)).toBeCloseTo(s, 12);
      expect(tileOnScreen({ x: 13, y: -7, scale: s }, { level, tx: 3, ty: -2 }, 1)).toMatchObject({ width: TILE_PX, height: TILE_PX });
    }
  });

  it('a tile is TILE_PX device pixels of its level: 512 board units at scale 1, 256 at 2, half as many at pixel ratio 2', () => {
    expect(tileSize(0, 1)).toBe(TILE_PX);
    expect(tileSize(4, 1)).toBe(256);
    expect(tileSize(0, 2)).toBe(256);
    expect(tileBounds(0, -1, 2, 1)).toEqual({ x: -512, y: 1024, width: 512, height: 512 });
  });
});

describe('tiles covering a viewport', () => {
  it('a 1280×800 view at scale 1 from the origin: 3×2 visible tiles, the ring of 14 around them', () => {
    const v = viewTiles({ x: 0, y: 0, scale: 1 }, 1280, 800, 1, 1);
    expect(v.level).toBe(0);
    expect(keys(v.visible)).toEqual(['0,0', '0,1', '1,0', '1,1', '2,0', '2,1']);
    expect(v.ring).toHaveLength(5 * 4 - 6);
    expect(keys(v.ring)).toContain('-1,-1');
    expect(keys(v.ring)).toContain('3,2');
    expect(keys(v.ring)).not.toContain('1,1');
  });

  it('visible tiles come nearest the view centre first', () => {
    const v = viewTiles({ x: 0, y: 0, scale: 1 }, 1280, 800, 1, 0);
    // The centre (640, 400) lies in tile (1, 0).
    expect(v.visible[0]).toMatchObject({ tx: 1, ty: 0 });
    expect(v.ring).toEqual([]);
  });

  it('a panned camera with a fractional offset: the tiles under it, negative coordinates included', () => {
    // Board x from 100.5 to 1380.5, y from -300 to 500.
    const v = viewTiles({ x: -100.5, y: 300, scale: 1 }, 1280, 800, 1, 0);
    expect(keys(v.visible)).toEqual(['0,-1', '0,0', '1,-1', '1,0', '2,-1', '2,0']);
  });

  it('zoomed out, the tiles are those of the nearest level', () => {
    const v = viewTiles({ x: 0, y: 0, scale: 0.134 }, 1280, 800, 1, 0);
    expect(v.level).toBe(levelOf(0.134));
    const t = tileSize(v.level, 1);
    const cols = Math.ceil(1280 / 0.134 / t);
    expect(v.visible.every((id) => id.level === v.level && id.tx < cols)).toBe(true);
  });

  it('tiles land on whole device pixels and neighbours share edges; at the level scale a tile is copied 1:1', () => {
    const cam = { x: 37.4, y: -12.6, scale: 0.9 };
    const level = levelOf(cam.scale);
    const a = tileOnScreen(cam, { level, tx: 0, ty: 0 }, 1);
    const b = tileOnScreen(cam, { level, tx: 1, ty: 0 }, 1);
    expect(a.x + a.width).toBe(b.x);
    expect(Number.isInteger(a.x) && Number.isInteger(a.width)).toBe(true);
    expect(tileOnScreen({ x: 10, y: 20, scale: 1 }, { level: 0, tx: 1, ty: 1 }, 1)).toEqual({ x: 522, y: 532, width: 512, height: 512 });
  });
});

describe('tiles an edit dirties', () => {
  it('an object inside one tile dirties that tile; with the paint pad, its neighbours too when close to an edge', () => {
    expect(tilesTouching({ x: 100, y: 100, width: 120, height: 120 }, 0, 1, 12)).toEqual({ level: 0, x0: 0, y0: 0, x1: 0, y1: 0 });
    expect(tilesTouching({ x: 500, y: 100, width: 120, height: 120 }, 0, 1, 12)).toEqual({ level: 0, x0: 0, y0: 0, x1: 1, y1: 0 });
    expect(tilesTouching({ x: 5, y: 5, width: 10, height: 10 }, 0, 1, 12)).toEqual({ level: 0, x0: -1, y0: -1, x1: 0, y1: 0 });
  });

  it('a box ending exactly on a tile edge does not reach the next tile', () => {
    expect(tilesTouching({ x: 0, y: 0, width: 512, height: 512 }, 0, 1)).toEqual({ level: 0, x0: 0, y0: 0, x1: 0, y1: 0 });
  });

  it('at another level the same object dirties the tiles of that level', () => {
    // Level 4 (scale 2): tiles of 256 board units.
    expect(tilesTouching({ x: 300, y: 10, width: 100, height: 100 }, 4, 1)).toEqual({ level: 4, x0: 1, y0: 0, x1: 1, y1: 0 });
  });
});

describe('level of detail', () => {
  it('a simplified stroke keeps its first and last point and at most the asked number of points', () => {
    const pts = Array.from({ length: 48 }, (_, i) => i);
    const d = decimate(pts, 8);
    expect(d).toHaveLength(16);
    expect(d.slice(0, 2)).toEqual([0, 1]);
    expect(d.slice(-2)).toEqual([46, 47]);
    expect(decimate([1, 2, 3, 4], 8)).toEqual([1, 2, 3, 4]);
  });
});
