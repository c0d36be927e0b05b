/**
 * Which image sources an export may embed: only the board's own store URLs (looked up by hash, never
 * fetched) and raster data URLs of old documents. Anything else (another board's image, an http(s)
 * address, an internal host) is drawn as the grey placeholder.
 */
import { boundsIntersect, dataUrlImageSize, imageSize, imageSizeAllowed, type Area } from '@wb/board-model';

const HASH = /^[0-9a-f]{64}$/;
const RASTER_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

export type ImageSource = ({ kind: 'store'; src: string; hash: string } | { kind: 'data'; src: string }) & {
  /** The largest size (board units) any object in the area draws this picture at. */
  drawn?: { width: number; height: number };
};

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
    if (!source) continue;
    const known = seen.get(source.src);
    const drawn = { width: Math.abs(width), height: Math.abs(height) };
    if (!known) seen.set(source.src, { ...source, drawn });
    else
      known.drawn = {
        width: Math.max(known.drawn!.width, drawn.width),
        height: Math.max(known.drawn!.height, drawn.height),
      };
  }
  return [...seen.values()];
}

/**
 * The pixel size each picture is decoded at (issue 32 item 1): what it is drawn with at the export's
 * `scale` (pixels per board unit), never more than it has, and all of them together within `budget`
 * pixels; past the budget every picture is scaled down by the same factor (decisions.md: reduced
 * resolution, not a refusal). A 7,000 × 7,000 picture drawn 300 × 300 is decoded at 300 × 300.
 */
export function decodeSizes(
  images: ReadonlyArray<{ drawn: { width: number; height: number }; natural: { width: number; height: number } }>,
  scale: number,
  budget: number,
): Array<{ width: number; height: number }> {
  const wanted = images.map(({ drawn, natural }) => ({
    width: Math.max(1, Math.min(natural.width, Math.ceil(drawn.width * scale))),
    height: Math.max(1, Math.min(natural.height, Math.ceil(drawn.height * scale))),
  }));
  const total = wanted.reduce((sum, s) => sum + s.width * s.height, 0);
  if (total <= budget) return wanted;
  // Floor after the factor, so rounding cannot carry the sum past the budget.
  const k = Math.sqrt(budget / total);
  return wanted.map((s) => ({ width: Math.max(1, Math.floor(s.width * k)), height: Math.max(1, Math.floor(s.height * k)) }));
}

/**
 * May the picture be decoded: its header (stored bytes, or a data URL's) names a size within the
 * board's limits. A small file that declares a huge picture would make the rasteriser allocate
 * gigabytes; it stays a placeholder.
 */
export function drawableImage(image: Uint8Array | string): boolean {
  return imageSizeAllowed(typeof image === 'string' ? dataUrlImageSize(image) : imageSize(image));
}
