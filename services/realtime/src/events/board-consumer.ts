/**
 * Consumer `realtime-boards`: board.sharing_changed and board.deleted. One replica receives each
 * event (shared durable); it fans the consequence out to every replica holding the board through
 * the relay's control subject, so connections on all replicas are affected.
 */
import type { Logger } from 'pino';
import { consume, defineConsumer, type EventTransport, type Subscription } from '@wb/events';
import type { DocumentStore } from '../store/types.ts';
import type { ControlMessage } from '../extensions/relay.ts';

export const BOARDS_CONSUMER = 'realtime-boards';

export interface BoardConsumerDeps {
  transport: EventTransport;
  store: DocumentStore;
  logger: Logger;
  /** Delivers a control message to every replica holding the board. */
  control(boardId: string, msg: ControlMessage): Promise<void>;
  /** Long enough for replicas to drop their copies before the stored document goes. */
  settleMs: number;
}

export function subscribeBoardEvents(deps: BoardConsumerDeps): Promise<Subscription> {
  const consumer = defineConsumer({
    durable: BOARDS_CONSUMER,
    types: ['board.sharing_changed', 'board.deleted'],
    async handle(event) {
      // Both effects are idempotent; the mark only saves the work of a redelivery.
      if (await deps.store.isProcessed(BOARDS_CONSUMER, event.id)) return;
      if (event.type === 'board.sharing_changed') {
        await deps.control(event.data.boardId, { action: 'recheck' });
      } else {
        const { boardId } = event.data;
        await deps.control(boardId, { action: 'deleted' });
        await new Promise((r) => setTimeout(r, deps.settleMs));
        await deps.store.deleteBoard(boardId);
        deps.logger.info({ boardId }, 'board document deleted');
      }
      await deps.store.markProcessed(BOARDS_CONSUMER, event.id);
    },
  });
  return consume(deps.transport, consumer);
}
