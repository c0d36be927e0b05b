/** Image elements by URL, loaded once for every item and board that shows them. */
import { dataUrlImageSize, imageSizeAllowed } from '@wb/board-model';

type Loaded = HTMLImageElement | 'error';
const images = new Map<string, Loaded | 'loading'>();
const listeners = new Set<(src: string) => void>();
type Resolver = (src: string) => string | Promise<string>;
/**
 * Without the page's resolver only data URLs load. Nothing else is fetched as it stands: an outside
 * address in the document would be a tracking pixel for every viewer (issue 32 item 9).
 */
const dataOnly: Resolver = (src) => (src.startsWith('data:') ? src : Promise.reject(new Error('not loadable')));
let resolveSrc: Resolver = dataOnly;

/**
 * How a stored `src` becomes a loadable URL (the page signs the board's own images:
 * createImageUrlSigner); the cache stays keyed by `src`.
 */
export function setImageSrcResolver(fn: Resolver | undefined): void {
  resolveSrc = fn ?? dataOnly;
}

/** Sets `img.src` once the resolver answers; `fail` when it refuses. */
function load(img: HTMLImageElement, src: string, fail: () => void): void {
  let url: string | Promise<string>;
  try {
    url = resolveSrc(src);
  } catch {
    return fail();
  }
  if (typeof url === 'string') img.src = url;
  else url.then((u) => void (img.src = u), fail);
}

/** Runs `fn` whenever an image finishes loading (or fails); answers the unsubscribe. */
export function onImageSettled(fn: (src: string) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The image when loaded, 'error' when it failed (drawn as the grey placeholder), null while it loads. */
export function imageFor(src: string): HTMLImageElement | 'error' | null {
  const cached = images.get(src);
  if (cached === 'loading') return null;
  if (cached) return cached;
  images.set(src, 'loading');
  // A data URL written into the document by another client is checked before the browser decodes
  // it: a few kilobytes can declare a picture of gigabytes (uploads are checked by the server).
  if (src.startsWith('data:') && !imageSizeAllowed(dataUrlImageSize(src))) {
    // Settled after this frame, like a load that failed: the caller is still drawing.
    queueMicrotask(() => {
      images.set(src, 'error');
      for (const fn of listeners) fn(src);
    });
    return null;
  }
  const img = new Image();
  img.decoding = 'async';
  const settle = (value: Loaded) => {
    images.set(src, value);
    for (const fn of listeners) fn(src);
  };
  img.onload = () => settle(img);
  img.onerror = () => settle('error');
  load(img, src, () => settle('error'));
  return null;
}

/** Natural size of an image, for fitting it into 400×300 on insert. */
export function naturalSize(src: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => resolve({ width: 0, height: 0 });
    load(img, src, () => resolve({ width: 0, height: 0 }));
  });
}
