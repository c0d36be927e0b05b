import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  canvasObjectSchema,
  clampZoom,
  estimateTextSize,
  fitImageSize,
  isInsideCanvas,
  objectsInArea,
  objectsIntersecting,
  unionBounds,
  type CanvasObject,
  type CanvasObjectInput,
} from '../src/index.ts';

const obj = (input: CanvasObjectInput): CanvasObject => canvasObjectSchema.parse(input);
const rect = (id: string, x: number, y: number, w: number, h: number, extra = {}) =>
  obj({
    id,
    type: 'rectangle',
    x,
    y,
    width: w,
    height: h,
    fill: '#fff',
    stroke: '#000',
    strokeWidth: 0,
    ...extra,
  });

const close = (actual: { x: number; y: number; width: number; height: number }, expected: typeof actual) => {
  for (const k of ['x', 'y', 'width', 'height'] as const) expect(actual[k]).toBeCloseTo(expected[k], 6);
};

describe('boundsOf', () => {
  it('rectangle, with stroke and with rotation about its top-left corner', () => {
    expect(boundsOf(rect('r', 10, 20, 100, 50))).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    expect(boundsOf(rect('r', 10, 20, 100, 50, { strokeWidth: 4 }))).toEqual({
      x: 8,
      y: 18,
      width: 104,
      height: 54,
    });
    close(boundsOf(rect('r', 0, 0, 100, 50, { rotation: 90 })), { x: -50, y: 0, width: 50, height: 100 });
    const d = Math.SQRT1_2 * 100;
    close(boundsOf(rect('r', 0, 0, 100, 100, { rotation: 45 })), {
      x: -d,
      y: 0,
      width: 2 * d,
      height: 2 * d,
    });
  });

  it('ellipse around its centre', () => {
    const e = obj({
      id: 'e',
      type: 'ellipse',
      x: 0,
      y: 0,
      radiusX: 30,
      radiusY: 10,
      fill: '#fff',
      stroke: '#000',
      strokeWidth: 2,
    });
    expect(boundsOf(e)).toEqual({ x: -31, y: -11, width: 62, height: 22 });
  });

  it('line, path and highlighter from their points plus half the stroke', () => {
    expect(boundsOf(obj({ id: 'l', type: 'line', points: [10, 40, 0, 0], strokeWidth: 2 }))).toEqual({
      x: -1,
      y: -1,
      width: 12,
      height: 42,
    });
    const stroke = { stroke: '#000', strokeWidth: 4, points: [0, 0, 10, 5, -10, 20] };
    expect(boundsOf(obj({ id: 'p', type: 'path', ...stroke }))).toEqual({
      x: -12,
      y: -2,
      width: 24,
      height: 24,
    });
    expect(boundsOf(obj({ id: 'h', type: 'highlighter', ...stroke, strokeWidth: 16 }))).toEqual({
      x: -18,
      y: -8,
      width: 36,
      height: 36,
    });
  });

  it('text from an estimate of its size', () => {
    const t = obj({ id: 't', type: 'text', x: 5, y: 6, text: 'ab\nabcd', fontSize: 10, fill: '#000' });
    expect(boundsOf(t)).toEqual({ x: 5, y: 6, ...estimateTextSize('ab\nabcd', 10) });
    expect(estimateTextSize('ab\nabcd', 10)).toEqual({ width: 24, height: 24 });
  });

  it('sticky and image from their box', () => {
    const s = obj({
      id: 's',
      type: 'sticky',
      x: 1,
      y: 2,
      width: 120,
      height: 120,
      text: 'a',
      backgroundColor: '#FFF2B3',
      textColor: '#333333',
      fontSize: 14,
    });
    const i = obj({
      id: 'i',
      type: 'image',
      x: -5,
      y: -5,
      width: 40,
      height: 30,
      src: 'data:image/png;base64,AAAA',
    });
    expect(boundsOf(s)).toEqual({ x: 1, y: 2, width: 120, height: 120 });
    expect(boundsOf(i)).toEqual({ x: -5, y: -5, width: 40, height: 30 });
  });
});

describe('area helpers', () => {
  const a = rect('a', 0, 0, 10, 10);
  const b = rect('b', 20, 0, 10, 10);
  const c = rect('c', 100, 100, 10, 10);

  it('unionBounds', () => {
    expect(unionBounds([a, b, c].map(boundsOf))).toEqual({ x: 0, y: 0, width: 110, height: 110 });
    expect(unionBounds([])).toBeNull();
  });

  it('objectsInArea keeps only fully contained objects, whichever way the band was dragged', () => {
    expect(objectsInArea([a, b, c], { x: -1, y: -1, width: 32, height: 12 }).map((o) => o.id)).toEqual([
      'a',
      'b',
    ]);
    expect(objectsInArea([a, b, c], { x: 31, y: 11, width: -32, height: -12 }).map((o) => o.id)).toEqual([
      'a',
      'b',
    ]);
    expect(objectsInArea([a, b, c], { x: 5, y: 0, width: 30, height: 10 }).map((o) => o.id)).toEqual(['b']);
  });

  it('objectsIntersecting keeps anything overlapping', () => {
    expect(objectsIntersecting([a, b, c], { x: 5, y: 5, width: 20, height: 1 }).map((o) => o.id)).toEqual([
      'a',
      'b',
    ]);
    expect(objectsIntersecting([a, b, c], { x: 50, y: 50, width: 10, height: 10 })).toEqual([]);
  });
});

describe('canvas limits and zoom', () => {
  const limits = { max_width: 2000, max_height: 1000, unlimited: false };
  it('a bounded canvas spans ± half of each dimension around the origin', () => {
    expect(isInsideCanvas({ x: -1000, y: -500, width: 2000, height: 1000 }, limits)).toBe(true);
    expect(isInsideCanvas({ x: 990, y: 0, width: 20, height: 10 }, limits)).toBe(false);
    expect(isInsideCanvas({ x: 0, y: -501, width: 0, height: 0 }, limits)).toBe(false);
    expect(isInsideCanvas({ x: 1e6, y: 1e6, width: 5, height: 5 }, { ...limits, unlimited: true })).toBe(
      true,
    );
  });

  it('clampZoom keeps 0.1..5', () => {
    expect(clampZoom(0.01)).toBe(0.1);
    expect(clampZoom(7)).toBe(5);
    expect(clampZoom(1.5)).toBe(1.5);
    expect(clampZoom(NaN)).toBe(1);
  });

  it('fitImageSize keeps the aspect ratio inside 400×300', () => {
    expect(fitImageSize(800, 300)).toEqual({ width: 400, height: 150 });
    expect(fitImageSize(300, 600)).toEqual({ width: 150, height: 300 });
    expect(fitImageSize(100, 50)).toEqual({ width: 100, height: 50 });
  });
});
