/**
 * The canvas behind <BoardCanvas>: wires the parts together and is the one object the React shell
 * (and the browser tests, through `window.__wbCanvas`) talks to. It holds the page's settings (role,
 * limits, background); what the UI shows (tool, style, selection, history, editor...) lives in the
 * store the shell reads (canvasState.ts). It delegates:
 *  - rendering → render/Renderer.ts (layers, frame loop) and render/LiveLayer.ts (selection, temps);
 *  - input → input/PointerInput.ts (pointer, wheel, touch) and one state per tool in input/tools/;
 *  - edits of the document → commands.ts (each one undoable through history.ts);
 *  - the scene (document → drawable items, spatial index) → sceneStore.ts.
 * Nothing here re-renders React per frame.
 */
import * as Y from 'yjs';
import {
  READ_ONLY_TOOLS,
  boundsOf,
  getObjects,
  unionBounds,
  type ArrowInput,
  type Background,
  type BoardRole,
  type Bounds,
  type Camera,
  type CanvasObject,
  type Point,
  type Tool,
  type ToolStyle,
} from '@wb/board-model';
import { ENGINE_START, type CanvasStore } from './canvasState.ts';
import { Commands, type ArrowStyle, type CommandContext, type Limits } from './commands.ts';
import { createHistory } from './history.ts';
import { EditorSession } from './input/editing.ts';
import { hitAt } from './input/hit.ts';
import { LongPress } from './input/longPress.ts';
import { PointerInput } from './input/PointerInput.ts';
import { installResizeSnap } from './input/snapping.ts';
import { toolCursor, type ToolContext } from './input/tool.ts';
import { ArrowTool } from './input/tools/ArrowTool.ts';
import { createTools } from './input/tools/index.ts';
import { onImageSettled } from './render/images.ts';
import { Renderer, type EngineStats } from './render/Renderer.ts';
import { SceneStore, type Entry } from './sceneStore.ts';
import { withGroups } from './structureCommands.ts';
import { Viewport } from './viewport.ts';

export type { ArrowStyle } from './commands.ts';
export type { EditRequest } from './input/editing.ts';
export type { EngineStats } from './render/Renderer.ts';

/** What the engine tells the page that is not state the UI draws (that goes to the store). */
export interface EngineOutputs {
  /** A gesture moved the camera (the page saves it, debounced). */
  camera?(camera: Camera): void;
  /** The image tool was pressed at this board point: the page asks for a file. */
  pickImage?(at: Point): void;
  cursor?(point: Point | null): void;
  exportArea?(area: Bounds): void;
  count?(count: number): void;
  contextMenu?(event: { objectId: string | null; clientX: number; clientY: number }): void;
  message?(text: string, kind: 'info' | 'error'): void;
}

export class CanvasEngine implements ToolContext, CommandContext {
  /** The scene of the document (named `store` for the tests' and benchmark's hook). */
  readonly store: SceneStore;
  readonly history: Y.UndoManager;
  readonly viewport: Viewport;
  readonly commands: Commands;
  readonly editor: EditorSession;
  readonly arrow: ArrowTool;
  private readonly renderer: Renderer;
  private readonly input: PointerInput;
  /**
   * Which image sources may be written to this board (the page: the board's own store or a small
   * data URL; the server refuses the rest, and a refused update would leave this client's later
   * edits waiting for it). Null: every source.
   */
  imageSrcFilter: ((src: string) => boolean) | null = null;
  limits: Limits = { max_width: 0, max_height: 0, unlimited: true };
  private role: BoardRole = 'owner';
  private background: Background = 'white';
  private readonly unsubscribeImages: () => void;
  /** A finger held still opens the context menu (input/longPress.ts). */
  private readonly longPress: LongPress;

