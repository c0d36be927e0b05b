import { describe, expect, it } from 'vitest';
import {
  EDITOR_TEXT_MAX,
  alignMoves,
  arrangeable,
  arrangeBoxOf,
  boxInFrame,
  clampArrangeMove,
  distributeMoves,
  frameForBox,
  planTextPaste,
  snapEdges,
  snapIndex,
  snapMove,
  type Bounds,
  type CanvasObject,
} from '../src/index.ts';

const box = (id: string, x: number, y: number, width: number, height: number) => ({ id, box: { x, y, width, height } });
const unlimited = { max_width: 0, max_height: 0, unlimited: true };
const bounded = { max_width: 1000, max_height: 800, unlimited: false };

describe('align', () => {
  const items = [box('a', 0, 0, 100, 50), box('b', 200, 100, 50, 30), box('c', 50, 300, 20, 20)];

  it('lines every box up with the selection edge or centre', () => {
    expect(alignMoves(items, 'left')).toEqual(new Map([['b', { x: -200, y: 0 }], ['c', { x: -50, y: 0 }]]));
    expect(alignMoves(items, 'right')).toEqual(new Map([['a', { x: 150, y: 0 }], ['c', { x: 180, y: 0 }]]));
    // Selection spans x 0..250: centre 125.
    expect(alignMoves(items, 'centre')).toEqual(new Map([['a', { x: 75, y: 0 }], ['b', { x: -100, y: 0 }], ['c', { x: 65, y: 0 }]]));
    expect(alignMoves(items, 'top')).toEqual(new Map([['b', { x: 0, y: -100 }], ['c', { x: 0, y: -300 }]]));
    expect(alignMoves(items, 'bottom')).toEqual(new Map([['a', { x: 0, y: 270 }], ['b', { x: 0, y: 190 }]]));
    // Spans y 0..320: middle 160.
    expect(alignMoves(items, 'middle')).toEqual(new Map([['a', { x: 0, y: 135 }], ['b', { x: 0, y: 45 }], ['c', { x: 0, y: -150 }]]));
  });

  it('needs two boxes', () => {
    expect(alignMoves([items[0]], 'left').size).toBe(0);
  });
});

describe('distribute', () => {
  it('equal gaps between the first and the last, which stay', () => {
    // Widths 10, 30, 20; span 0..200 → gap (200 - 60) / 2 = 70.
    const items = [box('a', 0, 0, 10, 10), box('c', 180, 50, 20, 10), box('b', 20, 90, 30, 10)];
    expect(distributeMoves(items, 'horizontal')).toEqual(new Map([['b', { x: 60, y: 0 }]]));
    expect(distributeMoves(items.slice(0, 2), 'horizontal').size).toBe(0);
  });

  it('orders by centre and works vertically; negative gaps overlap evenly', () => {
    const items = [box('a', 0, 0, 10, 100), box('b', 0, 40, 10, 100), box('c', 0, 120, 10, 100), box('d', 0, 100, 10, 10)];
    // Centres: a 50, d 105, b 90 → order a, b, d, c; span 0..220, sizes 310 → gap -30.
    const moves = distributeMoves(items, 'vertical');
    expect(moves.get('b')).toEqual({ x: 0, y: 30 });
    expect(moves.get('d')).toEqual({ x: 0, y: 40 });
    expect(moves.has('a')).toBe(false);
    expect(moves.has('c')).toBe(false);
  });
});

