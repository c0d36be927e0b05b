import type { ShareRole } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import { enqueueEvent } from '@wb/events';

// Always called inside the transaction that made the change, so the event exists iff the change does.
const SOURCE = 'boards';

interface BoardFacts {
  id: string;
  owner_id: string;
  title: string;
  folder_id: string | null;
  background: string;
}

export const publishBoardCreated = (db: Queryable, b: Omit<BoardFacts, 'background'>) =>
  enqueueEvent(db, 'board.created', { boardId: b.id, ownerId: b.owner_id, title: b.title, folderId: b.folder_id }, SOURCE);

export const publishBoardUpdated = (db: Queryable, b: BoardFacts) =>
  enqueueEvent(
    db,
    'board.updated',
    { boardId: b.id, ownerId: b.owner_id, title: b.title, folderId: b.folder_id, background: b.background },
    SOURCE,
  );

export const publishBoardDeleted = (db: Queryable, b: { id: string; owner_id: string }) =>
  enqueueEvent(db, 'board.deleted', { boardId: b.id, ownerId: b.owner_id }, SOURCE);

export const publishSharingChanged = (
  db: Queryable,
  boardId: string,
  s: { enabled: boolean; enabledRoles: ShareRole[]; revokedRoles: ShareRole[] },
) => enqueueEvent(db, 'board.sharing_changed', { boardId, ...s }, SOURCE);
