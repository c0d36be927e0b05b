/**
 * The board as a Yjs document. Each object is its own Y.Map so that two people changing
 * different fields of one object (one moves it, the other recolours it) both win; a single
 * JSON value per object would let the last writer erase the other's change.
 * Every mutator takes an optional transaction origin so the SPA's Y.UndoManager can track
 * only local changes.
 */
import * as Y from 'yjs';
import {
  ARROW_END_TYPES,
  OBJECT_LIMITS,
  REACTABLE_TYPES,
  arrowSchema,
  canvasObjectSchema,
  reactionSchema,
  type Arrow,
  type ArrowInput,
  type CanvasObject,
  type CanvasObjectInput,
  type ObjectType,
  type Reaction,
} from './objects.ts';
import { TEXT_FIELD, TEXT_TYPES, clipForDisplay, replaceText, textLimitOf } from './textEdit.ts';

export const OBJECTS_KEY = 'objects';
export const ARROWS_KEY = 'arrows';
export const REACTIONS_FIELD = 'reactions';

type FieldMap = Y.Map<unknown>;

export const getObjects = (doc: Y.Doc): Y.Map<FieldMap> => doc.getMap<FieldMap>(OBJECTS_KEY);
export const getArrows = (doc: Y.Doc): Y.Map<FieldMap> => doc.getMap<FieldMap>(ARROWS_KEY);

/** A raw update may have put anything under a key; only a Y.Map is an entry. */
function entry(top: Y.Map<FieldMap>, id: string): FieldMap | undefined {
  const value: unknown = top.get(id);
  return value instanceof Y.Map ? (value as FieldMap) : undefined;
}

function* entries(top: Y.Map<FieldMap>): Generator<[string, FieldMap]> {
  for (const [id, value] of top.entries()) if ((value as unknown) instanceof Y.Map) yield [id, value];
}

/** A field patch: id and type never change, reactions only through toggleReaction. */
export type ObjectPatch = CanvasObject extends infer T
  ? T extends CanvasObject
    ? Partial<Omit<T, 'id' | 'type' | 'reactions'>>
    : never
  : never;

function toFieldMap(value: Record<string, unknown>): FieldMap {
  const map: FieldMap = new Y.Map();
  const typed = TEXT_TYPES.includes(value.type as ObjectType);
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (key === TEXT_FIELD && typed && typeof field === 'string') {
      // A Y.Text, so two people typing in it both keep their words (issue 35 item 4).
      map.set(key, new Y.Text(field));
    } else if (key === REACTIONS_FIELD && Array.isArray(field)) {
      const list = new Y.Array<Reaction>();
      list.push(field as Reaction[]);
      map.set(key, list);
    } else {
      map.set(key, field);
    }
  }
  return map;
}

/**
 * A stored object as plain data (a Y.Text read as its string), or null when it does not validate
 * (e.g. written by a hostile client). A text two people made longer than the limit together is
 * read cut to the limit, so the object stays on the board; what is stored is not touched.
 */
export function parseStoredObject(raw: unknown): CanvasObject | null {
  const parsed = canvasObjectSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const r = raw as Record<string, unknown> | null;
  const type = r && typeof r === 'object' ? r.type : undefined;
  if ((type !== 'sticky' && type !== 'text') || typeof r![TEXT_FIELD] !== 'string') return null;
  const max = textLimitOf(type);
  const text = r![TEXT_FIELD] as string;
  if (text.length <= max) return null;
  const clipped = canvasObjectSchema.safeParse({ ...r, [TEXT_FIELD]: clipForDisplay(text, max) });
  return clipped.success ? clipped.data : null;
}

/** The object as plain data, or null when what is stored does not validate (e.g. written by a hostile client). */
export function objectToJSON(map: FieldMap): CanvasObject | null {
  return parseStoredObject(map.toJSON());
}

function arrowToJSON(map: FieldMap): Arrow | null {
  const parsed = arrowSchema.safeParse(map.toJSON());
  return parsed.success ? parsed.data : null;
}

/** Throws a ZodError on invalid input; returns the object as stored. */
export function addObject(doc: Y.Doc, input: CanvasObjectInput, origin?: unknown): CanvasObject {
  const obj = canvasObjectSchema.parse(input);
  doc.transact(() => getObjects(doc).set(obj.id, toFieldMap(obj)), origin);
  return obj;
}

/**
 * Writes only the fields that change, so concurrent edits of other fields survive.
 * An undefined value removes an optional field. Returns false when the object does not exist;
 * throws a ZodError when the result would not be a valid object.
 */
