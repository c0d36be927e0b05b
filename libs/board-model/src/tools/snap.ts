/**
 * Snapping while moving and resizing (issue 35 item 5; the spec is silent): the moving box's
 * edges and centre are pulled onto other objects' edges and centres within a threshold, and the
 * lines they now share are shown as guides; a moved box also snaps to equal spacing with its
 * neighbours. Pure: the canvas builds the index from the objects it
 * can see (through its spatial index) once per gesture, so each pointer move is a few binary
 * searches however many objects the board holds.
 */
import type { Bounds } from '../geometry.ts';

/** Screen pixels within which an edge or centre snaps (divided by the zoom for board units). */
export const SNAP_THRESHOLD_PX = 6;

/**
 * Targets of one gesture: the edge and centre values on each axis, sorted (typed arrays sort
 * natively: 10,000 objects index in a few ms), and the boxes, scanned only to draw a guide.
 */
export interface SnapIndex {
  /** Vertical lines: every box's left, centre and right. */
  x: Float64Array;
  /** Horizontal lines: every box's top, middle and bottom. */
  y: Float64Array;
  boxes: readonly Bounds[];
}

/** A guide to draw: axis 'x' is the vertical line x = at from y = from to y = to; 'y' the horizontal one. */
export interface Guide {
  axis: 'x' | 'y';
  at: number;
  from: number;
  to: number;
}

export interface Edges {
  left?: boolean;
  right?: boolean;
  top?: boolean;
  bottom?: boolean;
}

/** Values this close count as the same line (floating sums after a snap). */
const SAME = 1e-3;

export function snapIndex(boxes: Iterable<Bounds>): SnapIndex {
  const list = [...boxes];
  const x = new Float64Array(list.length * 3);
  const y = new Float64Array(list.length * 3);
  list.forEach((b, i) => {
    x.set([b.x, b.x + b.width / 2, b.x + b.width], i * 3);
    y.set([b.y, b.y + b.height / 2, b.y + b.height], i * 3);
  });
  return { x: x.sort(), y: y.sort(), boxes: list };
}