  constructor(
    readonly container: HTMLDivElement,
    readonly doc: Y.Doc,
    readonly origin: unknown,
    /** The store the shell reads; a new engine resets its part. */
    readonly state: CanvasStore,
    private readonly events: EngineOutputs,
  ) {
    state.set(ENGINE_START);
    this.viewport = new Viewport(container.clientWidth, container.clientHeight);
    this.store = new SceneStore(doc, () => this.invalidate());
    this.renderer = new Renderer(container, this.viewport, this.store, {
      beforeFrame: () => this.input.applyTouch(),
      pruneSelection: () => this.pruneSelection(),
      sceneChanged: () => {
        this.events.count?.(this.store.objectCount);
        this.updateOverlay();
      },
      overlayMoved: () => this.updateOverlay(),
      liveIds: () => this.liveIds(),
      selection: () => this.selection,
      // Locked objects get no handles (issue 35 item 5): they are not resized until unlocked.
      editable: () => !this.readOnly && this.tool === 'select' && !this.selectedObjects().some((o) => o.locked),
      background: () => this.background,
      onTransform: () => this.updateOverlay(),
      onTransformEnd: (nodes, inGroup) => {
        this.commands.transform(nodes, inGroup);
        // Nodes are rebuilt from the document (scale back to 1); unchanged ones too.
        this.live.rebuild();
        this.renderer.invalidate({ live: true });
      },
    });
    this.history = createHistory(doc, origin, () =>
      state.set({ history: { canUndo: this.history.canUndo(), canRedo: this.history.canRedo() } }),
    );
    this.commands = new Commands(this);
    this.editor = new EditorSession(this, (editing) => state.set({ editing }));
    this.arrow = new ArrowTool(this, (arrowPending) => state.set({ arrowPending }));
    this.input = new PointerInput(this, this.renderer.stage, createTools(this, this.editor), this.arrow, this.editor, {
      cursor: (p) => this.events.cursor?.(p),
      contextMenu: (ev) => this.events.contextMenu?.(ev),
      invalidate: () => this.invalidate(),
    });
    installResizeSnap(this);
    this.longPress = new LongPress(container, () => this.tool === 'select' && this.canSelect);
    this.unsubscribeImages = onImageSettled(() => {
      this.live.rebuild();
      this.renderer.invalidate({ scene: true, live: true });
    });
    this.invalidate();
  }

  destroy(): void {
    this.renderer.destroy();
    this.unsubscribeImages();
    this.store.destroy();
    this.history.destroy();
    this.input.destroy();
    this.longPress.destroy();
  }

  // ---------------------------------------------------------------- parts, for tools and tests

  get scene(): SceneStore {
    return this.store;
  }

  get live() {
    return this.renderer.live;
  }

  get stats(): EngineStats {
    return this.renderer.stats;
  }

  get camera(): Camera {
    return this.viewport.camera;
  }

  /** The benchmark's photograph of a gesture's frame: no frame is drawn while held. */
  holdFrames(held: boolean): void {
    this.renderer.hold(held);
  }

  /** The konva transformer (read by a test: read-only roles get no handles). */
  get transformer() {
    return this.renderer.live.transformer;
  }

  // ---------------------------------------------------------------- state (the store's engine part)

  get tool(): Tool {
    return this.state.getState().tool;
  }

  get style(): ToolStyle {
    return this.state.getState().style;
  }

  get arrowStyle(): ArrowStyle {
    return this.state.getState().arrowStyle;
  }

  get selection(): ReadonlySet<string> {
    return this.state.getState().selection;
  }

  // ---------------------------------------------------------------- settings from the page

  get readOnly(): boolean {
    return this.role === 'viewer' || this.role === 'guest';
  }

  get canSelect(): boolean {
    return this.role !== 'guest';
  }

  setRole(role: BoardRole): void {
    this.role = role;
    if (!this.canSelect) this.setSelection([]);
    if (this.readOnly && !READ_ONLY_TOOLS.includes(this.tool)) this.setTool(this.canSelect ? 'select' : 'hand');
    if (!this.canSelect && this.tool === 'select') this.setTool('hand');
    this.renderer.invalidate({ live: true });
  }

  setLimits(limits: Limits): void {
    this.limits = limits;
  }

  setBackground(background: Background): void {
    this.background = background;
    this.renderer.invalidate({ camera: true });
  }

  setSize(width: number, height: number): void {
    const v = this.viewport;
    if (width < 1 || height < 1 || (width === v.width && height === v.height)) return;
    v.width = width;
    v.height = height;
    this.renderer.resize(width, height);
  }

  /**
   * `notify` marks a gesture (pan, zoom): the static bitmap follows by CSS until the camera rests.
   * Without it (the page restoring a saved view) the scene is redrawn sharp at once.
   */
  setCamera(camera: Camera, notify = false): void {
    this.viewport.camera = { ...camera };
    this.renderer.invalidate({ camera: true, scene: !notify });
    if (notify) this.events.camera?.(this.viewport.camera);
  }

  moveCamera(camera: Camera): void {
    this.setCamera(camera, true);
  }

