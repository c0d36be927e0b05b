/**
 * Z-order commands (issue 35 item 5; the spec is silent): bring forward, send backward, to front,
 * to back. The paint order is the object's numeric `zIndex`, ties broken by id, everywhere (canvas,
 * hit-testing, export). A reorder writes new `zIndex` values only on the objects it moves, picked
 * between their new neighbours (a fractional index): each value is one field of the object's
 * Y.Map, so two people reordering at once converge (last writer per object) and every client sorts
 * the same numbers the same way. Old objects (all zIndex 0) keep their order by id.
 */
import { boundsIntersect, boundsOf, type Bounds } from '../geometry.ts';
import type { CanvasObject } from '../objects.ts';

export const ZORDER_ACTIONS = ['forward', 'backward', 'front', 'back'] as const;
export type ZOrderAction = (typeof ZORDER_ACTIONS)[number];

/** What a reorder reads of an object. */
export interface ZItem {
  id: string;
  zIndex: number;
  bounds: Bounds;
}

export const zItemOf = (obj: CanvasObject, bounds: Bounds = boundsOf(obj)): ZItem => ({ id: obj.id, zIndex: obj.zIndex, bounds });

/** Paint order: lower zIndex first, ties by id (the same rule the renderer and topmostHit use). */
export function compareZ(a: { id: string; zIndex: number }, b: { id: string; zIndex: number }): number {
  return a.zIndex - b.zIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The board's objects in paint order after `action` on `selected`. */
export function reorder(items: readonly ZItem[], selected: ReadonlySet<string>, action: ZOrderAction): ZItem[] {
  const order = [...items].sort(compareZ);
  const picked = order.filter((o) => selected.has(o.id));
  const rest = order.filter((o) => !selected.has(o.id));
  if (action === 'front') return [...rest, ...picked];
  if (action === 'back') return [...picked, ...rest];
  // One step: each selected object passes the nearest unselected object that overlaps it (as in
  // tldraw; passing an object elsewhere on the board would change nothing one can see). Top-down
  // for forward, bottom-up for backward, so selected objects keep their order among themselves.
  const up = action === 'forward';
  const list = up ? order : order.reverse();
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i];
    if (!selected.has(item.id)) continue;
    let j = i + 1;
    while (j < list.length && (selected.has(list[j].id) || !boundsIntersect(list[j].bounds, item.bounds))) j++;
    if (j >= list.length) continue;
    list.splice(i, 1);
    list.splice(j, 0, item);
  }
  return up ? list : list.reverse();
}

/**
 * New zIndex values that give `wanted` (every object, in its new paint order): only the objects out
 * of place (`moved`, else the fewest found by a longest run in order) are written, each run of
 * them spread between its fixed neighbours. When numbers run out
 * (equal neighbours, e.g. old objects all at 0, or a gap halved too often) every object is
 * renumbered 0..n-1 instead.
 */
export function zPatches(wanted: readonly ZItem[], moved?: ReadonlySet<string>): Map<string, number> {
  const fixed = moved ? new Set(wanted.filter((w) => !moved.has(w.id)).map((w) => w.id)) : stableIds(wanted);
  const out = new Map<string, number>();
  let ok = true;
  for (let i = 0; i < wanted.length && ok; ) {
    if (fixed.has(wanted[i].id)) {
      i++;
      continue;
    }
    let end = i;
    while (end < wanted.length && !fixed.has(wanted[end].id)) end++;
    const low = i > 0 ? wanted[i - 1].zIndex : undefined;
    const high = end < wanted.length ? wanted[end].zIndex : undefined;
    const count = end - i;
    for (let k = 0; k < count; k++) {
      const z =
        low === undefined && high === undefined
          ? k
          : low === undefined
            ? Math.floor(high!) - (count - k)
            : high === undefined
              ? Math.floor(low) + k + 1
              : low + ((high - low) * (k + 1)) / (count + 1);
      const prev = k === 0 ? low : out.get(wanted[i + k - 1].id)!;
      if (!Number.isFinite(z) || (prev !== undefined && !(z > prev)) || (high !== undefined && !(z < high))) ok = false;
      out.set(wanted[i + k].id, z);
    }
    i = end;
  }
  if (ok) {
    const old = new Map(wanted.map((w) => [w.id, w.zIndex]));
    for (const [id, z] of out) if (old.get(id) === z) out.delete(id);
    return out;
  }
  const renumbered = new Map<string, number>();
  wanted.forEach((w, i) => {
    if (w.zIndex !== i) renumbered.set(w.id, i);
  });
  return renumbered;
}

/**
 * The ids that may keep their zIndex: the longest run of objects (in the new order) whose old
 * paint order is already increasing, so a move to the front writes only the moved objects.
 */
function stableIds(wanted: readonly ZItem[]): Set<string> {
  // Longest increasing subsequence by compareZ, O(n log n).
  const tails: number[] = [];
  const prev = new Array<number>(wanted.length).fill(-1);
  for (let i = 0; i < wanted.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareZ(wanted[tails[mid]], wanted[i]) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const ids = new Set<string>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) ids.add(wanted[i].id);
  return ids;
}

/** The zIndex writes of `action` on `selected` (empty when nothing would change). */
export function zOrderPatches(items: readonly ZItem[], selected: ReadonlySet<string>, action: ZOrderAction): Map<string, number> {
  if (selected.size === 0) return new Map();
  return zPatches(reorder(items, selected, action), selected);
}
