/**
 * The canvas behind <BoardCanvas>: wires the parts together and is the one object the React shell
 * (and the browser tests, through `window.__wbCanvas`) talks to. It holds the view settings (role,
 * limits, background, tool, style, selection) and delegates:
 *  - rendering → render/Renderer.ts (layers, frame loop) and render/LiveLayer.ts (selection, temps);
 *  - input → input/PointerInput.ts (pointer, wheel, touch) and one state per tool in input/tools/;
 *  - edits of the document → commands.ts (each one undoable through history.ts);
 *  - the scene (document → drawable items, spatial index) → sceneStore.ts.
 * Nothing here re-renders React per frame.
 */
import * as Y from 'yjs';
import {
  READ_ONLY_TOOLS,
  STICKY_DEFAULTS,
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
  type Side,
  type Tool,
  type ToolStyle,
} from '@wb/board-model';
import { Commands, type ArrowStyle, type CommandContext, type Limits } from './commands.ts';
import { createHistory } from './history.ts';
import { EditorSession, type EditRequest } from './input/editing.ts';
import { hitAt } from './input/hit.ts';
import { PointerInput } from './input/PointerInput.ts';
import { toolCursor, type ToolContext } from './input/tool.ts';
import { ArrowTool } from './input/tools/ArrowTool.ts';
import { createTools } from './input/tools/index.ts';
import { onImageSettled } from './render/images.ts';
import { Renderer, type EngineStats } from './render/Renderer.ts';
import { SceneStore, type Entry } from './sceneStore.ts';
import { Viewport } from './viewport.ts';

export type { ArrowStyle } from './commands.ts';
export type { EditRequest } from './input/editing.ts';
export type { EngineStats } from './render/Renderer.ts';

export interface EngineEvents {
  camera?(camera: Camera): void;
  selection?(ids: string[]): void;
  tool?(tool: Tool): void;
  /** The selection moved on screen (camera, drag, transform): overlays re-read selectionBox(). */
  overlay?(): void;
  edit?(request: EditRequest): void;
  pickImage?(at: Point): void;
  cursor?(point: Point | null): void;
  exportArea?(area: Bounds): void;
  count?(count: number): void;
  history?(state: { canUndo: boolean; canRedo: boolean }): void;
  contextMenu?(event: { objectId: string | null; clientX: number; clientY: number }): void;
  message?(text: string, kind: 'info' | 'error'): void;
  arrowMode?(active: boolean): void;
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
  tool: Tool = 'select';
  style: ToolStyle = { color: '#000000', fill: 'transparent', brush: 2, fontSize: 16, stickyColor: STICKY_DEFAULTS.backgroundColor };
  arrowStyle: ArrowStyle = 'solid';
  selection = new Set<string>();
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

  constructor(
    readonly container: HTMLDivElement,
    readonly doc: Y.Doc,
    readonly origin: unknown,
    private readonly events: EngineEvents,
  ) {
    this.viewport = new Viewport(container.clientWidth, container.clientHeight);
    this.store = new SceneStore(doc, () => this.invalidate());
    this.renderer = new Renderer(container, this.viewport, this.store, {
      beforeFrame: () => this.input.applyTouch(),
      pruneSelection: () => this.pruneSelection(),
      sceneChanged: () => {
        this.events.count?.(this.store.objectCount);
        this.events.overlay?.();
      },
      overlayMoved: () => this.events.overlay?.(),
      liveIds: () => this.liveIds(),
      selection: () => this.selection,
      editable: () => !this.readOnly && this.tool === 'select',
      background: () => this.background,
      onTransform: () => this.events.overlay?.(),
      onTransformEnd: (nodes, inGroup) => {
        this.commands.transform(nodes, inGroup);
        // Nodes are rebuilt from the document (scale back to 1); unchanged ones too.
        this.live.rebuild();
        this.renderer.invalidate({ live: true });
      },
    });
    this.history = createHistory(doc, origin, () =>
      this.events.history?.({ canUndo: this.history.canUndo(), canRedo: this.history.canRedo() }),
    );
    this.commands = new Commands(this);
    this.editor = new EditorSession(this, (request) => this.events.edit?.(request));
    this.arrow = new ArrowTool(this, (active) => this.events.arrowMode?.(active));
    this.input = new PointerInput(this, this.renderer.stage, createTools(this, this.editor), this.arrow, this.editor, {
      cursor: (p) => this.events.cursor?.(p),
      contextMenu: (ev) => this.events.contextMenu?.(ev),
      invalidate: () => this.invalidate(),
    });
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

  /** The konva transformer (read by a test: read-only roles get no handles). */
  get transformer() {
    return this.renderer.live.transformer;
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
    this.tool = tool;
    this.container.style.cursor = toolCursor(tool);
    this.renderer.invalidate({ live: true });
    this.events.tool?.(tool);
  }

  setStyle(patch: Partial<ToolStyle>): void {
    this.style = { ...this.style, ...patch };
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
    const next = new Set(ids);
    if (next.size === this.selection.size && [...next].every((id) => this.selection.has(id))) return;
    this.selection = next;
    this.renderer.invalidate({ live: true, scene: true });
    this.events.selection?.([...next]);
    this.events.overlay?.();
  }

  /** Objects removed from the document (by anyone) leave the selection. */
  private pruneSelection(): void {
    let pruned = false;
    for (const id of this.selection) {
      if (!this.store.entries.has(id)) {
        this.selection.delete(id);
        pruned = true;
      }
    }
    if (pruned) this.events.selection?.([...this.selection]);
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

  openEditor(request: EditRequest): void {
    this.editor.open(request);
  }

  pickImage(at: Point): void {
    this.events.pickImage?.(at);
  }

  exportArea(area: Bounds): void {
    this.events.exportArea?.(area);
  }

  message(text: string, kind: 'info' | 'error'): void {
    this.events.message?.(text, kind);
  }

  // ---------------------------------------------------------------- editor and arrows (UI entry points)

  /** Opens the editor on an existing sticky or text (the context menu's "edit", like a double click). */
  editObject(id: string): void {
    this.editor.edit(id);
  }

  finishEdit(typed: string): void {
    this.editor.finish(typed);
  }

  cancelEdit(): void {
    this.editor.cancel();
  }

  connectSticky(side: Side): void {
    this.editor.connectSticky(side);
  }

  beginArrow(): boolean {
    return this.arrow.begin();
  }

  get arrowPending(): boolean {
    return this.arrow.active;
  }

  cancelArrow(): void {
    this.arrow.cancel();
  }

  // ---------------------------------------------------------------- commands (commands.ts)

  add(objects: CanvasObject[], arrows: ArrowInput[] = []): void {
    this.commands.add(objects, arrows);
  }

  deleteSelection(): void {
    this.commands.deleteSelection();
  }

  recolorSelection(color: string): void {
    this.setStyle({ color });
    this.commands.recolorSelection(color);
  }

  undo(): void {
    this.commands.undo();
  }

  redo(): void {
    this.commands.redo();
  }

  clear(): void {
    this.commands.clear();
  }

  copy(): string | null {
    return this.commands.copy();
  }

  paste(text: string): boolean {
    return this.commands.paste(text);
  }

  insertAtCentre(objects: CanvasObject[]): void {
    this.commands.insertAtCentre(objects);
  }

  insertAsIs(objects: CanvasObject[]): void {
    this.commands.insertAsIs(objects);
  }

  insertImage(src: string, natural: { width: number; height: number }, at?: Point): void {
    this.commands.insertImage(src, natural, at);
  }
}
