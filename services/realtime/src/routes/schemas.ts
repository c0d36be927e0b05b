import { z } from 'zod';
import { isSingleEmoji } from '@wb/board-model';

/** The spec has no text for a reaction that is not one emoji; ours (docs/decisions.md). */
export const REACTION_EMOJI_TEXT = 'Реакция должна быть одним эмодзи';
/** One emoji grapheme (board-model isSingleEmoji). */
const reactionEmoji = () => z.string({ error: REACTION_EMOJI_TEXT }).refine(isSingleEmoji, { message: REACTION_EMOJI_TEXT });

const boardId = z.string({ error: 'Не указана доска' }).regex(/^[\w-]{1,64}$/, { message: 'Не указана доска' });

export const ForceSaveRequest = z.object({ boardId, clearData: z.boolean().optional() });
export const ReactionRequest = z.object({
  boardId,
  objectId: z.string().min(1).max(64),
  emoji: reactionEmoji(),
});
export const BoardParams = z.object({ id: boardId });
export const StateQuery = z.object({ format: z.enum(['binary', 'json']).default('binary') });
/** Share tokens that died; absent = every link of the board (sharing turned off). */
export const RevokeRequest = z.object({ tokens: z.array(z.string().min(1).max(256)).max(16).optional() });