export function updateObject(doc: Y.Doc, id: string, patch: ObjectPatch, origin?: unknown): boolean {
  const map = entry(getObjects(doc), id);
  if (!map) return false;
  const { id: _id, type: _type, reactions: _reactions, ...fields } = patch as Record<string, unknown>;
  const current = map.toJSON() as Record<string, unknown>;
  // A text made too long by two people at once must not block a move or a recolour (it is not written).
  const type = current.type;
  const base =
    !(TEXT_FIELD in fields) && (type === 'sticky' || type === 'text') && typeof current[TEXT_FIELD] === 'string'
      ? { ...current, [TEXT_FIELD]: clipForDisplay(current[TEXT_FIELD], textLimitOf(type)) }
      : current;
  // The parsed value, not the patch, is written: it drops fields foreign to the type.
  const parsed = canvasObjectSchema.parse({ ...base, ...fields }) as Record<string, unknown>;
  doc.transact(() => {
    for (const key of Object.keys(fields)) {
      const value = parsed[key];
      const stored = map.get(key);
      if (value === undefined) map.delete(key);
      else if (JSON.stringify(current[key]) === JSON.stringify(value)) continue;
      // A text is changed where it differs, so someone typing in it at the same time keeps their words.
      else if (key === TEXT_FIELD && stored instanceof Y.Text) replaceText(stored, value as string);
      else if (key === TEXT_FIELD && TEXT_TYPES.includes(parsed.type as ObjectType)) map.set(key, new Y.Text(value as string));
      else map.set(key, value);
    }
  }, origin);
  return true;
}

/** Deletes the objects and every arrow attached to one of them; returns how many objects went. */
export function deleteObjects(doc: Y.Doc, ids: Iterable<string>, origin?: unknown): number {
  const gone = new Set(ids);
  const objects = getObjects(doc);
  const arrows = getArrows(doc);
  let count = 0;
  doc.transact(() => {
    for (const id of gone) {
      if (objects.has(id)) {
        objects.delete(id);
        count++;
      }
    }
    for (const [arrowId, arrow] of [...entries(arrows)]) {
      if (gone.has(arrow.get('fromId') as string) || gone.has(arrow.get('toId') as string))
        arrows.delete(arrowId);
    }
  }, origin);
  return count;
}

function typeOf(doc: Y.Doc, id: string): ObjectType | undefined {
  return entry(getObjects(doc), id)?.get('type') as ObjectType | undefined;
}

/**
 * Returns the stored arrow, or null when an end is missing or cannot carry arrows
 * (path and highlighter, §9). Throws a ZodError on malformed input, including fromId === toId.
 */
export function addArrow(doc: Y.Doc, input: ArrowInput, origin?: unknown): Arrow | null {
  const arrow = arrowSchema.parse(input);
  const ends = [typeOf(doc, arrow.fromId), typeOf(doc, arrow.toId)];
  if (ends.some((t) => t === undefined || !ARROW_END_TYPES.includes(t))) return null;
  doc.transact(() => getArrows(doc).set(arrow.id, toFieldMap(arrow)), origin);
  return arrow;
}

/**
 * §9: the same user with the same emoji removes the reaction, anything else adds one.
 * Returns true when a reaction was added; false when it was removed, or when the object is
 * missing, cannot carry reactions, or already holds the maximum.
 */
export function toggleReaction(doc: Y.Doc, objectId: string, input: Reaction, origin?: unknown): boolean {
  const reaction = reactionSchema.parse(input);
  const map = entry(getObjects(doc), objectId);
  const type = map?.get('type') as ObjectType | undefined;
  if (!map || !type || !REACTABLE_TYPES.includes(type)) return false;
  let added = false;
  doc.transact(() => {
    let list = map.get(REACTIONS_FIELD);
    if (!(list instanceof Y.Array)) {
      list = new Y.Array<Reaction>();
      map.set(REACTIONS_FIELD, list);
    }
    const reactions = list as Y.Array<Reaction>;
    const index = reactions
      .toArray()
      .findIndex((r) => r.userId === reaction.userId && r.emoji === reaction.emoji);
    if (index >= 0) {
      reactions.delete(index, 1);
    } else if (reactions.length < OBJECT_LIMITS.reactionsPerObject) {
      reactions.push([reaction]);
      added = true;
    }
  }, origin);
  return added;
}

export function clearBoard(doc: Y.Doc, origin?: unknown): void {
  doc.transact(() => {
    getObjects(doc).clear();
    getArrows(doc).clear();
  }, origin);
}

export const countObjects = (doc: Y.Doc): number => getObjects(doc).size;

/** One above the highest zIndex, so a new object lands on top. */
export function nextZIndex(doc: Y.Doc): number {
  let max = -1;
  for (const [, map] of entries(getObjects(doc))) {
    const z = map.get('zIndex');
    if (typeof z === 'number' && Number.isFinite(z) && z > max) max = z;
  }
  return Math.floor(max) + 1;
}

/**
 * Plain, validated content in drawing order. Entries that fail validation, and arrows whose
 * ends are gone, are left out, so renderers and the export never see junk.
 */
export function readBoard(doc: Y.Doc): { objects: CanvasObject[]; arrows: Arrow[] } {
  const objects: CanvasObject[] = [];
  for (const [, map] of entries(getObjects(doc))) {
    const obj = objectToJSON(map);
    if (obj) objects.push(obj);
  }
  // Ties by id, as the canvas draws them (tools/zorder.ts compareZ): the same order on every client.
  objects.sort((a, b) => a.zIndex - b.zIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set(objects.map((o) => o.id));
  const arrows: Arrow[] = [];
  for (const [, map] of entries(getArrows(doc))) {
    const arrow = arrowToJSON(map);
    if (arrow && ids.has(arrow.fromId) && ids.has(arrow.toId)) arrows.push(arrow);
  }
  return { objects, arrows };
}
