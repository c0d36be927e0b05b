import type { BoardRole } from '@wb/contracts';

/** Only these roles' document updates are applied; everyone else is read-only on the server. */
export const canEdit = (role: BoardRole): boolean => role === 'owner' || role === 'editor';
/** §6: viewers react; guests have no reactions. */
export const canReact = (role: BoardRole): boolean => role !== 'guest';
