/**
 * Signed image URLs (issue 32 item 9, docs/decisions.md): an <img> cannot send a header, and the
 * access token in its URL leaked into logs, history and Referer. A stored image is read with a URL
 * that names one image of one board until an expiry, signed with the service's key:
 * `/yjs/images/<board>/<hash>?exp=<unix s>&sig=<base64url HMAC-SHA256(board/hash/exp)>`.
 * Pure (the caller passes the key and the clock).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed URL stays valid at least: long enough to load a board, short enough to be no credential. */
export const IMAGE_URL_MIN_TTL_S = 10 * 60;
/**
 * Expiries are rounded up to this step, so every call within one step signs the same URL and the
 * browser's cache (the bytes are immutable) keeps serving it.
 */
export const IMAGE_URL_STEP_S = 5 * 60;

export function imageUrlExpiry(nowMs: number): number {
  return Math.ceil((nowMs / 1000 + IMAGE_URL_MIN_TTL_S) / IMAGE_URL_STEP_S) * IMAGE_URL_STEP_S;
}

function signature(key: Uint8Array, boardId: string, hash: string, exp: number): Buffer {
  return createHmac('sha256', key).update(`${boardId}/${hash}/${exp}`).digest();
}

export function signedImageUrl(key: Uint8Array, boardId: string, hash: string, exp: number): string {
  return `/yjs/images/${boardId}/${hash}?exp=${exp}&sig=${signature(key, boardId, hash, exp).toString('base64url')}`;
}

export type ImageUrlCheck = 'ok' | 'invalid' | 'expired';

export function checkImageUrl(
  key: Uint8Array,
  boardId: string,
  hash: string,
  q: { exp?: number; sig?: string },
  nowMs: number,
): ImageUrlCheck {
  if (q.exp === undefined || !q.sig) return 'invalid';
  const given = Buffer.from(q.sig, 'base64url');
  const expected = signature(key, boardId, hash, q.exp);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return q.exp * 1000 < nowMs ? 'expired' : 'ok';
}
