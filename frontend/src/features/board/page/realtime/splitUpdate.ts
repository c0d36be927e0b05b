/**
 * A Yjs update cut into updates of about `maxBytes` each, whose union is the original: the realtime
 * service refuses a message over MAX_MESSAGE_BYTES (1 MiB by default), and a client's update can be
 * larger (a big paste, or every edit made offline, sent as one sync message on reconnect). Refused,
 * it came back at every reconnect and never reached the board.
 *
 * The structs are re-encoded as Yjs writes them (`writeStructs` in its encoding.js: per client a
 * count, the client, the first clock, then each struct), cut between structs; the delete set goes
 * alone in the last part. A struct larger than `maxBytes` (one very long string) stays whole.
 */
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';

/** The client count and the empty delete set of a part. */
const EMPTY_BYTES = 2;
/** A client's struct count, id and first clock, as var ints (at most 5 + 5 + 5 bytes). */
const CLIENT_HEADER_BYTES = 15;

interface Struct {
  id: { client: number; clock: number };
  length: number;
  write(encoder: Y.UpdateEncoderV1, offset: number): void;
}

export function splitUpdate(update: Uint8Array, maxBytes: number): Uint8Array[] {
  if (update.byteLength <= maxBytes) return [update];
  const { structs } = Y.decodeUpdate(update) as unknown as { structs: Struct[] };
  const parts: Uint8Array[] = [];
  let part: Struct[] = [];
  let size = EMPTY_BYTES;
  let client = -1;
  for (const s of structs) {
    const bytes = encodedSize(s);
    // A client's first struct in a part also costs its header (count, client, clock).
    if (part.length > 0 && size + bytes + (s.id.client !== client ? CLIENT_HEADER_BYTES : 0) > maxBytes) {
      parts.push(encodeStructs(part));
      part = [];
      size = EMPTY_BYTES;
      client = -1;
    }
    if (s.id.client !== client) size += CLIENT_HEADER_BYTES;
    part.push(s);
    size += bytes;
    client = s.id.client;
  }
  if (part.length > 0) parts.push(encodeStructs(part));
  // Every struct left out of the state vector: what stays is the delete set.
  const deletes = Y.diffUpdate(update, Y.encodeStateVectorFromUpdate(update));
  if (!isEmpty(deletes)) parts.push(deletes);
  return parts;
}

function encodedSize(s: Struct): number {
  const e = new Y.UpdateEncoderV1();
  s.write(e, 0);
  return e.toUint8Array().byteLength;
}

/** An update of these structs (in update order: by client, then clock) and an empty delete set. */
function encodeStructs(structs: Struct[]): Uint8Array {
  const byClient = new Map<number, Struct[]>();
  for (const s of structs) {
    const list = byClient.get(s.id.client);
    if (list) list.push(s);
    else byClient.set(s.id.client, [s]);
  }
  const e = new Y.UpdateEncoderV1();
  encoding.writeVarUint(e.restEncoder, byClient.size);
  for (const [client, list] of byClient) {
    encoding.writeVarUint(e.restEncoder, list.length);
    e.writeClient(client);
    encoding.writeVarUint(e.restEncoder, list[0]!.id.clock);
    for (const s of list) s.write(e, 0);
  }
  // The delete set: no clients.
  encoding.writeVarUint(e.restEncoder, 0);
  return e.toUint8Array();
}

/** No structs and no deletions (`[0, 0]`). */
function isEmpty(update: Uint8Array): boolean {
  return update.byteLength === 2 && update[0] === 0 && update[1] === 0;
}
