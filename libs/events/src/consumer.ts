import { isEventOf, type DomainEvent, type EventType } from '@wb/contracts';
import type { Pool, PoolClient } from '@wb/db';
import { idempotent } from './idempotent.ts';
import type { EventTransport, SubscribeOptions, Subscription } from './types.ts';

type Delivery = Pick<SubscribeOptions, 'maxDeliver' | 'backoffMs' | 'ackWaitMs'>;

/**
 * A durable consumer of some event types. `handle` receives exactly those events, typed: checking
 * `event.type` narrows `event.data`, so no call site casts. `Extra` is what the runner adds
 * (the transaction's client for `consumeIdempotent`).
 */
export interface ConsumerDefinition<T extends EventType, Extra extends unknown[] = []> extends Delivery {
  /** Durable name, unique per consuming service and purpose, e.g. 'boards-users'. */
  durable: string;
  types: readonly T[];
  handle(event: DomainEvent<T>, ...extra: Extra): Promise<void>;
}

/**
 * @example
 * export const userDeleted = defineConsumer({
 *   durable: 'boards-users',
 *   types: ['user.deleted'],
 *   async handle(event, client: PoolClient) {
 *     await client.query('DELETE FROM boards WHERE owner_id = $1', [event.data.userId]);
 *   },
 * });
 * // in start(): subs.push(await consumeIdempotent(transport, pool, userDeleted));
 */
export function defineConsumer<const T extends EventType, Extra extends unknown[] = []>(
  definition: ConsumerDefinition<T, Extra>,
): ConsumerDefinition<T, Extra> {
  return definition;
}

const options = <T extends EventType>(
  def: ConsumerDefinition<T, never[]>,
  handler: SubscribeOptions['handler'],
): SubscribeOptions => ({
  durable: def.durable,
  types: [...def.types],
  handler,
  maxDeliver: def.maxDeliver,
  backoffMs: def.backoffMs,
  ackWaitMs: def.ackWaitMs,
});

/** Subscribes a consumer whose handler keeps its own idempotency (or needs none). */
export function consume<T extends EventType>(
  transport: EventTransport,
  def: ConsumerDefinition<T>,
): Promise<Subscription> {
  return transport.subscribe(
    options(def, async (event) => {
      // A durable's types can be widened while old events are in flight; others are acked and skipped.
      if (isEventOf(event, def.types)) await def.handle(event);
    }),
  );
}

/** Subscribes a consumer whose effects commit in one transaction with its "processed" mark (see idempotent). */
export function consumeIdempotent<T extends EventType>(
  transport: EventTransport,
  pool: Pool,
  def: ConsumerDefinition<T, [PoolClient]>,
): Promise<Subscription> {
  return transport.subscribe(
    options(
      def,
      idempotent(pool, def.durable, async (event, client) => {
        if (isEventOf(event, def.types)) await def.handle(event, client);
      }),
    ),
  );
}
