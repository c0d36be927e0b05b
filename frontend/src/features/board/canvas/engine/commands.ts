/**
 * Every edit of the board document made by this user. Each command is one Yjs transaction with
 * the local origin, so Y.UndoManager (history.ts) undoes it as one step; clearing the board is the
 * one exception (§5: not undoable, the confirmation says so). The rules (what a paste or a
 * transform produces) are pure functions of @wb/board-model; this module applies them.
 * Tools and the React shell call these; none of them writes the document itself.
 */
import * as Y from 'yjs';
import {
  DEFAULT_ARROW_COLOR,
  DEFAULT_ARROW_STROKE_WIDTH,
  addArrow,
  addObject,
  applyPatch,
  boundsOf,
  canvasObjectSchema,
  clampMove,
  clearBoard,
  colorPatch,
  copySelection,
  deleteObjects,
  getArrows,
  isInsideCanvas,
  newId,
  newImage,
  nextZIndex,
  planPaste,
  readClipboardText,
  transformPatch,
  translatePatch,
  unionBounds,
  unlockedIds,
  updateObject,
  type ArrowInput,
  type CanvasLimits,
  type CanvasObject,
  type Point,
} from '@wb/board-model';
import { LABELS } from '../texts.ts';
import type { TransformedNode } from './render/LiveLayer.ts';
import type { SceneStore } from './sceneStore.ts';
import { StructureCommands } from './structureCommands.ts';

export type ArrowStyle = 'solid' | 'dashed' | 'dotted';
export type Limits = Pick<CanvasLimits, 'max_width' | 'max_height' | 'unlimited'>;

/** What the commands read from the engine at the moment they run. */
export interface CommandContext {
  readonly doc: Y.Doc;
  readonly origin: unknown;
  readonly history: Y.UndoManager;
  readonly scene: SceneStore;
  readonly readOnly: boolean;
  readonly limits: Limits;
  readonly selection: ReadonlySet<string>;
  readonly arrowStyle: ArrowStyle;
  /** Which image sources may be written to this board; null: every source. */
  readonly imageSrcFilter: ((src: string) => boolean) | null;
  setSelection(ids: Iterable<string>): void;
  viewportCentre(): Point;
  message(text: string, kind: 'info' | 'error'): void;
}

export class Commands {
  /** How many times each clipboard text was pasted here: each paste lands 20 px further. */
  private readonly pasteCounts = new Map<string, number>();

  constructor(private readonly ctx: CommandContext) {}

  /** Z-order, group, lock and the eraser's delete (structureCommands.ts). */
  get structure(): StructureCommands {
    return (this.structureCommands ??= new StructureCommands(this.ctx));
  }
  private structureCommands: StructureCommands | undefined;

  private transact(fn: () => void): void {
    this.ctx.doc.transact(fn, this.ctx.origin);
  }

  /** Adds objects (and arrows) as one undoable command. */
  add(objects: CanvasObject[], arrows: ArrowInput[] = []): void {
    const { doc, origin } = this.ctx;
    if (this.ctx.readOnly || (objects.length === 0 && arrows.length === 0)) return;
    this.transact(() => {
      for (const obj of objects) addObject(doc, obj, origin);
      for (const a of arrows) addArrow(doc, a, origin);
    });
  }

  /** Adds objects and selects them (templates, paste, images). */
  private addAndSelect(objects: CanvasObject[], arrows: ArrowInput[] = []): void {
    this.add(objects, arrows);
    this.ctx.setSelection(objects.map((o) => o.id));
  }

  /** The end of a drag of the selection: every object moved by `delta`. */
  move(originals: CanvasObject[], delta: Point): void {
    const { doc, origin } = this.ctx;
    this.transact(() => {
      for (const obj of originals) updateObject(doc, obj.id, translatePatch(obj, delta.x, delta.y), origin);
    });
  }

  /** The end of a resize/rotate with the transformer. */
  transform(nodes: TransformedNode[], inGroup: boolean): void {
    const { doc, origin, scene, limits } = this.ctx;
    this.transact(() => {
      for (const node of nodes) {
        const obj = scene.object(node.id);
        if (!obj) continue;
        const patch = transformPatch(obj, node, inGroup);
        const next = applyPatch(obj, patch);
        // A bounded canvas refuses a result that reaches outside it (the node snaps back on redraw).
        if (!isInsideCanvas(boundsOf(next), limits) && isInsideCanvas(boundsOf(obj), limits)) continue;
        updateObject(doc, node.id, patch, origin);
      }
    });
  }

  /** An arrow between two objects in the toolbar's arrow style. */
  arrowInput(fromId: string, toId: string): ArrowInput {
    return { id: newId(), fromId, toId, style: this.ctx.arrowStyle, color: DEFAULT_ARROW_COLOR, strokeWidth: DEFAULT_ARROW_STROKE_WIDTH };
  }

  connect(fromId: string, toId: string): void {
    const arrow = this.arrowInput(fromId, toId);
    this.transact(() => addArrow(this.ctx.doc, arrow, this.ctx.origin));
  }

  /** The text of an existing sticky or text object. */
  setText(id: string, text: string): void {
    if (this.ctx.readOnly) return;
    this.transact(() => updateObject(this.ctx.doc, id, { text }, this.ctx.origin));
  }

