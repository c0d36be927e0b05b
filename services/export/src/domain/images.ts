/**
 * Which image sources an export may embed: only the board's own store URLs (looked up by hash, never
 * fetched) and raster data URLs of old documents. Anything else (another board's image, an http(s)
 * address, an internal host) is drawn as the grey placeholder.
 */
import { boundsIntersect, dataUrlImageSize, imageSize, imageSizeAllowed, type Area } from '@wb/board-model';

const HASH = /^[0-9a-f]{64}$/;
const RASTER_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

export type ImageSource = { kind: 'store'; src: string; hash: string } | { kind: 'data'; src: string };

export function classifyImageSrc(boardId: string, src: string): ImageSource | null {
  if (RASTER_DATA_URL.test(src)) return { kind: 'data', src };
  const prefix = `/yjs/images/${boardId}/`;
  if (!src.startsWith(prefix)) return null;
  const hash = src.slice(prefix.length).split('?')[0] ?? '';
  return HASH.test(hash) ? { kind: 'store', src, hash } : null;
}

/** The image objects of a raw state that may show in the area (cheap box test; the scene culls exactly). */
export function imageSourcesInArea(boardId: string, objects: readonly unknown[], area: Area): ImageSource[] {
  const seen = new Map<string, ImageSource>();
  for (const raw of objects) {
    if (!raw || typeof raw !== 'object') continue;
    const o = raw as Record<string, unknown>;
    if (o.type !== 'image' || typeof o.src !== 'string') continue;
    const [x, y, width, height] = [o.x, o.y, o.width, o.height].map(Number);
    if (![x, y, width, height].every(Number.isFinite)) continue;
    if (!boundsIntersect({ x, y, width, height }, area)) continue;
    const source = classifyImageSrc(boardId, o.src);
    if (source && !seen.has(source.src)) seen.set(source.src, source);
  }
  return [...seen.values()];
}

/**
 * May the picture be decoded: its header (stored bytes, or a data URL's) names a size within the
 * board's limits. A small file that declares a huge picture would make the rasteriser allocate
 * gigabytes; it stays a placeholder.
 */
export function drawableImage(image: Uint8Array | string): boolean {
  return imageSizeAllowed(typeof image === 'string' ? dataUrlImageSize(image) : imageSize(image));
}
