/**
 * Hotkeys of the structure tools (issue 35 item 5; decisions.md "Structure tools"): Ctrl+] / Ctrl+[
 * bring forward / send backward, with Shift to the front / to the back; Ctrl+G groups,
 * Ctrl+Shift+G ungroups (Cmd on a Mac). Physical keys (`code`), so they work on a Russian layout too.
 */
import type { ZOrderAction } from '@wb/board-model';
import type { KeyLike } from './keyboard.ts';

export type StructureAction = ZOrderAction | 'group' | 'ungroup';
export interface StructureCommand {
  kind: 'structure';
  action: StructureAction;
}

export function structureCommandFor(e: KeyLike): StructureCommand | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const action: StructureAction | null =
    e.code === 'BracketRight'
      ? e.shiftKey
        ? 'front'
        : 'forward'
      : e.code === 'BracketLeft'
        ? e.shiftKey
          ? 'back'
          : 'backward'
        : e.code === 'KeyG'
          ? e.shiftKey
            ? 'ungroup'
            : 'group'
          : null;
  return action ? { kind: 'structure', action } : null;
}
