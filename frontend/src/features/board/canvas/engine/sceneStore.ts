/**
 * The board as the canvas sees it: every valid object and arrow with its scene item, a spatial
 * index (rbush) over their bounds for culling and hit-testing, and the ids changed since the last
 * frame. Yjs observations only mark ids; the work happens once per animation frame in flush(), so a
 * burst of remote updates costs one render, and only the changed items are rebuilt.
 */
import RBush from 'rbush';
import * as Y from 'yjs';
import {
  arrowSchema,
  getArrows,
  getObjects,
  objectToJSON,
  type Arrow,
  type Bounds,
  type CanvasObject,
} from '@wb/board-model';
import { objectToSceneItem, validArrowToSceneItem, validObjectToSceneItem, type SceneItem } from './render/scene.ts';

export interface Entry {
  id: string;
  kind: 'object' | 'arrow';
  obj: CanvasObject | null;
  arrow: Arrow | null;
  item: SceneItem;
  /** Paint order: objects by zIndex then id, arrows above every object. */
  order: [number, number, string];
  /** Bumped on every rebuild, so the node cache knows a node is stale. */
  version: number;
}

interface IndexBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: string;
}

const toBox = (b: Bounds, id: string): IndexBox => ({
  minX: b.x,
  minY: b.y,
  maxX: b.x + b.width,
  maxY: b.y + b.height,
  id,
});

const fromBox = (b: IndexBox): Bounds => ({ x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY });

export function comparePaintOrder(a: Entry, b: Entry): number {
  return a.order[0] - b.order[0] || a.order[1] - b.order[1] || (a.order[2] < b.order[2] ? -1 : a.order[2] > b.order[2] ? 1 : 0);
}

export class SceneStore {
  readonly entries = new Map<string, Entry>();
  private readonly tree = new RBush<IndexBox>();
  private readonly boxes = new Map<string, IndexBox>();
  /** object id → arrows that end on it, so a moved object redraws its arrows. */
  private readonly arrowsByEnd = new Map<string, Set<string>>();
  private dirtyObjects = new Set<string>();
  private dirtyArrows = new Set<string>();
  private version = 0;
  private readonly objects: Y.Map<Y.Map<unknown>>;
  private readonly arrows: Y.Map<Y.Map<unknown>>;
  /** Objects drawn by the canvas in place of the stored one (being dragged or transformed). */
  private readonly overrides = new Map<string, CanvasObject>();
  /** Objects edited in place (TextEditor): drawn without their text, which the editor shows. */
  private readonly hiddenText = new Set<string>();
  private readonly sceneCtx = { hideTextOf: this.hiddenText };
  objectCount = 0;
  /** Old and new bounds of everything the last flush() rebuilt: the region a partial redraw repaints. */
  changedBounds: Bounds[] = [];
  /** The id each of `changedBounds` belongs to (a live item's change leaves the tiles alone). */
  changedIds: string[] = [];

  constructor(
    readonly doc: Y.Doc,
    private readonly onDirty: () => void,
  ) {
    this.objects = getObjects(doc);
    this.arrows = getArrows(doc);
    this.objects.observeDeep(this.observeObjects);
    this.arrows.observeDeep(this.observeArrows);
    for (const id of this.objects.keys()) this.dirtyObjects.add(id);
    for (const id of this.arrows.keys()) this.dirtyArrows.add(id);
  }

  destroy(): void {
    this.objects.unobserveDeep(this.observeObjects);
    this.arrows.unobserveDeep(this.observeArrows);
  }

  private readonly observeObjects = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => {
    for (const event of events) markIds(event, this.objects, this.dirtyObjects);
    this.onDirty();
  };

  private readonly observeArrows = (events: Array<Y.YEvent<Y.AbstractType<unknown>>>) => {
    for (const event of events) markIds(event, this.arrows, this.dirtyArrows);
    this.onDirty();
  };

  get hasChanges(): boolean {
    return this.dirtyObjects.size > 0 || this.dirtyArrows.size > 0;
  }

  /** Rebuilds what changed; answers the ids whose drawing changed (removed ones included). */
  flush(): Set<string> {
    const changed = new Set<string>();
    this.changedBounds = [];
    this.changedIds = [];
    const objectIds = this.dirtyObjects;
    const arrowIds = this.dirtyArrows;
    this.dirtyObjects = new Set();
    this.dirtyArrows = new Set();
    for (const id of objectIds) {
      this.rebuildObject(id);
      changed.add(id);
      for (const arrowId of this.arrowsByEnd.get(id) ?? []) arrowIds.add(arrowId);
    }
    for (const id of arrowIds) {
      this.rebuildArrow(id);
      changed.add(id);
    }
    if (objectIds.size > 0) {
      let count = 0;
      for (const e of this.entries.values()) if (e.kind === 'object') count++;
      this.objectCount = count;
    }
    return changed;
  }

  private rebuildObject(id: string): void {
    const map = this.objects.get(id);
    // Deleted by someone else mid-drag: the preview goes with it (no ghost until the release).
    if (!(map instanceof Y.Map)) this.overrides.delete(id);
    const override = this.overrides.get(id);
    const obj = override ?? (map instanceof Y.Map ? objectToJSON(map) : null);
    // A stored object was validated by objectToJSON; a local drag preview is checked here.
    const item = !obj || obj.temporary ? null : override ? objectToSceneItem(obj, this.sceneCtx) : validObjectToSceneItem(obj, this.sceneCtx);
    if (!obj || !item) {
      this.remove(id);
      return;
    }
    this.put({ id, kind: 'object', obj, arrow: null, item, order: [0, obj.zIndex, id], version: ++this.version });
  }

