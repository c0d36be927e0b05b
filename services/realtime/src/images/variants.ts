/**
 * The display-size variant of a large upload (issue 32 item 1): at most DISPLAY_MAX_SIDE pixels a
 * side, made once at upload by libvips through sharp and stored beside the original (store.ts,
 * displayKey). Boards and the export fetch it by default; the original stays downloadable
 * (`?original=1`). A 7,000 × 7,000 PNG of 155 KB is 196 MB of pixels in every browser that draws
 * it and in the export; its variant is 4,096 × 4,096 at most.
 *
 * The size comes from the header (imageSize), so a picture small enough needs no decoding at all;
 * a larger one is decoded row by row into the shrinking filter (JPEG and WebP shrink while they
 * decode), never whole. One resize at a time per process, libvips on one thread: they run on libuv's
 * thread pool, which request handling (crypto, zlib, files) shares.
 */
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, type ImageSize } from '@wb/board-model';
import type { ImageType } from './sniff.ts';

export const DISPLAY_MAX_SIDE = 4096;

sharp.cache(false);
sharp.concurrency(1);

let tail: Promise<unknown> = Promise.resolve();
function serial<T>(job: () => Promise<T>): Promise<T> {
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/** Whether a picture of this size gets a display variant. */
export const needsDisplayVariant = (size: ImageSize): boolean =>
  size.width > DISPLAY_MAX_SIDE || size.height > DISPLAY_MAX_SIDE;

/**
 * The variant's bytes and type (JPEG stays JPEG, WebP stays WebP, PNG and GIF become PNG: the first
 * frame of an animation), or null when the picture does not decode.
 */
export function displayVariant(bytes: Buffer, mime: ImageType): Promise<{ mime: ImageType; bytes: Buffer } | null> {
  return serial(async () => {
    try {
      const resized = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true, failOn: 'error' }).resize(
        DISPLAY_MAX_SIDE,
        DISPLAY_MAX_SIDE,
        { fit: 'inside', withoutEnlargement: true },
      );
      if (mime === 'image/jpeg') return { mime, bytes: await resized.jpeg({ quality: 85 }).toBuffer() };
      if (mime === 'image/webp') return { mime, bytes: await resized.webp({ quality: 85 }).toBuffer() };
      return { mime: 'image/png', bytes: await resized.png({ compressionLevel: 6 }).toBuffer() };
    } catch {
      return null;
    }
  });
}
