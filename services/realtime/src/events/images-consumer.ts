/**
 * Consumer `realtime-images`: board.deleted. A deleted board's image links go, and with them the
 * bytes of images no other board uses. Its own durable (not the document consumer's), so a slow or
 * failing image store never holds up closing the board's connections, and each is redelivered alone.
 * Deleting is idempotent, so a redelivery needs no "processed" mark.
 */
import type { Logger } from 'pino';
import { consume, defineConsumer, type EventTransport, type Subscription } from '@wb/events';
import type { ImageStore } from '../images/index.ts';

export const IMAGES_CONSUMER = 'realtime-images';

export function subscribeImageCleanup(deps: {
  transport: EventTransport;
  images: ImageStore;
  logger: Logger;
}): Promise<Subscription> {
  const consumer = defineConsumer({
    durable: IMAGES_CONSUMER,
    types: ['board.deleted'],
    async handle(event) {
      await deps.images.deleteBoard(event.data.boardId);
      deps.logger.info({ boardId: event.data.boardId }, 'board images deleted');
    },
  });
  return consume(deps.transport, consumer);
}
