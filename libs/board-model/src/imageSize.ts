/**
 * The pixel size an image declares in its header (PNG, JPEG, GIF, WebP), read without decoding it.
 * A few kilobytes of PNG can declare 100,000 × 100,000 pixels: every browser on the board and the
 * export's rasteriser would try to decode that into 40 GB. Uploads are refused and exports leave the
 * grey placeholder past MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE.
 */

/** The largest picture (width × height) a board accepts: a 48-megapixel camera photo fits. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The longest side a board accepts (browsers refuse larger canvases and bitmaps anyway). */
export const MAX_IMAGE_SIDE = 16_384;

export interface ImageSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const tag = (b: Uint8Array, at: number, s: string) => [...s].every((c, i) => b[at + i] === c.charCodeAt(0));

function png(b: Uint8Array): ImageSize | null {
  // Signature (8), IHDR length (4), 'IHDR' (4), width (4), height (4).
  if (b.length < 24 || !tag(b, 12, 'IHDR')) return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): ImageSize | null {
  return b.length < 10 ? null : { width: u16le(b, 6), height: u16le(b, 8) };
}

function jpeg(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI/EOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2;
      continue;
    }
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webp(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  if (tag(b, 12, 'VP8X')) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (tag(b, 12, 'VP8L')) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (tag(b, 12, 'VP8 ')) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  return null;
}

/** The declared size, or null when the header is not one of the four formats or is cut short. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  if (tag(bytes, 1, 'PNG')) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (tag(bytes, 0, 'GIF8')) return gif(bytes);
  if (tag(bytes, 0, 'RIFF') && tag(bytes, 8, 'WEBP')) return webp(bytes);
  return null;
}

/**
 * The declared size of a base64 data URL's picture, read from its first 192 KiB (a JPEG's frame size
 * comes after its EXIF), or null when it is no base64 data URL of one of the four formats.
 */
export function dataUrlImageSize(src: string): ImageSize | null {
  const comma = src.indexOf(',');
  if (!src.startsWith('data:') || comma < 0 || !src.slice(0, comma).endsWith(';base64')) return null;
  const b64 = src.slice(comma + 1, comma + 1 + 256 * 1024);
  let head: string;
  try {
    // Whole groups of four only: atob refuses a cut-off group, and the last bytes are no header.
    head = atob(b64.slice(0, b64.length - (b64.length % 4)));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(head.length);
  for (let i = 0; i < head.length; i++) bytes[i] = head.charCodeAt(i);
  return imageSize(bytes);
}

/** True when the picture may be drawn: its size is known, not empty, and within the limits. */
export function imageSizeAllowed(size: ImageSize | null): size is ImageSize {
  return (
    size !== null &&
    size.width > 0 &&
    size.height > 0 &&
    size.width <= MAX_IMAGE_SIDE &&
    size.height <= MAX_IMAGE_SIDE &&
    size.width * size.height <= MAX_IMAGE_PIXELS
  );
}
