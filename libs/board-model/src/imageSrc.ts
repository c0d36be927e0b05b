/**
 * Where an image object's picture may come from (issue 32 item 9): the board's own image store,
 * named by content hash, or a small raster data URL kept in the document. Anything else (an http(s)
 * address, another board's store, an SVG data URL) would make every viewer's browser fetch or run
 * what one editor chose: a tracking pixel at best. The realtime server refuses such a write; the
 * canvas neither writes nor loads one.
 */

/** Largest data URL an image object may hold (about 190 KB of picture); larger pictures are uploaded. */
export const IMAGE_DATA_URL_MAX = 256 * 1024;

const STORE_SRC = /^\/yjs\/images\/([\w-]{1,64})\/[0-9a-f]{64}$/;
const DATA_SRC = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;

/** The `src` of an image uploaded to `boardId` (what the upload call answers as `url`). */
export const storeImageSrc = (boardId: string, hash: string): string => `/yjs/images/${boardId}/${hash}`;

export type ImageSrcVerdict = 'store' | 'data' | 'data-too-large' | 'other-board' | 'foreign';

export function classifyBoardImageSrc(src: unknown, boardId: string): ImageSrcVerdict {
  if (typeof src !== 'string') return 'foreign';
  if (src.startsWith('data:')) {
    if (src.length > IMAGE_DATA_URL_MAX) return 'data-too-large';
    return DATA_SRC.test(src) ? 'data' : 'foreign';
  }
  const m = STORE_SRC.exec(src);
  if (!m) return 'foreign';
  return m[1] === boardId ? 'store' : 'other-board';
}

export const imageSrcAllowed = (src: unknown, boardId: string): boolean => {
  const v = classifyBoardImageSrc(src, boardId);
  return v === 'store' || v === 'data';
};
