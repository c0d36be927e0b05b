import { createHash } from 'node:crypto';
import type { SnapshotRow, SnapshotStatus } from '../store/types.ts';

/** Below this a non-empty state is "small": a few objects, worth a glance before deleting. */
export const SMALL_SNAPSHOT_BYTES = 1024;

export function snapshotStatus(objectsCount: number, blobSize: number): SnapshotStatus {
  if (objectsCount === 0) return 'empty';
  return blobSize < SMALL_SNAPSHOT_BYTES ? 'small' : 'normal';
}

export function snapshotStats(rows: SnapshotRow[]) {
  const empty = rows.filter((r) => r.status === 'empty').length;
  return {
    total: rows.length,
    content_count: rows.length - empty,
    empty_count: empty,
    max_size: rows.reduce((m, r) => Math.max(m, r.blob_size), 0),
  };
}

export const stateHash = (state: Uint8Array): string => createHash('sha256').update(state).digest('hex');

/**
 * A stable UUID for "board X reached version N", so every replica that publishes board.saved for
 * the same compaction produces the same event id and JetStream drops the duplicates.
 */
export function savedEventId(boardId: string, version: number): string {
  const h = createHash('sha256').update(`board.saved:${boardId}:${version}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