  private rebuildArrow(id: string): void {
    const map = this.arrows.get(id);
    const parsed = map instanceof Y.Map ? arrowSchema.safeParse(map.toJSON()) : null;
    const previous = this.entries.get(id)?.arrow;
    if (previous) this.unlinkArrow(previous);
    const arrow = parsed?.success ? parsed.data : null;
    const from = arrow ? this.entries.get(arrow.fromId) : undefined;
    const to = arrow ? this.entries.get(arrow.toId) : undefined;
    if (arrow) this.linkArrow(arrow);
    const item = arrow && from?.obj && to?.obj ? validArrowToSceneItem(arrow, from.item.bounds, to.item.bounds) : null;
    if (!arrow || !item) {
      this.remove(id, false);
      return;
    }
    this.put({ id, kind: 'arrow', obj: null, arrow, item, order: [1, 0, id], version: ++this.version });
  }

  private linkArrow(a: Arrow): void {
    for (const end of [a.fromId, a.toId]) {
      let set = this.arrowsByEnd.get(end);
      if (!set) this.arrowsByEnd.set(end, (set = new Set()));
      set.add(a.id);
    }
  }

  private unlinkArrow(a: Arrow): void {
    for (const end of [a.fromId, a.toId]) this.arrowsByEnd.get(end)?.delete(a.id);
  }

  private put(entry: Entry): void {
    const old = this.boxes.get(entry.id);
    if (old) {
      this.tree.remove(old);
      this.changed(entry.id, fromBox(old));
    }
    this.changed(entry.id, entry.item.bounds);
    const box = toBox(entry.item.bounds, entry.id);
    this.tree.insert(box);
    this.boxes.set(entry.id, box);
    this.entries.set(entry.id, entry);
  }

  private changed(id: string, bounds: Bounds): void {
    this.changedBounds.push(bounds);
    this.changedIds.push(id);
  }

  private remove(id: string, unlink = true): void {
    const old = this.boxes.get(id);
    if (old) {
      this.tree.remove(old);
      this.changed(id, fromBox(old));
    }
    this.boxes.delete(id);
    const entry = this.entries.get(id);
    if (unlink && entry?.arrow) this.unlinkArrow(entry.arrow);
    this.entries.delete(id);
  }

  /** Bulk load for the first render: one rbush load instead of thousands of inserts. */
  initialLoad(): Set<string> {
    const objectIds = this.dirtyObjects;
    this.dirtyObjects = new Set();
    const boxes: IndexBox[] = [];
    for (const id of objectIds) {
      const map = this.objects.get(id);
      const obj = map instanceof Y.Map ? objectToJSON(map) : null;
      const item = obj && !obj.temporary ? validObjectToSceneItem(obj) : null;
      if (!obj || !item) continue;
      const box = toBox(item.bounds, id);
      boxes.push(box);
      this.boxes.set(id, box);
      this.entries.set(id, { id, kind: 'object', obj, arrow: null, item, order: [0, obj.zIndex, id], version: ++this.version });
    }
    this.tree.load(boxes);
    this.objectCount = this.entries.size;
    const changed = this.flush();
    for (const id of objectIds) changed.add(id);
    return changed;
  }

  search(area: Bounds): Entry[] {
    const out: Entry[] = [];
    for (const box of this.tree.search({ minX: area.x, minY: area.y, maxX: area.x + area.width, maxY: area.y + area.height })) {
      const entry = this.entries.get(box.id);
      if (entry) out.push(entry);
    }
    return out;
  }

  object(id: string): CanvasObject | null {
    return this.entries.get(id)?.obj ?? null;
  }

  arrowsOf(ids: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const id of ids) for (const a of this.arrowsByEnd.get(id) ?? []) out.add(a);
    return out;
  }

  allObjects(): CanvasObject[] {
    const out: CanvasObject[] = [];
    for (const e of this.entries.values()) if (e.obj) out.push(e.obj);
    return out;
  }

  allArrows(): Arrow[] {
    const out: Arrow[] = [];
    for (const e of this.entries.values()) if (e.arrow) out.push(e.arrow);
    return out;
  }

  /** Draws `obj` instead of the stored object until cleared (live drag/transform preview). */
  override(obj: CanvasObject): void {
    this.overrides.set(obj.id, obj);
    this.dirtyObjects.add(obj.id);
    this.onDirty();
  }

  /** Draws the object without (hidden) or with its text again. */
  hideText(id: string, hidden: boolean): void {
    if (hidden === this.hiddenText.has(id)) return;
    if (hidden) this.hiddenText.add(id);
    else this.hiddenText.delete(id);
    this.dirtyObjects.add(id);
    this.onDirty();
  }

  clearOverrides(): void {
    for (const id of this.overrides.keys()) this.dirtyObjects.add(id);
    this.overrides.clear();
    this.onDirty();
  }
}

/** The top-level ids an event touched: keys of the top map, or the entry a nested change belongs to. */
function markIds(event: Y.YEvent<Y.AbstractType<unknown>>, top: Y.Map<Y.Map<unknown>>, into: Set<string>): void {
  if (event.target === top) {
    for (const key of event.changes.keys.keys()) into.add(key);
    return;
  }
  const first = event.path[0];
  if (typeof first === 'string') into.add(first);
}
