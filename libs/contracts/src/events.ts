import { z } from 'zod';
import { SHARE_ROLES } from './board-constants.ts';
import { ADMIN_ACTIONS } from './admin.ts';

/**
 * Every event that crosses a service boundary. The envelope is the same for all; `type` picks
 * the payload schema. Subjects on NATS are `wb.<type>`.
 */
export const EventEnvelope = z.object({
  id: z.string().uuid(),
  type: z.string().min(1),
  occurredAt: z.string(),
  source: z.string(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export const ShareRole = z.enum(SHARE_ROLES);
export type ShareRole = z.infer<typeof ShareRole>;
export const BoardRole = z.enum(['owner', 'editor', 'viewer', 'guest']);
export type BoardRole = z.infer<typeof BoardRole>;

export const EventSchemas = {
  'user.registered': z.object({ userId: z.string().uuid(), email: z.string(), name: z.string(), createdAt: z.string() }),
  'user.updated': z.object({ userId: z.string().uuid(), email: z.string(), name: z.string() }),
  'user.deleted': z.object({ userId: z.string().uuid() }),
  'board.created': z.object({
    boardId: z.string().uuid(),
    ownerId: z.string().uuid(),
    title: z.string(),
    folderId: z.string().uuid().nullable(),
  }),
  'board.updated': z.object({
    boardId: z.string().uuid(),
    ownerId: z.string().uuid(),
    title: z.string(),
    folderId: z.string().uuid().nullable(),
    background: z.string(),
  }),
  'board.deleted': z.object({ boardId: z.string().uuid(), ownerId: z.string().uuid() }),
  /**
   * Link sharing changed. `revokedRoles` are the roles whose previously issued tokens stopped
   * working (link disabled, rotated, or sharing switched off): realtime closes those connections.
   */
  'board.sharing_changed': z.object({
    boardId: z.string().uuid(),
    enabled: z.boolean(),
    enabledRoles: z.array(ShareRole),
    revokedRoles: z.array(ShareRole),
  }),
  'board.saved': z.object({ boardId: z.string().uuid(), version: z.number().int(), objectsCount: z.number().int() }),
  'entitlements.changed': z.object({
    userId: z.string().uuid(),
    planName: z.string().nullable(),
    maxBoards: z.number().int(), // -1 = unlimited
    maxCanvasWidth: z.number().int().nullable(),
    maxCanvasHeight: z.number().int().nullable(),
    exportPdf: z.boolean(),
    limitsEnabled: z.boolean(),
  }),
  /** A user's subscription was created, paid, extended, edited, moved by time or revoked (status null). */
  'subscription.changed': z.object({
    subscriptionId: z.string().uuid(),
    userId: z.string().uuid(),
    planId: z.string().uuid().nullable(),
    planName: z.string().nullable(),
    status: z.enum(['active', 'grace', 'expired']).nullable(),
    expiresAt: z.string().nullable(),
    reason: z.enum(['payment', 'admin', 'time', 'revoked', 'auto_renew']),
  }),
  'payment.succeeded': z.object({
    paymentId: z.string().uuid(),
    userId: z.string().uuid(),
    planId: z.string().uuid(),
    amountMinor: z.number().int(),
    currency: z.string(),
    provider: z.string(),
  }),
  'payment.failed': z.object({
    paymentId: z.string().uuid(),
    userId: z.string().uuid(),
    planId: z.string().uuid(),
    amountMinor: z.number().int(),
    currency: z.string(),
    provider: z.string(),
  }),
  'billing.config_changed': z.object({
    billingEnabled: z.boolean(),
    limitsEnabled: z.boolean(),
    graceDays: z.number().int(),
  }),
  /** An administrator's action (the audit log, kept by admin-monitoring; ADMIN_ACTIONS in admin.ts). */
  'admin.action': z.object({
    actorId: z.string().uuid(),
    actorName: z.string(),
    action: z.enum(ADMIN_ACTIONS),
    target: z.object({ type: z.enum(['user', 'plan', 'subscription', 'config', 'system']), id: z.string().nullable(), label: z.string() }),
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    at: z.string(),
  }),
} as const;

export type EventType = keyof typeof EventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof EventSchemas)[T]>;

/**
 * One discriminated union keyed by `type`: checking `event.type` narrows `event.data` to that
 * event's payload, so consumers never cast. `DomainEvent<'a' | 'b'>` is the union of those two.
 */
export type DomainEvent<T extends EventType = EventType> = Extract<AnyDomainEvent, { type: T }>;

type AnyDomainEvent = {
  [K in EventType]: {
    id: string;
    type: K;
    occurredAt: string;
    source: string;
    data: EventData<K>;
  };
}[EventType];

/** True when `event` is one of `types` (narrows the union). */
export function isEventOf<T extends EventType>(event: DomainEvent, types: readonly T[]): event is DomainEvent<T> {
  return (types as readonly string[]).includes(event.type);
}

/** Parses an envelope and its payload; throws a ZodError on anything malformed. */
export function parseEvent(raw: unknown): DomainEvent {
  const env = EventEnvelope.parse(raw);
  const schema = (EventSchemas as Record<string, z.ZodType>)[env.type];
  if (!schema) throw new Error(`unknown event type ${env.type}`);
  // The payload was checked against the schema its type names, which is what the union says.
  return { ...env, data: schema.parse(env.data) } as DomainEvent;
}

export const subjectOf = (type: string) => `wb.${type}`;
