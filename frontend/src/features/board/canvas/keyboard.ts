/**
 * Hotkeys of §9 as a pure mapping from a key event to a command, so the rules (1–6 tools,
 * Alt+1..8 colours, Ctrl+Z / Ctrl+Y / Ctrl+Shift+Z, Delete or Backspace, Escape) are tested without a browser.
 * Copy and paste go through the browser's copy/paste events instead (they carry the clipboard).
 */
import { HOTKEY_COLORS, TOOL_HOTKEYS, type Tool } from '@wb/board-model';
import { structureCommandFor, type StructureCommand } from './structureKeys.ts';

export type Command =
  | { kind: 'tool'; tool: Tool }
  | { kind: 'color'; color: string }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | StructureCommand
  | { kind: 'delete' }
  | { kind: 'escape' }
  | { kind: 'zoomToFit' }
  | { kind: 'zoomToSelection' };

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function commandFor(e: KeyLike): Command | null {
  const mod = e.ctrlKey || e.metaKey;
  // Alt changes e.key on some layouts (Alt+1 is '¡' on a Mac), so colours read the physical key.
  if (e.altKey && !mod) {
    const digit = /^Digit([1-8])$/.exec(e.code);
    return digit ? { kind: 'color', color: HOTKEY_COLORS[Number(digit[1]) - 1] } : null;
  }
  if (mod) {
    const structure = structureCommandFor(e);
    if (structure) return structure;
    const key = e.key.toLowerCase();
    const layoutKey = e.code === 'KeyZ' ? 'z' : e.code === 'KeyY' ? 'y' : key;
    if (layoutKey === 'z') return e.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    if (layoutKey === 'y') return { kind: 'redo' };
    return null;
  }
  // Backspace deletes as Delete does (issue 35 item 5): laptop keyboards without a Delete key, as in Miro and tldraw.
  if (e.key === 'Delete' || e.key === 'Backspace') return { kind: 'delete' };
  if (e.key === 'Escape') return { kind: 'escape' };
  // Shift+1 / Shift+2 (issue 35 item 5, as in Excalidraw and tldraw): by the physical key, since Shift changes e.key by layout.
  if (e.shiftKey && e.code === 'Digit1') return { kind: 'zoomToFit' };
  if (e.shiftKey && e.code === 'Digit2') return { kind: 'zoomToSelection' };
  if (!e.shiftKey) {
    const tool = TOOL_HOTKEYS[e.key];
    if (tool) return { kind: 'tool', tool };
  }
  return null;
}

/** §5: hotkeys are ignored while an input, textarea, select or editable element has focus. */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  return el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}