  setTool(tool: Tool): void {
    if (this.readOnly && !READ_ONLY_TOOLS.includes(tool)) return;
    if (tool === 'select' && !this.canSelect) return;
    this.arrow.cancel();
    this.state.set({ tool });
    this.container.style.cursor = toolCursor(tool);
    this.renderer.invalidate({ live: true });
  }

  setStyle(patch: Partial<ToolStyle>): void {
    this.state.set({ style: { ...this.style, ...patch } });
  }

  setArrowStyle(arrowStyle: ArrowStyle): void {
    this.state.set({ arrowStyle });
  }

  setSpace(down: boolean): void {
    this.input.setSpace(down);
  }

  restCursor(): string {
    return this.input.space ? 'grab' : toolCursor(this.tool);
  }

  // ---------------------------------------------------------------- coordinates and reading

  toBoard(screen: Point): Point {
    return this.viewport.toBoard(screen);
  }

  toScreen(board: Point): Point {
    return this.viewport.toScreen(board);
  }

  viewportCentre(): Point {
    return this.viewport.centre();
  }

  /** The selection's bounds on screen (for the connected-sticker buttons and the editor), or null. */
  selectionBox(): Bounds | null {
    const bounds = unionBounds(this.selectedObjects().map(boundsOf));
    return bounds ? this.viewport.boxOnScreen(bounds) : null;
  }

  selectedObjects(): CanvasObject[] {
    return [...this.selection].flatMap((id) => {
      const o = this.store.object(id);
      return o ? [o] : [];
    });
  }

  hitAt(board: Point): Entry | null {
    return hitAt(this.store, board, this.viewport.camera.scale);
  }

  objectCount(): number {
    return getObjects(this.doc).size;
  }

  invalidate(): void {
    this.renderer.invalidate();
  }

  // ---------------------------------------------------------------- selection

  setSelection(ids: Iterable<string>): void {
    if (!this.canSelect) ids = [];
    // Selecting one member of a group selects the group (structureCommands.ts).
    const next = withGroups(this.store, ids);
    if (next.size === this.selection.size && [...next].every((id) => this.selection.has(id))) return;
    this.state.set({ selection: next });
    this.renderer.invalidate({ live: true, scene: true });
    this.updateOverlay();
  }

  /** Objects removed from the document (by anyone) leave the selection. */
  private pruneSelection(): void {
    const kept = [...this.selection].filter((id) => this.store.entries.has(id));
    if (kept.length < this.selection.size) this.state.set({ selection: new Set(kept) });
  }

  /**
   * The selection moved on screen (camera, drag, transform, a change): the box of the
   * connected-sticker buttons (§4) follows, shown for one selected sticky with the select tool.
   */
  private updateOverlay(): void {
    const objs = this.selectedObjects();
    const show = !this.readOnly && this.tool === 'select' && objs.length === 1 && objs[0].type === 'sticky';
    const box = show ? this.selectionBox() : null;
    const old = this.state.getState().connectBox;
    const same = box === old || (!!box && !!old && box.x === old.x && box.y === old.y && box.width === old.width && box.height === old.height);
    if (!same) this.state.set({ connectBox: box });
  }

  /** Selected objects and arrows, plus arrows attached to selected objects (they move with them). */
  private liveIds(): Set<string> {
    const ids = new Set(this.selection);
    for (const a of this.store.arrowsOf(this.selection)) ids.add(a);
    return ids;
  }

  /** Escape: drops the gesture in progress, a pending arrow, then the selection. */
  escape(): void {
    if (this.input.busy) {
      this.input.abort();
      this.invalidate();
      return;
    }
    if (this.arrow.active) {
      this.arrow.cancel();
      return;
    }
    this.setSelection([]);
  }

  // ---------------------------------------------------------------- tools' callbacks to the page

  pickImage(at: Point): void {
    this.events.pickImage?.(at);
  }

  exportArea(area: Bounds): void {
    this.events.exportArea?.(area);
  }

  message(text: string, kind: 'info' | 'error'): void {
    this.events.message?.(text, kind);
  }

  // ---------------------------------------------------------------- commands (the UI calls engine.commands)

  /** Adds objects (and arrows) as one undoable command (the tests' and benchmark's seed). */
  add(objects: CanvasObject[], arrows: ArrowInput[] = []): void {
    this.commands.add(objects, arrows);
  }

  /** The toolbar's colour and Alt+1..8: the style for new objects, and the selection recoloured. */
  recolorSelection(color: string): void {
    this.setStyle({ color });
    this.commands.recolorSelection(color);
  }
}