describe('arrange boxes and locks', () => {
  const rect = { id: 'r', type: 'rectangle', x: 10, y: 20, width: 100, height: 50, fill: '#fff', stroke: '#000', strokeWidth: 8, rotation: 0, zIndex: 0 } as CanvasObject;

  it('is the outline without stroke, chips or rotation slack', () => {
    expect(arrangeBoxOf(rect)).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    const ellipse = { id: 'e', type: 'ellipse', x: 0, y: 0, radiusX: 30, radiusY: 10, fill: '#fff', stroke: '#000', strokeWidth: 4, zIndex: 0 } as CanvasObject;
    expect(arrangeBoxOf(ellipse)).toEqual({ x: -30, y: -10, width: 60, height: 20 });
    const text = { id: 't', type: 'text', x: 5, y: 5, text: 'abc', fontSize: 10, fill: '#000', fontFamily: 'Arial', zIndex: 0 } as CanvasObject;
    expect(arrangeBoxOf(text, { x: 5, y: 5, width: 17, height: 12 })).toEqual({ x: 5, y: 5, width: 17, height: 12 });
  });

  it('reads a lock only when it is set to true', () => {
    expect(arrangeable(rect)).toBe(true);
    expect(arrangeable({ ...rect, locked: false } as CanvasObject)).toBe(true);
    expect(arrangeable({ ...rect, locked: true } as CanvasObject)).toBe(false);
  });

  it('keeps a move inside a bounded canvas', () => {
    // Canvas x -500..500; the rectangle's bounds (stroke included) end at 114.
    expect(clampArrangeMove(rect, { x: 1000, y: 0 }, bounded)).toEqual({ x: 386, y: 0 });
    expect(clampArrangeMove(rect, { x: 1000, y: 0 }, unlimited)).toEqual({ x: 1000, y: 0 });
  });
});

describe('snap', () => {
  const others: Bounds[] = [
    { x: 200, y: 0, width: 100, height: 100 },
    { x: 0, y: 400, width: 50, height: 50 },
  ];
  const index = snapIndex(others);

  it('pulls the nearest edge or centre within the threshold, each axis on its own', () => {
    // Left 197 → 200 (3 away); top 52 → 50 (the other's centre).
    const r = snapMove({ x: 197, y: 52, width: 40, height: 40 }, index, 6);
    expect([r.dx, r.dy]).toEqual([3, -2]);
    const vertical = r.guides.find((g) => g.axis === 'x')!;
    expect(vertical).toEqual({ axis: 'x', at: 200, from: 0, to: 100 });
    expect(r.guides.some((g) => g.axis === 'y' && g.at === 50)).toBe(true);
  });

  it('does nothing beyond the threshold', () => {
    const r = snapMove({ x: 500, y: 600, width: 10, height: 10 }, index, 6);
    expect(r).toEqual({ dx: 0, dy: 0, guides: [] });
  });

  it('centre to centre, the guide spanning both boxes', () => {
    // Centre x 26 → 25 (the small box's centre).
    const r = snapMove({ x: 16, y: 100, width: 20, height: 20 }, index, 6);
    expect(r.dx).toBe(-1);
    expect(r.guides).toContainEqual({ axis: 'x', at: 25, from: 100, to: 450 });
  });

  it('scales with many targets: the index is sorted', () => {
    const many = snapIndex(Array.from({ length: 10_000 }, (_, i) => ({ x: i * 37, y: (i % 100) * 53, width: 10, height: 10 })));
    for (let i = 1; i < many.x.length; i++) expect(many.x[i]).toBeGreaterThanOrEqual(many.x[i - 1]);
    expect(snapMove({ x: 3700 + 2, y: -1000, width: 30, height: 5 }, many, 6).dx).toBe(-2);
  });

  it('resizing snaps only the moving edges', () => {
    // Right edge 296 → 300; the left edge stays.
    const r = snapEdges({ x: 100, y: 500, width: 196, height: 30 }, { right: true }, index, 6);
    expect(r.box).toEqual({ x: 100, y: 500, width: 200, height: 30 });
    expect(r.guides).toEqual([{ axis: 'x', at: 300, from: 0, to: 530 }]);
    // The left edge would snap to 200 if it moved, but it does not.
    expect(snapEdges({ x: 198, y: 500, width: 50, height: 30 }, { right: true }, index, 6).box.x).toBe(198);
    // Top edge 403 → 400.
    expect(snapEdges({ x: 600, y: 403, width: 50, height: 30 }, { top: true, left: true }, index, 6).box).toEqual({ x: 600, y: 400, width: 50, height: 33 });
  });

  it('maps the transformer frame to the arrange box and back', () => {
    const frame0 = { x: 0, y: 0, width: 100, height: 120 };
    const box0 = { x: 0, y: 0, width: 100, height: 100 }; // a sticky with chips under it
    const frame = { x: 0, y: 0, width: 150, height: 180 };
    expect(boxInFrame(frame, frame0, box0)).toEqual({ x: 0, y: 0, width: 150, height: 150 });
    // The box's bottom snapped to 160: the frame grows from its fixed top.
    const f = frameForBox(frame, frame0, box0, { x: 0, y: 0, width: 150, height: 160 }, { bottom: true, right: true });
    expect(f.y).toBe(0);
    expect(f.height).toBeCloseTo(192);
    expect(boxInFrame(f, frame0, box0).height).toBeCloseTo(160);
    // Left edge moving: the frame's right edge stays.
    const g = frameForBox({ x: -50, y: 0, width: 150, height: 120 }, frame0, { x: 10, y: 0, width: 80, height: 100 }, { x: -40, y: 0, width: 130, height: 100 }, { left: true });
    expect(g.x + g.width).toBeCloseTo(100);
    expect(boxInFrame(g, frame0, { x: 10, y: 0, width: 80, height: 100 }).x).toBeCloseTo(-40);
  });
});

