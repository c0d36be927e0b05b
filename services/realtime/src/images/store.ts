/**
 * Board images, stored once by content hash beside the documents (never inside them). The bytes
 * live once however many boards use them; a board may serve an image only if it was uploaded to
 * that board, so a hash learnt elsewhere opens nothing. MongoDB in a cluster, PostgreSQL in the
 * embedded mode; both pass test/images-store-contract.test.ts.
 */
import { createHash } from 'node:crypto';
import type { ImageType } from './sniff.ts';

export interface StoredImage {
  hash: string;
  mime: ImageType;
  bytes: Buffer;
}

export interface ImageStore {
  /** Creates tables or indexes; idempotent. */
  init(): Promise<void>;
  /**
   * Stores the bytes unless that hash exists, and links the image to the board. Idempotent. `display`
   * is the picture's display-size variant (variants.ts), kept beside it under `displayKey(hash)`.
   */
  put(boardId: string, image: StoredImage, display?: Omit<StoredImage, 'hash'> | null): Promise<void>;
  /**
   * The image if it was uploaded to this board: its display-size variant when it has one, unless
   * `original` is asked for. `hash` stays the original's (the URL's).
   */
  get(boardId: string, hash: string, opts?: { original?: boolean }): Promise<StoredImage | null>;
  /**
   * Forgets the board's links, and the bytes of the images no other board links any more (a board
   * deleted for good leaves nothing behind). Idempotent.
   */
  deleteBoard(boardId: string): Promise<void>;
  /** Whether the bytes of this hash are still stored (whatever board links them). */
  hasBytes(hash: string): Promise<boolean>;
  close(): Promise<void>;
}

/** sha256 in hex: the image's id and the last part of its URL. */
export const imageHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
export const IMAGE_HASH_SHAPE = /^[0-9a-f]{64}$/;
/** Where an image's display-size variant is stored: beside it, keyed by the original's content hash. */
export const displayKey = (hash: string): string => `${hash}-display`;
