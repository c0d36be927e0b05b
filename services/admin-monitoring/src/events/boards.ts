import type { PoolClient } from '@wb/db';
import { defineConsumer } from '@wb/events';
import { boardCreatedLine, boardDeletedLine } from '../domain/activity-texts.ts';
import { utcDay } from '../domain/day.ts';
import { addActivity, addActivityAbout } from '../store/activity.ts';
import { bump, bumpDaily } from '../store/counters.ts';
import { addBoard, removeBoard, retitleBoard } from '../store/projections.ts';

/** totalBoards, today's newBoards and the boards lines (a deleted user's boards come as board.deleted each). */
export const boardsConsumer = defineConsumer({
  durable: 'admin-boards',
  types: ['board.created', 'board.updated', 'board.deleted'],
  async handle(event, client: PoolClient) {
    const at = event.occurredAt;
    if (event.type === 'board.created') {
      const { boardId, ownerId, title } = event.data;
      if (!(await addBoard(client, { id: boardId, ownerId, title }))) return;
      await addActivityAbout(client, ownerId, at, (owner) => boardCreatedLine(title, owner));
      await bump(client, 'boards', 1);
      await bumpDaily(client, utcDay(at), 'new_boards', 1);
    } else if (event.type === 'board.updated') {
      await retitleBoard(client, event.data.boardId, event.data.title);
    } else {
      const r = await removeBoard(client, event.data.boardId, event.data.ownerId);
      if (r.outcome === 'repeat') return;
      await addActivity(client, { ...boardDeletedLine(r.outcome === 'removed' ? r.was.title : null), time: at });
      if (r.outcome === 'removed') await bump(client, 'boards', -1);
    }
  },
});
