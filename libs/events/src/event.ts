import { randomUUID } from 'node:crypto';
import { EventSchemas, type DomainEvent, type EventData, type EventType } from '@wb/contracts';

/**
 * Builds an envelope after validating `data` against the contract, so a bad payload fails at the
 * producer (where the bug is) rather than at every consumer.
 */
export function newEvent<T extends EventType>(type: T, data: EventData<T>, source: string): DomainEvent<T> {
  const schema = EventSchemas[type];
  if (!schema) throw new Error(`unknown event type ${String(type)}`);
  // The one place an envelope is assembled; the compiler cannot see that a generic T picks one member.
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    source,
    data: schema.parse(data) as EventData<T>,
  } as unknown as DomainEvent<T>;
}
