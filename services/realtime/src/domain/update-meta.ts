import * as Y from 'yjs';

/**
 * What the server reads of a client's update before queueing it: each client's first clock (to
 * tell whether the copy holds any of it already) and whether it carries anything at all. The whole
 * update is decoded, delete set included, so a malformed one throws here, before it is stored.
 */
export function readUpdateMeta(update: Uint8Array): { from: Map<number, number>; empty: boolean } {
  const { structs, ds } = Y.decodeUpdate(update);
  const from = new Map<number, number>();
  for (const s of structs) if (!from.has(s.id.client)) from.set(s.id.client, s.id.clock);
  return { from, empty: structs.length === 0 && ds.clients.size === 0 };
}
