/**
 * Groups and locks (issue 35 item 5; the spec is silent). A group is no object of its own: its
 * members carry the same `groupId` field, so there is nothing to leave behind when members go.
 * A group counts only while two or more of its members exist — a member deleted by someone else
 * while the group was made offline leaves the rest as plain objects, never a ghost group. Grouping
 * objects that are already grouped joins them into the new group (groups are flat, as in Miro).
 * `locked` is a field any editor may toggle; it is a guard against accidents, not a permission:
 * what a role may do is decided by the server (viewers and guests write nothing), and locked or
 * grouped objects are drawn, exported and reacted to like any other.
 */
import type { CanvasObject } from '../objects.ts';

type Structured = Pick<CanvasObject, 'id'> & { groupId?: string; locked?: boolean };

/** groupId → ids of its existing members, for groups of two or more only. */
export function liveGroups(objects: Iterable<Structured>): Map<string, string[]> {
  const all = new Map<string, string[]>();
  for (const o of objects) {
    if (!o.groupId) continue;
    let list = all.get(o.groupId);
    if (!list) all.set(o.groupId, (list = []));
    list.push(o.id);
  }
  for (const [g, ids] of all) if (ids.length < 2) all.delete(g);
  return all;
}

/** `ids` with every other member of their groups: selecting one member selects the group. */
export function expandToGroups(objects: Iterable<Structured>, ids: Iterable<string>): Set<string> {
  const list = [...objects];
  const groups = liveGroups(list);
  const byId = new Map(list.map((o) => [o.id, o]));
  const out = new Set<string>();
  for (const id of ids) {
    out.add(id);
    const g = byId.get(id)?.groupId;
    for (const member of (g && groups.get(g)) || []) out.add(member);
  }
  return out;
}

/** The groupId writes that group `ids` (objects only; fewer than two: nothing). */
export function groupPatches(objects: Iterable<Structured>, ids: Iterable<string>, groupId: string): Map<string, string> {
  const list = [...objects];
  const wanted = expandToGroups(list, ids);
  const members = list.filter((o) => wanted.has(o.id));
  if (members.length < 2) return new Map();
  return new Map(members.map((o) => [o.id, groupId]));
}

/** The members of `ids` that carry a groupId (ungroup removes it from them and their groups). */
export function ungroupIds(objects: Iterable<Structured>, ids: Iterable<string>): string[] {
  const list = [...objects];
  const wanted = expandToGroups(list, ids);
  return list.filter((o) => wanted.has(o.id) && o.groupId !== undefined).map((o) => o.id);
}

/** Whether `ids` hold one whole group (the context menu then offers ungroup instead of group). */
export function isOneGroup(objects: Iterable<Structured>, ids: ReadonlySet<string>): boolean {
  const list = [...objects].filter((o) => ids.has(o.id));
  if (list.length < 2) return false;
  const g = list[0].groupId;
  return !!g && list.every((o) => o.groupId === g) && (liveGroups(list).get(g)?.length ?? 0) === ids.size;
}

export const isLocked = (o: Structured | null | undefined): boolean => o?.locked === true;

/** The ids an edit may touch: locked objects stay as they are (arrows and unknown ids pass). */
export function unlockedIds(lookup: (id: string) => Structured | null | undefined, ids: Iterable<string>): string[] {
  return [...ids].filter((id) => !isLocked(lookup(id)));
}

/** A paste gives each copied group a new id, so copies never join the original group. */
export function remapGroups<T extends Structured>(objects: readonly T[], makeId: () => string): T[] {
  const ids = new Map<string, string>();
  return objects.map((o) => {
    if (!o.groupId) return o;
    let g = ids.get(o.groupId);
    if (!g) ids.set(o.groupId, (g = makeId()));
    return { ...o, groupId: g };
  });
}
