import { isEditable } from '@wb/board-model';
import { arrangeMenuItems } from './ArrangeBar.tsx';
import type { ContextMenuItem } from './ContextMenu.tsx';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { structureMenuItems } from './structureMenu.ts';
import { CONTEXT_LABELS, VIEW_MODE } from './texts.ts';
import type { BoardCanvasProps } from './types.ts';

/**
 * What a right click on `objectId` offers (§6): a viewer only 'Режим просмотра', on a selected sticky
 * or image; a guest nothing (no selection at all); an editor or the owner edit, copy, duplicate and
 * delete, on the object clicked (selected first, as in every editor of this kind). Empty canvas: no menu.
 */
export function contextMenuItems(
  engine: CanvasEngine,
  role: BoardCanvasProps['role'],
  objectId: string | null,
  say: (text: string) => void,
): ContextMenuItem[] | null {
  const obj = objectId ? engine.store.object(objectId) : null;
  if (!obj || role === 'guest') return null;
  if (role === 'viewer') {
    if (!engine.selection.has(obj.id) || (obj.type !== 'sticky' && obj.type !== 'image')) return null;
    return [{ id: 'view-mode', label: VIEW_MODE, disabled: true }];
  }
  if (!engine.selection.has(obj.id)) engine.setSelection([obj.id]);
  const single = engine.selection.size === 1;
  const items: ContextMenuItem[] = [];
  if (single && isEditable(obj) && !obj.locked) items.push({ id: 'edit', label: CONTEXT_LABELS.edit, run: () => engine.editor.edit(obj.id) });
  items.push(
    {
      id: 'copy',
      label: CONTEXT_LABELS.copy,
      run: () => {
        const text = engine.commands.copy();
        if (text) void navigator.clipboard?.writeText(text).catch(() => say(CONTEXT_LABELS.copyFailed));
      },
    },
    {
      id: 'duplicate',
      label: CONTEXT_LABELS.duplicate,
      run: () => {
        const text = engine.commands.copy();
        if (text) engine.commands.paste(text);
      },
    },
    ...structureMenuItems(engine),
    { id: 'delete', label: CONTEXT_LABELS.delete, danger: true, run: () => engine.commands.deleteSelection() },
  );
  // Align and distribute a multi-selection, before the last item (delete).
  items.splice(items.length - 1, 0, ...arrangeMenuItems(engine));
  return items;
}
