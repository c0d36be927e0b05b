/**
 * Structure commands (issue 35 item 5): z-order, group/ungroup, lock/unlock, the eraser's delete.
 * Each is one transaction with the local origin, so one undo step. The rules are pure functions of
 * @wb/board-model (tools/zorder.ts, tools/groups.ts); this module applies them to the selection.
 * Locked objects are left out of every edit here but unlock (decisions.md "Structure tools").
 */
import {
  deleteObjects,
  expandToGroups,
  getArrows,
  groupPatches,
  isLocked,
  isOneGroup,
  newId,
  ungroupIds,
  unlockedIds,
  updateObject,
  zOrderPatches,
  type ZOrderAction,
} from '@wb/board-model';
import type { CommandContext } from './commands.ts';
import type { SceneStore } from './sceneStore.ts';

/** `ids` with the other members of their groups (cheap when nothing among them is grouped). */
export function withGroups(scene: SceneStore, ids: Iterable<string>): Set<string> {
  const list = [...ids];
  if (!list.some((id) => scene.object(id)?.groupId)) return new Set(list);
  return expandToGroups(scene.allObjects(), list);
}

/** What the context menu may offer for the current selection. */
export interface StructureOffer {
  group: boolean;
  ungroup: boolean;
  lock: boolean;
  unlock: boolean;
  arrange: boolean;
}

export class StructureCommands {
  constructor(private readonly ctx: CommandContext) {}

  private get editable(): boolean {
    return !this.ctx.readOnly;
  }

  /** Selected objects (not arrows) an edit may touch. */
  private selectedUnlocked(): string[] {
    const { scene, selection } = this.ctx;
    return unlockedIds((id) => scene.object(id), selection).filter((id) => scene.object(id));
  }

  offer(): StructureOffer {
    const { scene, selection } = this.ctx;
    const objs = [...selection].flatMap((id) => scene.object(id) ?? []);
    const unlocked = objs.filter((o) => !isLocked(o));
    return {
      group: this.editable && unlocked.length >= 2 && !isOneGroup(objs, selection),
      ungroup: this.editable && unlocked.some((o) => o.groupId) && withGroups(scene, [objs.find((o) => o.groupId)?.id ?? '']).size > 1,
      lock: this.editable && unlocked.length > 0,
      unlock: this.editable && objs.some(isLocked),
      arrange: this.editable && unlocked.length > 0,
    };
  }

  /** Bring forward / send backward / to front / to back. */
  arrange(action: ZOrderAction): void {
    const { doc, origin, scene } = this.ctx;
    const ids = new Set(this.selectedUnlocked());
    if (!this.editable || ids.size === 0) return;
    const items = [...scene.entries.values()].flatMap((e) => (e.obj ? [{ id: e.id, zIndex: e.obj.zIndex, bounds: e.item.bounds }] : []));
    const patches = zOrderPatches(items, ids, action);
    if (patches.size === 0) return;
    doc.transact(() => {
      for (const [id, zIndex] of patches) updateObject(doc, id, { zIndex }, origin);
    }, origin);
  }

  group(): void {
    const { doc, origin, scene } = this.ctx;
    if (!this.editable) return;
    const patches = groupPatches(scene.allObjects(), this.selectedUnlocked(), newId());
    if (patches.size < 2) return;
    doc.transact(() => {
      for (const [id, groupId] of patches) updateObject(doc, id, { groupId }, origin);
    }, origin);
    this.ctx.setSelection(patches.keys());
  }

  ungroup(): void {
    const { doc, origin, scene } = this.ctx;
    if (!this.editable) return;
    const ids = ungroupIds(scene.allObjects(), this.selectedUnlocked());
    if (ids.length === 0) return;
    doc.transact(() => {
      for (const id of ids) updateObject(doc, id, { groupId: undefined }, origin);
    }, origin);
  }

  /** Lock (true) or unlock (false) every selected object. */
  setLocked(locked: boolean): void {
    const { doc, origin, scene, selection } = this.ctx;
    if (!this.editable) return;
    const ids = [...selection].filter((id) => {
      const obj = scene.object(id);
      return obj && isLocked(obj) !== locked;
    });
    if (ids.length === 0) return;
    doc.transact(() => {
      for (const id of ids) updateObject(doc, id, { locked: locked ? true : undefined }, origin);
    }, origin);
  }

  /** The eraser's release: the objects (and arrows) swept over go as one undo step; locked ones stay. */
  erase(ids: Iterable<string>): void {
    const { doc, origin, scene } = this.ctx;
    if (!this.editable) return;
    const gone = unlockedIds((id) => scene.object(id), ids);
    if (gone.length === 0) return;
    doc.transact(() => {
      deleteObjects(doc, gone, origin);
      const arrows = getArrows(doc);
      for (const id of gone) if (arrows.has(id)) arrows.delete(id);
    }, origin);
    const left = [...this.ctx.selection].filter((id) => !gone.includes(id));
    if (left.length < this.ctx.selection.size) this.ctx.setSelection(left);
  }
}
