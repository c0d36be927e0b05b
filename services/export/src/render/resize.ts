/**
 * A picture decoded straight to the size it is drawn with (issue 32 item 1), by libvips through
 * sharp: JPEG and WebP shrink while they decode, PNG and GIF are read row by row into the shrinking
 * filter, so a 7,000 × 7,000 PNG never exists as 196 MB of pixels (measured: 38 MB more RSS and
 * 150 ms for one, against a full decode's 196 MB that glibc kept). The result is a small PNG the
 * render thread draws as before.
 *
 * The work runs on libuv's thread pool, which the process shares (auth's crypto runs there too in the
 * embedded mode): one resize at a time per process, and libvips itself on one thread, so exports of
 * large pictures take turns instead of taking every pool thread from request handling.
 */
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '@wb/board-model';

sharp.cache(false);
sharp.concurrency(1);

let tail: Promise<unknown> = Promise.resolve();

/** Runs resizes one after another (see above). */
function serial<T>(job: () => Promise<T>): Promise<T> {
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/** The picture as a PNG of exactly `width` × `height` (stretched like the canvas draws it), or null when it does not decode. */
export function resizeImage(bytes: Uint8Array, width: number, height: number): Promise<Buffer | null> {
  return serial(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true, failOn: 'error' })
        .resize(width, height, { fit: 'fill' })
        .png({ compressionLevel: 1 })
        .toBuffer();
    } catch {
      return null;
    }
  });
}