  deleteSelection(): void {
    const { doc, origin, selection } = this.ctx;
    if (this.ctx.readOnly || selection.size === 0) return;
    // Locked objects stay (and stay selected) until unlocked.
    const ids = unlockedIds((id) => this.ctx.scene.object(id), selection);
    this.transact(() => {
      deleteObjects(doc, ids, origin);
      const arrows = getArrows(doc);
      for (const id of ids) if (arrows.has(id)) arrows.delete(id);
    });
    this.ctx.setSelection([...selection].filter((id) => !ids.includes(id)));
  }

  /** Stroke for shapes and strokes, fill for text, background for stickies, colour of arrows. */
  recolorSelection(color: string): void {
    const { doc, origin, selection, scene } = this.ctx;
    if (this.ctx.readOnly || selection.size === 0) return;
    this.transact(() => {
      for (const id of selection) {
        const obj = scene.object(id);
        if (!obj || obj.locked) continue;
        const patch = colorPatch(obj, color);
        if (Object.keys(patch).length > 0) updateObject(doc, obj.id, patch, origin);
      }
      const arrows = getArrows(doc);
      for (const id of selection) {
        const a = arrows.get(id);
        if (a instanceof Y.Map) a.set('color', color);
      }
    });
  }

  undo(): void {
    if (!this.ctx.readOnly) this.ctx.history.undo();
  }

  redo(): void {
    if (!this.ctx.readOnly) this.ctx.history.redo();
  }

  /** Clears the board for everyone; not undoable (§5 confirmation text says so), so history goes too. */
  clear(): void {
    if (this.ctx.readOnly) return;
    clearBoard(this.ctx.doc, 'clear-board');
    this.ctx.history.clear();
    this.ctx.setSelection([]);
  }

  /** The clipboard text of the selection, or null when nothing (or nothing copyable) is selected. */
  copy(): string | null {
    const { scene, selection } = this.ctx;
    if (this.ctx.readOnly || selection.size === 0) return null;
    const payload = copySelection(scene.allObjects(), scene.allArrows(), selection);
    if (payload.objects.length === 0) return null;
    return JSON.stringify(payload);
  }

  /** Pastes clipboard text; answers false when the text is not ours (the caller may try other content). */
  paste(text: string): boolean {
    const say = (t: string) => this.ctx.message(t, 'error');
    if (this.ctx.readOnly) return true;
    const read = readClipboardText(text);
    if (!read.ok) {
      if (read.error) say(read.error);
      return read.error !== null;
    }
    let payload = read.payload;
    const accepts = this.ctx.imageSrcFilter;
    if (accepts) {
      // Another board's images (or outside addresses) stay behind; their arrows go with them.
      const kept = payload.objects.filter((o) => o.type !== 'image' || accepts(o.src));
      if (kept.length < payload.objects.length) {
        say(LABELS.imageForeignSkipped);
        if (kept.length === 0) return true;
        payload = { ...payload, objects: kept };
      }
    }
    const count = (this.pasteCounts.get(text) ?? 0) + 1;
    this.pasteCounts.set(text, count);
    const plan = planPaste(payload, {
      offset: { x: 20 * count, y: 20 * count },
      zIndexStart: nextZIndex(this.ctx.doc),
      limits: this.ctx.limits,
    });
    if (!plan.ok) {
      say(plan.error);
      return true;
    }
    this.addAndSelect(plan.objects, plan.arrows);
    return true;
  }

  /** Inserts template objects centred on the viewport, as one command, and selects them. */
  insertAtCentre(objects: CanvasObject[]): void {
    if (this.ctx.readOnly || objects.length === 0) return;
    const bounds = unionBounds(objects.map(boundsOf))!;
    const c = this.ctx.viewportCentre();
    const wanted = { x: c.x - (bounds.x + bounds.width / 2), y: c.y - (bounds.y + bounds.height / 2) };
    const d = clampMove(bounds, wanted.x, wanted.y, this.ctx.limits);
    const z = nextZIndex(this.ctx.doc);
    this.addAndSelect(objects.map((o, i) => canvasObjectSchema.parse({ ...applyPatch(o, translatePatch(o, d.x, d.y)), zIndex: z + i })));
  }

  /** Objects laid out at fixed board positions (the JSON sticker grid of §9). */
  insertAsIs(objects: CanvasObject[]): void {
    if (this.ctx.readOnly || objects.length === 0) return;
    const z = nextZIndex(this.ctx.doc);
    this.addAndSelect(objects.map((o, i) => ({ ...o, zIndex: z + i })));
  }

  insertImage(src: string, natural: { width: number; height: number }, at?: Point): void {
    if (this.ctx.readOnly) return;
    const centre = at ?? this.ctx.viewportCentre();
    let obj = newImage(centre, src, natural, { id: newId(), zIndex: nextZIndex(this.ctx.doc) });
    const d = clampMove(boundsOf(obj), 0, 0, this.ctx.limits);
    obj = { ...obj, x: obj.x + d.x, y: obj.y + d.y };
    this.addAndSelect([obj]);
  }
}
