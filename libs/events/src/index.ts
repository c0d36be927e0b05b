export * from './types.ts';
export { newEvent } from './event.ts';
export { createInProcessTransport, type InProcessTransportOptions } from './inprocess.ts';
export { createNatsTransport, type NatsTransportOptions } from './nats.ts';
export { ensureEventTables, enqueueEvent, outboxBacklog, startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox.ts';
export { idempotent } from './idempotent.ts';
export { serviceEvents, type ServiceEvents, type ServiceEventsOptions } from './lifecycle.ts';
export { defineConsumer, consume, consumeIdempotent, type ConsumerDefinition } from './consumer.ts';