describe('pasting plain text', () => {
  const style = { color: '#112233', fontSize: 20 };
  const base = { id: 't1', zIndex: 7 };

  it('becomes a text object centred on the point, cleaned', () => {
    const r = planTextPaste('\r\nПривет,\r\nмир\u0000!\n', { x: 0, y: 0 }, style, unlimited, base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.object).toMatchObject({ id: 't1', type: 'text', text: 'Привет,\nмир!', fontSize: 20, fill: '#112233', zIndex: 7 });
    // Two lines of 7 characters: 7 × 20 × 0.6 = 84 wide, 2 × 24 = 48 high.
    expect([r.object.x, r.object.y]).toEqual([-42, -24]);
  });

  it('refuses empty and over-long text instead of cutting it', () => {
    expect(planTextPaste(' \n\t ', { x: 0, y: 0 }, style, unlimited, base)).toEqual({ ok: false, reason: 'empty', length: 0 });
    const long = 'я'.repeat(EDITOR_TEXT_MAX + 1);
    expect(planTextPaste(long, { x: 0, y: 0 }, style, unlimited, base)).toEqual({ ok: false, reason: 'too-long', length: EDITOR_TEXT_MAX + 1 });
    expect(planTextPaste('я'.repeat(EDITOR_TEXT_MAX), { x: 0, y: 0 }, style, unlimited, base).ok).toBe(true);
  });

  it('lands inside a bounded canvas even when the pointer is at or past its edge', () => {
    const r = planTextPaste('abc', { x: 499, y: 900 }, style, bounded, base);
    if (!r.ok) throw new Error('refused');
    // 3 × 12 = 36 wide, 24 high; canvas x ≤ 500, y ≤ 400.
    expect(r.object.x).toBe(464);
    expect(r.object.y).toBe(376);
  });
});

describe('snap to equal spacing', () => {
  const row = (xs: Array<[number, number]>): Bounds[] => xs.map(([x, w]) => ({ x, y: 0, width: w, height: 50 }));

  it('centres the box in the gap between its neighbours, the two gaps drawn', () => {
    const index = snapIndex(row([[0, 100], [300, 100]]));
    // Width 50 between 100 and 300: equal gaps put it at 175; from 172 that is 3 away.
    const r = snapMove({ x: 172, y: 10, width: 50, height: 20 }, index, 6);
    expect(r.dx).toBe(3);
    expect(r.guides).toContainEqual({ axis: 'y', at: 20, from: 100, to: 175 });
    expect(r.guides).toContainEqual({ axis: 'y', at: 20, from: 225, to: 300 });
  });

  it("repeats a neighbour's own gap beyond it, on either side", () => {
    const index = snapIndex(row([[0, 100], [150, 100]]));
    // Gap 50 between the two: next one at 300 (from 297) or, on the left, ending at -50 (from -103).
    expect(snapMove({ x: 297, y: 0, width: 50, height: 50 }, index, 6).dx).toBe(3);
    expect(snapMove({ x: -103, y: 0, width: 50, height: 50 }, index, 6).dx).toBe(3);
  });

  it('needs the boxes to face each other across the axis', () => {
    // The same row far below: nothing lines up beside the box, nothing to space against.
    const index = snapIndex([{ x: 0, y: 500, width: 100, height: 50 }, { x: 300, y: 500, width: 100, height: 50 }]);
    expect(snapMove({ x: 172, y: 0, width: 50, height: 20 }, index, 6)).toEqual({ dx: 0, dy: 0, guides: [] });
  });
});
