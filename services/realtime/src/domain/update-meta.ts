import * as Y from 'yjs';
import { imageSrcAllowed } from '@wb/board-model';
import {
  clockOf,
  isUnplacedValue,
  keyOf,
  neighbourOf,
  parentNamed,
  singleValueOf,
  storedKeyOf,
  type ItemStore,
  type Struct,
} from '../core/internals.ts';

/** The one field name of the board document whose value a browser fetches: an image object's `src`. */
const SRC_FIELD = 'src';
/** How far a chain of overwrites within one update is followed to find the field it writes. */
const MAX_CHAIN = 16;

export interface UpdateMeta {
  /** Each client's first clock in the update. */
  from: Map<number, number>;
  /** No structs and an empty delete set. */
  empty: boolean;
  /**
   * Values the update may write under `src` (image sources), undefined when none: items that name
   * `src` as their field, and values whose field is known only through a neighbour (an overwrite
   * of an existing field names the previous value, not the field).
   */
  values: Struct[] | undefined;
  /** The decoded structs, kept only when `values` is set (to follow a neighbour within the update). */
  structs: Struct[] | undefined;
}

/**
 * What the server reads of a client's update before queueing it: each client's first clock (to
 * tell whether the copy holds any of it already), whether it carries anything at all, and the
 * values that may be image sources. The whole update is decoded, delete set included, so a
 * malformed one throws here, before it is stored; the rest comes from the same decoded structs (a
 * few property reads per struct, no second decode).
 */
export function readUpdateMeta(update: Uint8Array): UpdateMeta {
  const { structs, ds } = Y.decodeUpdate(update);
  const from = new Map<number, number>();
  let values: Struct[] | undefined;
  for (const s of structs) {
    if (!from.has(s.id.client)) from.set(s.id.client, s.id.clock);
    if (keyOf(s) === SRC_FIELD || isUnplacedValue(s)) (values ??= []).push(s);
  }
  return { from, empty: structs.length === 0 && ds.clients.size === 0, values, structs: values && structs };
}

/**
 * Where the neighbours of an update's items are looked for besides the copy: the update itself,
 * then the updates the server accepted before it that are not in the copy yet (they wait for the
 * store). Those are read only when a neighbour is missing from both, which is rare: an overwrite of
 * a field the same client wrote a moment before, while the store was slow. Each accepted update is
 * decoded once however many later updates look into it, and the structs are indexed per client, so
 * an update of many overwrites costs a binary search per neighbour, not a scan of everything
 * waiting (a hostile client could otherwise make each of its messages scan megabytes).
 */
class Neighbours {
  // Built at the first neighbour missing from the copy: most overwrites name a value the copy holds.
  private ownIndex: StructIndex | null = null;
  private acceptedIndex: StructIndex | null = null;
  constructor(
    private readonly own: readonly Struct[],
    private readonly accepted: Iterable<Uint8Array>,
  ) {}

  find(id: Y.ID): Struct | undefined {
    return (
      lookUp((this.ownIndex ??= indexOf([this.own])), id) ??
      lookUp((this.acceptedIndex ??= indexOf([...this.accepted].map(structsOf))), id)
    );
  }
}

/** Structs by client, sorted by clock. */
type StructIndex = Map<number, Struct[]>;

const decodedStructs = new WeakMap<Uint8Array, readonly Struct[]>();

function structsOf(update: Uint8Array): readonly Struct[] {
  let structs = decodedStructs.get(update);
  if (!structs) decodedStructs.set(update, (structs = Y.decodeUpdate(update).structs));
  return structs;
}

function indexOf(lists: ReadonlyArray<readonly Struct[]>): StructIndex {
  const index: StructIndex = new Map();
  for (const list of lists) {
    for (const s of list) {
      const mine = index.get(s.id.client);
      if (mine) mine.push(s);
      else index.set(s.id.client, [s]);
    }
  }
  for (const mine of index.values()) mine.sort((a, b) => a.id.clock - b.id.clock);
  return index;
}

function lookUp(index: StructIndex, id: Y.ID): Struct | undefined {
  const list = index.get(id.client);
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = list[mid]!;
    if (id.clock < s.id.clock) hi = mid - 1;
    else if (id.clock >= s.id.clock + s.length) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/** The map field an item writes, following its neighbours to where the field is named. */
function fieldOf(item: Struct, neighbours: Neighbours, store: ItemStore): string | null | undefined {
  let cur: Struct | undefined = item;
  for (let depth = 0; depth < MAX_CHAIN && cur; depth++) {
    if (keyOf(cur) !== null || parentNamed(cur)) return keyOf(cur);
    const id = neighbourOf(cur);
    if (!id) return null;
    if (id.clock < clockOf(store, id.client)) return storedKeyOf(store, id);
    cur = neighbours.find(id);
  }
  // A neighbour in neither the copy, the update nor an update accepted before it (Yjs keeps such an
  // update pending), or a chain too long to follow: no verdict means no.
  return undefined;
}

/**
 * Whether an update's `src` writes are all allowed on `boardId` (board-model imageSrcAllowed: the
 * board's own store or a small raster data URL). What the copy holds already (a reconnecting
 * client's resend of an old board) is not judged again. A value that is not one plain string
 * (binary, a nested type, JSON content) is refused. `accepted`: the board's updates accepted before
 * this one and not in the copy yet (an overwrite names the value it replaces, which may be there).
 */
export function imageSourcesAllowed(
  meta: UpdateMeta,
  boardId: string,
  store: ItemStore,
  accepted: Iterable<Uint8Array> = [],
): boolean {
  const { values, structs } = meta;
  if (!values || !structs) return true;
  const neighbours = new Neighbours(structs, accepted);
  for (const item of values) {
    if (item.id.clock < clockOf(store, item.id.client)) continue;
    const field = keyOf(item) === SRC_FIELD ? SRC_FIELD : fieldOf(item, neighbours, store);
    if (field === undefined) return false;
    if (field !== SRC_FIELD) continue;
    const single = singleValueOf(item);
    if (!single || !imageSrcAllowed(single.value, boardId)) return false;
  }
  return true;
}