/** Index of the first value >= v. */
function lowerBound(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The signed distance from v to the nearest value, or null when none is within the threshold. */
function nearest(values: Float64Array, v: number, threshold: number): number | null {
  const i = lowerBound(values, v);
  let best: number | null = null;
  for (const j of [i - 1, i]) {
    if (j < 0 || j >= values.length) continue;
    const d = values[j] - v;
    if (Math.abs(d) <= threshold && (best === null || Math.abs(d) < Math.abs(best))) best = d;
  }
  return best;
}

/** The smallest pull of any of `values` onto a line, or null. */
function bestPull(lines: Float64Array, values: readonly number[], threshold: number): number | null {
  let best: number | null = null;
  for (const v of values) {
    const d = nearest(lines, v, threshold);
    if (d !== null && (best === null || Math.abs(d) < Math.abs(best))) best = d;
  }
  return best;
}

/** Guides through each of `values` that boxes of the index share, spanning the box and those boxes. */
function guidesAt(index: SnapIndex, axis: 'x' | 'y', values: readonly number[], span: [number, number]): Guide[] {
  const out: Guide[] = [];
  const seen = new Set<number>();
  const lines = axis === 'x' ? index.x : index.y;
  for (const v of values) {
    const key = Math.round(v / SAME);
    const i = lowerBound(lines, v - SAME);
    if (seen.has(key) || i >= lines.length || lines[i] > v + SAME) continue;
    seen.add(key);
    let [from, to] = span;
    // Only when something snapped: one pass over the boxes for the guide's extent.
    const onX = axis === 'x';
    for (const b of index.boxes) {
      const lo = onX ? b.x : b.y;
      const size = onX ? b.width : b.height;
      if (Math.abs(lo - v) > SAME && Math.abs(lo + size / 2 - v) > SAME && Math.abs(lo + size - v) > SAME) continue;
      const plo = onX ? b.y : b.x;
      const phi = plo + (onX ? b.height : b.width);
      if (plo < from) from = plo;
      if (phi > to) to = phi;
    }
    out.push({ axis, at: v, from, to });
  }
  return out;
}

const xs = (b: Bounds) => [b.x, b.x + b.width / 2, b.x + b.width];
const ys = (b: Bounds) => [b.y, b.y + b.height / 2, b.y + b.height];

/** Moving a box: how far to pull it (each axis on its own) and the guides it then touches. */
export function snapMove(box: Bounds, index: SnapIndex, threshold: number): { dx: number; dy: number; guides: Guide[] } {
  const ex = bestPull(index.x, xs(box), threshold);
  const ey = bestPull(index.y, ys(box), threshold);
  const sx = spacingPull(box, index.boxes, true, threshold);
  const sy = spacingPull(box, index.boxes, false, threshold);
  // Equal spacing wins an axis only when it pulls less than an edge or centre would.
  const spaceX = !!sx && (ex === null || Math.abs(sx.d) < Math.abs(ex));
  const spaceY = !!sy && (ey === null || Math.abs(sy.d) < Math.abs(ey));
  const dx = spaceX ? sx!.d : ex;
  const dy = spaceY ? sy!.d : ey;
  const moved = { ...box, x: box.x + (dx ?? 0), y: box.y + (dy ?? 0) };
  const guides = snapGuides(moved, index, dx !== null && !spaceX, dy !== null && !spaceY);
  if (spaceX) guides.push(...sx!.guides);
  if (spaceY) guides.push(...sy!.guides);
  return { dx: dx ?? 0, dy: dy ?? 0, guides };
}

/** One axis of a box: its extent along the axis and across it. */
const along = (b: Bounds, h: boolean) => (h ? { lo: b.x, hi: b.x + b.width, plo: b.y, phi: b.y + b.height } : { lo: b.y, hi: b.y + b.height, plo: b.x, phi: b.x + b.width });

/** The nearest box before (`dir` -1) or after (+1) the span [lo, hi] among those overlapping [plo, phi] across. */
function neighbour(boxes: readonly Bounds[], h: boolean, lo: number, hi: number, plo: number, phi: number, dir: -1 | 1): Bounds | null {
  let best: Bounds | null = null;
  let bestEdge = dir < 0 ? -Infinity : Infinity;
  // Runs over every target a few times per pointer move: plain numbers, no objects per box.
  for (const b of boxes) {
    const bplo = h ? b.y : b.x;
    if (bplo >= phi || bplo + (h ? b.height : b.width) <= plo) continue;
    const blo = h ? b.x : b.y;
    const bhi = blo + (h ? b.width : b.height);
    if (dir < 0 ? bhi <= lo && bhi > bestEdge : blo >= hi && blo < bestEdge) {
      best = b;
      bestEdge = dir < 0 ? bhi : blo;
    }
  }
  return best;
}

/**
 * Equal spacing along one axis (tldraw and Figma do it): the moving box centred in the gap between
 * its two neighbours, or one neighbour's own gap away from it. The guides are the equal gaps, drawn
 * across the middle of each pair's overlap.
 */
function spacingPull(box: Bounds, boxes: readonly Bounds[], h: boolean, threshold: number): { d: number; guides: Guide[] } | null {
  const m = along(box, h);
  const size = m.hi - m.lo;
  const before = neighbour(boxes, h, m.lo, m.hi, m.plo, m.phi, -1);
  const after = neighbour(boxes, h, m.lo, m.hi, m.plo, m.phi, 1);
  const options: Array<{ lo: number; pairs: Array<[Bounds | 'box', Bounds | 'box']> }> = [];
  if (before && after) options.push({ lo: (along(before, h).hi + along(after, h).lo - size) / 2, pairs: [[before, 'box'], ['box', after]] });
  if (before) {
    const b = along(before, h);
    const further = neighbour(boxes, h, b.lo, b.hi, b.plo, b.phi, -1);
    if (further) options.push({ lo: b.hi + (b.lo - along(further, h).hi), pairs: [[further, before], [before, 'box']] });
  }
  if (after) {
    const a = along(after, h);
    const further = neighbour(boxes, h, a.lo, a.hi, a.plo, a.phi, 1);
    if (further) options.push({ lo: a.lo - (along(further, h).lo - a.hi) - size, pairs: [['box', after], [after, further]] });
  }
  let best: (typeof options)[number] | null = null;
  for (const o of options) if (Math.abs(o.lo - m.lo) <= threshold && (!best || Math.abs(o.lo - m.lo) < Math.abs(best.lo - m.lo))) best = o;
  if (!best) return null;
  const d = best.lo - m.lo;
  const placed = h ? { ...box, x: box.x + d } : { ...box, y: box.y + d };
  const guides = best.pairs.map(([p, q]): Guide => {
    const a = along(p === 'box' ? placed : p, h);
    const b = along(q === 'box' ? placed : q, h);
    const at = (Math.max(a.plo, b.plo) + Math.min(a.phi, b.phi)) / 2;
    return { axis: h ? 'y' : 'x', at, from: a.hi, to: b.lo };
  });
  return { d, guides };
}

function snapGuides(box: Bounds, index: SnapIndex, onX: boolean, onY: boolean, values?: { x: number[]; y: number[] }): Guide[] {
  return [
    ...(onX ? guidesAt(index, 'x', values?.x ?? xs(box), [box.y, box.y + box.height]) : []),
    ...(onY ? guidesAt(index, 'y', values?.y ?? ys(box), [box.x, box.x + box.width]) : []),
  ];
}

/**
 * Resizing a box by the given edges: each moving edge may snap (the nearest on each axis wins);
 * the edges that do not move stay where they are.
 */
export function snapEdges(box: Bounds, edges: Edges, index: SnapIndex, threshold: number): { box: Bounds; guides: Guide[] } {
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  const xVals = [...(edges.left ? [box.x] : []), ...(edges.right ? [right] : [])];
  const yVals = [...(edges.top ? [box.y] : []), ...(edges.bottom ? [bottom] : [])];
  const pick = (lines: Float64Array, vals: number[]) => {
    let best: { v: number; d: number } | null = null;
    for (const v of vals) {
      const d = nearest(lines, v, threshold);
      if (d !== null && (!best || Math.abs(d) < Math.abs(best.d))) best = { v, d };
    }
    return best;
  };
  const px = pick(index.x, xVals);
  const py = pick(index.y, yVals);
  let { x, y } = box;
  let r = right;
  let b = bottom;
  if (px) {
    if (edges.left && px.v === box.x) x += px.d;
    else r += px.d;
  }
  if (py) {
    if (edges.top && py.v === box.y) y += py.d;
    else b += py.d;
  }
  const out = { x, y, width: r - x, height: b - y };
  const values = { x: px ? [px.v + px.d] : [], y: py ? [py.v + py.d] : [] };
  return { box: out, guides: snapGuides(out, index, !!px, !!py, values) };
}

/**
 * The transformer resizes its own box (`frame`, which may hold more than the arrange box: a
 * sticky's reaction chips, a stroke's ink), scaling everything inside it. These two turn one into
 * the other along a resize that started with `frame0` around `box0`.
 */
export function boxInFrame(frame: Bounds, frame0: Bounds, box0: Bounds): Bounds {
  const kx = frame.width / frame0.width;
  const ky = frame.height / frame0.height;
  return {
    x: frame.x + (box0.x - frame0.x) * kx,
    y: frame.y + (box0.y - frame0.y) * ky,
    width: box0.width * kx,
    height: box0.height * ky,
  };
}

/** The frame whose box is `box`, keeping the frame's edges that do not move where they are. */
export function frameForBox(frame: Bounds, frame0: Bounds, box0: Bounds, box: Bounds, edges: Edges): Bounds {
  const axis = (lo: number, size: number, lo0: number, size0: number, blo0: number, bsize0: number, blo: number, bsize: number, moveLo?: boolean, moveHi?: boolean): [number, number] => {
    if (moveLo === moveHi) return [lo, size];
    if (moveLo) {
      const hi = lo + size;
      const den = lo0 + size0 - blo0;
      if (den <= 0) return [lo, size];
      const k = (hi - blo) / den;
      return [hi - k * size0, k * size0];
    }
    const den = blo0 + bsize0 - lo0;
    if (den <= 0) return [lo, size];
    const k = (blo + bsize - lo) / den;
    return [lo, k * size0];
  };
  const [x, width] = axis(frame.x, frame.width, frame0.x, frame0.width, box0.x, box0.width, box.x, box.width, edges.left, edges.right);
  const [y, height] = axis(frame.y, frame.height, frame0.y, frame0.height, box0.y, box0.height, box.y, box.height, edges.top, edges.bottom);
  return { x, y, width, height };
}
