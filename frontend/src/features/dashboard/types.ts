/** Shapes of the boards service answers (the contract lives in @wb/contracts). */
export type { BoardLimits, BoardListItem, FolderNode, ShareRole, TagView } from '@wb/contracts';
