/**
 * The structure tools in the shell (issue 35 item 5): what the hotkeys run and what the context
 * menu offers on a selection — z-order, group/ungroup, lock/unlock. Editors and the owner only:
 * viewers and guests get none of it (their menus are built before this is asked).
 */
import type { ContextMenuItem } from './ContextMenu.tsx';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import type { StructureAction } from './structureKeys.ts';
import { STRUCTURE_LABELS } from './texts.ts';

export function runStructure(engine: CanvasEngine, action: StructureAction): void {
  if (engine.readOnly) return;
  const s = engine.commands.structure;
  if (action === 'group') s.group();
  else if (action === 'ungroup') s.ungroup();
  else s.arrange(action);
}

export function structureMenuItems(engine: CanvasEngine): ContextMenuItem[] {
  const s = engine.commands.structure;
  const offer = s.offer();
  const items: ContextMenuItem[] = [];
  if (offer.arrange) {
    for (const action of ['forward', 'backward', 'front', 'back'] as const) {
      items.push({ id: action, label: STRUCTURE_LABELS[action], run: () => s.arrange(action) });
    }
  }
  if (offer.group) items.push({ id: 'group', label: STRUCTURE_LABELS.group, run: () => s.group() });
  if (offer.ungroup) items.push({ id: 'ungroup', label: STRUCTURE_LABELS.ungroup, run: () => s.ungroup() });
  if (offer.lock) items.push({ id: 'lock', label: STRUCTURE_LABELS.lock, run: () => s.setLocked(true) });
  if (offer.unlock) items.push({ id: 'unlock', label: STRUCTURE_LABELS.unlock, run: () => s.setLocked(false) });
  return items;
}
