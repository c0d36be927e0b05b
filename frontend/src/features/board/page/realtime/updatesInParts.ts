/**
 * Document content leaves the provider in messages under MESSAGE_PART_BYTES: the realtime service
 * closes a socket whose message exceeds MAX_MESSAGE_BYTES (1 MiB by default), and y-websocket sends
 * an update whole — a large paste, and on reconnect everything made offline as one sync step 2. The
 * refused message came back at every reconnect: the edits never reached the board.
 *
 * Two places of y-websocket are wrapped, through its own extension points: the handler of sync
 * messages (`messageHandlers`, copied per provider) answers the server's step 1 in parts when the
 * answer is large, and the document's update listener hands the original listener one part at a time.
 */
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import { messageSync, type WebsocketProvider } from 'y-websocket';
import { splitUpdate } from './splitUpdate.ts';

/** A quarter of the service's default message limit: room for a lower limit and the framing. */
export const MESSAGE_PART_BYTES = 256 * 1024;

type UpdateListener = (update: Uint8Array, origin: unknown) => void;

export function sendUpdatesInParts(provider: WebsocketProvider, doc: Y.Doc): void {
  const handleSync = provider.messageHandlers[messageSync]!;
  provider.messageHandlers[messageSync] = (encoder, decoder, p, emitSynced, messageType) => {
    const start = decoder.pos;
    if (decoding.readVarUint(decoder) !== syncProtocol.messageYjsSyncStep1) {
      decoder.pos = start;
      return handleSync(encoder, decoder, p, emitSynced, messageType);
    }
    // The server's step 1: what it lacks, answered as y-protocols would (writeSyncStep2), or in parts.
    const missing = Y.encodeStateAsUpdate(doc, decoding.readVarUint8Array(decoder));
    if (missing.byteLength <= MESSAGE_PART_BYTES) {
      encoding.writeVarUint(encoder, messageSync);
      encoding.writeVarUint(encoder, syncProtocol.messageYjsSyncStep2);
      encoding.writeVarUint8Array(encoder, missing);
      return;
    }
    // The encoder stays empty, so y-websocket sends no reply of its own.
    for (const part of splitUpdate(missing, MESSAGE_PART_BYTES)) p.ws?.send(updateMessage(part) as Uint8Array<ArrayBuffer>);
  };

  const fields = provider as unknown as { _updateHandler?: UpdateListener };
  const send = fields._updateHandler;
  if (typeof send !== 'function') return;
  const inParts: UpdateListener = (update, origin) => {
    if (update.byteLength <= MESSAGE_PART_BYTES) return send(update, origin);
    for (const part of splitUpdate(update, MESSAGE_PART_BYTES)) send(part, origin);
  };
  doc.off('update', send);
  doc.on('update', inParts);
  // The provider detaches `_updateHandler` when destroyed (and quietUpdates reads it).
  fields._updateHandler = inParts;
}

function updateMessage(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, messageSync);
  syncProtocol.writeUpdate(e, update);
  return encoding.toUint8Array(e);
}
