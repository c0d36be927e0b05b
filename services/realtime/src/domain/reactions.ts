import type * as Y from 'yjs';
import { ZodError } from 'zod';
import { REACTABLE_TYPES, getObjects, toggleReaction, type ObjectType } from '@wb/board-model';
import type { BoardRole } from '@wb/contracts';
import { canReact } from './roles.ts';

export type ReactionOutcome =
  | { ok: true; added: boolean }
  | { ok: false; code: 'REACTIONS_NOT_ALLOWED' | 'OBJECT_NOT_FOUND' | 'VALIDATION_ERROR' };

/**
 * Toggles a reaction for a user who may not write the document: the server is the only writer,
 * so a viewer's reaction can never carry anything but a reaction.
 */
export function applyReaction(
  doc: Y.Doc,
  who: { role: BoardRole; reactorId: string; userName: string },
  req: { objectId: string; emoji: string },
  origin: unknown,
): ReactionOutcome {
  if (!canReact(who.role)) return { ok: false, code: 'REACTIONS_NOT_ALLOWED' };
  const obj: unknown = getObjects(doc).get(req.objectId);
  const type = obj && typeof (obj as Y.Map<unknown>).get === 'function' ? ((obj as Y.Map<unknown>).get('type') as ObjectType) : undefined;
  if (!type || !REACTABLE_TYPES.includes(type)) return { ok: false, code: 'OBJECT_NOT_FOUND' };
  try {
    const added = toggleReaction(doc, req.objectId, { emoji: req.emoji, userId: who.reactorId, userName: who.userName }, origin);
    return { ok: true, added };
  } catch (err) {
    if (err instanceof ZodError) return { ok: false, code: 'VALIDATION_ERROR' };
    throw err;
  }
}
