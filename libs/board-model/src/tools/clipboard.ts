/**
 * Copy and paste (§9): an arrow is copied only when both its ends are, a paste needs at least one
 * object, and the system clipboard carries a JSON payload so a selection moves between boards
 * (and browser tabs) as text.
 */
import { z } from 'zod';
import { boundsOf, unionBounds } from '../geometry.ts';
import { arrowSchema, canvasObjectSchema, newId, type Arrow, type CanvasObject } from '../objects.ts';
import { remapGroups } from './groups.ts';
import { clampMove, type Limits } from './limits.ts';

export const CLIPBOARD_KIND = 'whiteboard/objects';
export const CLIPBOARD_VERSION = 1;
/** Past this a paste would stall the page for seconds; the user is told instead. */
export const PASTE_MAX_OBJECTS = 1000;
export const PASTE_OFFSET = 20;

export const CLIPBOARD_TEXTS = {
  tooMany: `Слишком много объектов для вставки (максимум ${PASTE_MAX_OBJECTS})`,
  nothing: 'В буфере обмена нет объектов доски',
} as const;

export interface ClipboardPayload {
  kind: typeof CLIPBOARD_KIND;
  version: typeof CLIPBOARD_VERSION;
  objects: CanvasObject[];
  arrows: Arrow[];
}

export function copySelection(
  objects: Iterable<CanvasObject>,
  arrows: Iterable<Arrow>,
  selected: ReadonlySet<string>,
): ClipboardPayload {
  const copied = [...objects].filter((o) => selected.has(o.id)).map((o) => structuredClone(o));
  const ids = new Set(copied.map((o) => o.id));
  const keptArrows = [...arrows].filter((a) => ids.has(a.fromId) && ids.has(a.toId)).map((a) => ({ ...a }));
  return { kind: CLIPBOARD_KIND, version: CLIPBOARD_VERSION, objects: copied, arrows: keptArrows };
}

const envelope = z.object({
  kind: z.literal(CLIPBOARD_KIND),
  version: z.literal(CLIPBOARD_VERSION),
  objects: z.array(z.unknown()),
  arrows: z.array(z.unknown()).default([]),
});

export type ClipboardRead = { ok: true; payload: ClipboardPayload } | { ok: false; error: string | null };

/**
 * Text from the clipboard → payload. Foreign text is not an error (error null: paste does nothing);
 * objects that fail their schema (another version, a hostile page) are skipped, the rest pasted.
 */
export function readClipboardText(text: string): ClipboardRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: null };
  }
  const parsed = envelope.safeParse(data);
  if (!parsed.success) return { ok: false, error: null };
  if (parsed.data.objects.length > PASTE_MAX_OBJECTS) return { ok: false, error: CLIPBOARD_TEXTS.tooMany };
  const objects = parsed.data.objects.flatMap((o) => {
    const r = canvasObjectSchema.safeParse(o);
    return r.success ? [r.data] : [];
  });
  const arrows = parsed.data.arrows.flatMap((a) => {
    const r = arrowSchema.safeParse(a);
    return r.success ? [r.data] : [];
  });
  if (objects.length === 0) return { ok: false, error: CLIPBOARD_TEXTS.nothing };
  return { ok: true, payload: { kind: CLIPBOARD_KIND, version: CLIPBOARD_VERSION, objects, arrows } };
}

export interface PasteOptions {
  /** How far to move the copies (each paste of the same selection lands a step further). */
  offset: { x: number; y: number };
  zIndexStart: number;
  limits: Limits;
  makeId?: () => string;
}

/**
 * New objects and arrows for a paste: fresh ids, arrows re-pointed at the copies (and dropped when
 * an end is not among them), moved by the offset but kept inside a bounded canvas.
 */
export function planPaste(
  payload: Pick<ClipboardPayload, 'objects' | 'arrows'>,
  options: PasteOptions,
): { ok: true; objects: CanvasObject[]; arrows: Arrow[] } | { ok: false; error: string } {
  if (payload.objects.length === 0) return { ok: false, error: CLIPBOARD_TEXTS.nothing };
  if (payload.objects.length > PASTE_MAX_OBJECTS) return { ok: false, error: CLIPBOARD_TEXTS.tooMany };
  const makeId = options.makeId ?? newId;
  const all = unionBounds(payload.objects.map(boundsOf));
  const move = all ? clampMove(all, options.offset.x, options.offset.y, options.limits) : options.offset;
  const ids = new Map<string, string>();
  const ordered = remapGroups([...payload.objects].sort((a, b) => a.zIndex - b.zIndex), makeId);
  const objects = ordered.map((obj, i) => {
    const id = makeId();
    ids.set(obj.id, id);
    return canvasObjectSchema.parse({ ...shift(obj, move.x, move.y), id, zIndex: options.zIndexStart + i });
  });
  const arrows = payload.arrows.flatMap((a) => {
    const fromId = ids.get(a.fromId);
    const toId = ids.get(a.toId);
    return fromId && toId ? [{ ...a, id: makeId(), fromId, toId }] : [];
  });
  return { ok: true, objects, arrows };
}

function shift(obj: CanvasObject, dx: number, dy: number): CanvasObject {
  switch (obj.type) {
    case 'line':
    case 'path':
    case 'highlighter':
      return { ...obj, points: obj.points.map((v, i) => v + (i % 2 === 0 ? dx : dy)) } as CanvasObject;
    default:
      return { ...obj, x: obj.x + dx, y: obj.y + dy };
  }
}
