import * as Y from 'yjs';

/**
 * The updates as one message (a single one as it is), or null when Yjs refuses to merge them: it
 * refuses some sets it applies without complaint, and the callers then pass them on one by one
 * rather than lose them (the journal's shipment, the relay's batch).
 */
export function mergeOrNull(updates: Uint8Array[]): Uint8Array | null {
  if (updates.length === 1) return updates[0]!;
  try {
    return Y.mergeUpdates(updates);
  } catch {
    return null;
  }
}
