/**
 * The one store the React shell reads (with `useCanvasState`, a `useSyncExternalStore` hook):
 * everything the UI shows of the canvas, instead of callbacks from the engine into component
 * state. The engine writes its part (tool, style, selection, history, editor, arrow mode, the box
 * of the connected-sticker buttons); the shell writes the UI part (dialogs, context menu).
 * Immutable: every change replaces the state object, so a selector that picks one field re-renders
 * its component only when that field changes. The camera is not here: it changes every frame and
 * only the engine and overlays that subscribe to the engine need it.
 */
import { STICKY_DEFAULTS, type Bounds, type Tool, type ToolStyle } from '@wb/board-model';
import type { ContextMenuState } from '../ContextMenu.tsx';
import type { ArrowStyle } from './commands.ts';
import type { EditRequest } from './input/editing.ts';

export interface CanvasState {
  tool: Tool;
  /** Colours and sizes new objects get (the toolbar's pickers). */
  style: ToolStyle;
  arrowStyle: ArrowStyle;
  selection: ReadonlySet<string>;
  /** The arrow button was pressed: the next click on an object ends the arrow. */
  arrowPending: boolean;
  history: { canUndo: boolean; canRedo: boolean };
  /** The sticky/text editor is open on this request. */
  editing: EditRequest | null;
  /** Screen box of the one selected sticky when its connected-sticker buttons show, else null. */
  connectBox: Bounds | null;
  // The shell's own UI state.
  templatesOpen: boolean;
  confirmClear: boolean;
  menu: ContextMenuState | null;
}

/** What a new engine starts from (the shell's UI part is left as it is). */
export const ENGINE_START: Omit<CanvasState, 'templatesOpen' | 'confirmClear' | 'menu'> = {
  tool: 'select',
  style: { color: '#000000', fill: 'transparent', brush: 2, fontSize: 16, stickyColor: STICKY_DEFAULTS.backgroundColor },
  arrowStyle: 'solid',
  selection: new Set(),
  arrowPending: false,
  history: { canUndo: false, canRedo: false },
  editing: null,
  connectBox: null,
};

export class CanvasStore {
  private state: CanvasState = { ...ENGINE_START, templatesOpen: false, confirmClear: false, menu: null };
  private readonly listeners = new Set<() => void>();

  readonly getState = (): CanvasState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces the given fields; listeners run only if one of them changed (by identity). */
  set(patch: Partial<CanvasState>): void {
    const keys = Object.keys(patch) as Array<keyof CanvasState>;
    if (keys.every((k) => Object.is(patch[k], this.state[k]))) return;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
