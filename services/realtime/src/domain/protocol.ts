/**
 * The wire format: y-websocket's message types (so the stock provider connects unchanged) plus
 * one custom type for reactions. Pure encoders and decoders, no I/O.
 */
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { z } from 'zod';
import { isSingleEmoji } from '@wb/board-model';

export const MessageType = {
  SYNC: 0,
  AWARENESS: 1,
  AUTH: 2,
  QUERY_AWARENESS: 3,
  /** Ours: JSON requests from read-only clients that the server applies on their behalf. */
  CUSTOM: 100,
} as const;

export const SyncType = { STEP1: 0, STEP2: 1, UPDATE: 2 } as const;

/** A sync-protocol frame: message type SYNC, the sync step, then the payload. */
function encodeSyncMessage(step: number, payload: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MessageType.SYNC);
  encoding.writeVarUint(e, step);
  encoding.writeVarUint8Array(e, payload);
  return encoding.toUint8Array(e);
}

export const encodeSyncStep1 = (stateVector: Uint8Array) => encodeSyncMessage(SyncType.STEP1, stateVector);
export const encodeSyncStep2 = (update: Uint8Array) => encodeSyncMessage(SyncType.STEP2, update);
export const encodeUpdate = (update: Uint8Array) => encodeSyncMessage(SyncType.UPDATE, update);

export function encodeAwareness(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MessageType.AWARENESS);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

export function encodeCustom(payload: unknown): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MessageType.CUSTOM);
  encoding.writeVarString(e, JSON.stringify(payload));
  return encoding.toUint8Array(e);
}

export type ClientMessage =
  | { type: 'sync-step1'; stateVector: Uint8Array }
  | { type: 'sync-update'; update: Uint8Array }
  | { type: 'awareness'; update: Uint8Array }
  | { type: 'query-awareness' }
  | { type: 'auth' }
  | { type: 'custom'; json: string };

export class MalformedMessage extends Error {}

/**
 * Splits a frame into its parts; throws MalformedMessage on anything that is not exactly one
 * well-formed message (lib0 decoders throw on truncation, so they are caught here).
 */
export function decodeClientMessage(data: Uint8Array): ClientMessage {
  try {
    const d = decoding.createDecoder(data);
    const type = decoding.readVarUint(d);
    let msg: ClientMessage;
    switch (type) {
      case MessageType.SYNC: {
        const sub = decoding.readVarUint(d);
        const bytes = decoding.readVarUint8Array(d);
        if (sub === SyncType.STEP1) msg = { type: 'sync-step1', stateVector: bytes };
        else if (sub === SyncType.STEP2 || sub === SyncType.UPDATE) msg = { type: 'sync-update', update: bytes };
        else throw new MalformedMessage(`unknown sync type ${sub}`);
        break;
      }
      case MessageType.AWARENESS:
        msg = { type: 'awareness', update: decoding.readVarUint8Array(d) };
        break;
      case MessageType.QUERY_AWARENESS:
        msg = { type: 'query-awareness' };
        break;
      case MessageType.AUTH:
        // Clients never authenticate in-band here (the token is in the URL); the rest is ignored.
        return { type: 'auth' };
      case MessageType.CUSTOM:
        msg = { type: 'custom', json: decoding.readVarString(d) };
        break;
      default:
        throw new MalformedMessage(`unknown message type ${type}`);
    }
    if (decoding.hasContent(d)) throw new MalformedMessage('trailing bytes');
    return msg;
  } catch (err) {
    if (err instanceof MalformedMessage) throw err;
    throw new MalformedMessage((err as Error).message);
  }
}

/** One awareness entry as y-protocols encodes it, its JSON state parsed (null: the client left). */
export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: unknown;
}

export function decodeAwarenessEntries(update: Uint8Array): AwarenessEntry[] {
  try {
    const d = decoding.createDecoder(update);
    const n = decoding.readVarUint(d);
    const out: AwarenessEntry[] = [];
    for (let i = 0; i < n; i++) {
      const clientId = decoding.readVarUint(d);
      const clock = decoding.readVarUint(d);
      const state: unknown = JSON.parse(decoding.readVarString(d));
      out.push({ clientId, clock, state });
    }
    if (decoding.hasContent(d)) throw new MalformedMessage('trailing bytes in awareness');
    return out;
  } catch (err) {
    if (err instanceof MalformedMessage) throw err;
    throw new MalformedMessage((err as Error).message);
  }
}

/** The inverse of decodeAwarenessEntries, in y-protocols' encoding (what applyAwarenessUpdate reads). */
export function encodeAwarenessEntries(entries: readonly AwarenessEntry[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, entries.length);
  for (const x of entries) {
    encoding.writeVarUint(e, x.clientId);
    encoding.writeVarUint(e, x.clock);
    encoding.writeVarString(e, JSON.stringify(x.state));
  }
  return encoding.toUint8Array(e);
}

/**
 * The custom message a read-only client sends (type 100, a JSON string):
 * `{type:'reaction', objectId, emoji, requestId?}`. The answer, to that connection only, is
 * `{type:'reaction-result', requestId, ok, added?, code?, error?}`.
 */
export const CustomRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('reaction'),
    objectId: z.string().min(1).max(64),
    emoji: z.string().min(1).max(16).refine(isSingleEmoji),
    requestId: z.union([z.string().max(64), z.number()]).optional(),
  }),
]);
export type CustomRequest = z.infer<typeof CustomRequest>;

export interface ReactionResult {
  type: 'reaction-result';
  requestId?: string | number;
  ok: boolean;
  added?: boolean;
  code?: string;
  error?: string;
}
