/**
 * The shape of a tool (as in tldraw, each tool is a small state object): a tool answers a press on
 * the board with a Gesture — the child state that follows the pointer until it is released — or
 * with null when the press does something at once (open the editor, pick an image) or nothing.
 * PointerInput owns the one gesture in progress; Escape or a second finger cancels it.
 */
import type * as Y from 'yjs';
import type { CanvasObject, Point, Tool, ToolStyle } from '@wb/board-model';
import type { ArrowStyle, Commands, Limits } from '../commands.ts';
import type { LiveLayer } from '../render/LiveLayer.ts';
import type { Entry, SceneStore } from '../sceneStore.ts';
import type { Viewport } from '../viewport.ts';

export interface PointerInfo {
  /** Relative to the canvas element. */
  screen: Point;
  board: Point;
  shiftKey: boolean;
  /** The DOM event, for preventDefault. */
  event: PointerEvent;
}

/** A press in progress: follows the pointer, then commits on release or is cancelled. */
export interface Gesture {
  move(p: PointerInfo): void;
  up(p: PointerInfo): void;
  /** Leaves no trace (Escape, a second finger). */
  cancel(): void;
}

export interface ToolState {
  down(p: PointerInfo): Gesture | null;
  /** A double click while this tool is active. */
  doubleClick?(board: Point): void;
}

/** What tools and gestures may use: reading the board, the live layer, the commands. */
export interface ToolContext {
  readonly doc: Y.Doc;
  readonly viewport: Viewport;
  readonly scene: SceneStore;
  readonly live: LiveLayer;
  readonly commands: Commands;
  readonly container: HTMLElement;
  readonly readOnly: boolean;
  readonly canSelect: boolean;
  readonly limits: Limits;
  readonly style: ToolStyle;
  readonly arrowStyle: ArrowStyle;
  readonly selection: ReadonlySet<string>;
  readonly tool: Tool;
  setSelection(ids: Iterable<string>): void;
  selectedObjects(): CanvasObject[];
  setTool(tool: Tool): void;
  hitAt(board: Point): Entry | null;
  /** Camera changes made by a gesture (the page is told, the static bitmap follows by CSS). */
  moveCamera(camera: { x: number; y: number; scale: number }): void;
  /** The cursor the current tool shows when no gesture is going on. */
  restCursor(): string;
  pickImage(at: Point): void;
  exportArea(area: { x: number; y: number; width: number; height: number }): void;
  /** A toast for the user (a press refused outside the board's bounds says why). */
  message(text: string, kind: 'info' | 'error'): void;
}

export function toolCursor(tool: Tool): string {
  switch (tool) {
    case 'hand':
      return 'grab';
    case 'select':
      return 'default';
    case 'text':
      return 'text';
    default:
      return 'crosshair';
  }
}
