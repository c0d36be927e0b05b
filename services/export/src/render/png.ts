/**
 * The PNG file of an export, written here instead of by resvg (its encoder, zlib at the default level
 * with adaptive filters, was a quarter of a large export): the area is drawn in horizontal bands, each
 * band by one render thread, and each thread deflates its own rows. The bands' deflate streams are
 * joined into one zlib stream as pigz does: every band but the last ends with a sync flush (byte
 * aligned, no final block), the zlib header goes before the first, and the Adler-32 of the whole is
 * combined from the bands' own. A band's bytes arrive as ready IDAT chunks (CRC included), so the
 * main thread only concatenates.
 *
 * Pixels are written as 8-bit RGB, filter None: every export has an opaque background (the white base
 * of every board background), so alpha is always 255, and on board content (large flat areas) zlib
 * level 2 over unfiltered rows was as small as resvg's file (7.0 MB against 8.1 MB on the bench
 * board) at less than half its CPU; Sub/Up filters cost a pass and came out larger.
 */
import zlib from 'node:zlib';

/** zlib's level for the bands (1–3 measured alike in time; 2 was the smallest of the fast ones). */
const LEVEL = 2;
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (no dictionary, check bits). */
const ZLIB_HEADER = Uint8Array.of(0x78, 0x01);
const ADLER_MOD = 65521;
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** One band's share of the PNG: its rows deflated, as IDAT chunk bytes, and what joining needs. */
export interface PngBand {
  /** IDAT chunk(s): length, type, data, CRC. The first band's data starts with the zlib header. */
  chunks: Uint8Array;
  /** Adler-32 of the band's uncompressed scanlines (filter byte + RGB). */
  adler: number;
  /** Length of those scanlines in bytes. */
  rawLength: number;
}

/**
 * Adler-32 (zlib's checksum) of `data`, continuing from `start`. Four bytes at a time: a block of
 * words adds its byte sums to `a`, and to `b` the sums weighted by their distance from the block's end,
 * computed from per-lane byte sums (two bytes per 16-bit lane) instead of one dependent add per byte;
 * a third of the time of the byte loop, which was half the cost of encoding a band.
 */
export function adler32(data: Uint8Array, start = 1): number {
  let a = start & 0xffff;
  let b = start >>> 16;
  const n = data.length;
  let i = 0;
  // Bytes up to a 4-byte boundary of the buffer, then whole words, then the tail.
  const head = Math.min(n, (4 - (data.byteOffset & 3)) & 3);
  for (; i < head; i++) {
    a += data[i]!;
    b += a;
  }
  a %= ADLER_MOD;
  b %= ADLER_MOD;
  const words = LITTLE_ENDIAN ? new Uint32Array(data.buffer, data.byteOffset + i, (n - i) >>> 2) : new Uint32Array(0);
  // 128 words a block: each 16-bit lane sum stays under 2^15, b's terms under 2^31.
  for (let w = 0; w < words.length; ) {
    const end = Math.min(words.length, w + 128);
    const m = end - w;
    let even = 0; // bytes 0 and 2 of each word, in two 16-bit lanes
    let odd = 0; // bytes 1 and 3
    let sum = 0; // running sum of the block's bytes
    let weighted = 0; // Σ of the running sums after each word
    for (; w < end; w++) {
      const v = words[w]!;
      const e = v & 0x00ff00ff;
      const o = (v >>> 8) & 0x00ff00ff;
      even += e;
      odd += o;
      const pair = e + o;
      sum += (pair & 0xffff) + (pair >>> 16);
      weighted += sum;
    }
    // b gains 4m·a for the a it started with, and each byte times its distance from the block's end:
    // 4·(words from the end)·(word sum) less the byte's place in its word (0..3).
    const places = (odd & 0xffff) + 2 * (even >>> 16) + 3 * (odd >>> 16);
    b = (b + ((4 * m * a) % ADLER_MOD) + ((4 * weighted - places) % ADLER_MOD)) % ADLER_MOD;
    a = (a + sum) % ADLER_MOD;
  }
  for (i += words.length * 4; i < n; i++) {
    a = (a + data[i]!) % ADLER_MOD;
    b = (b + a) % ADLER_MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** Adler-32 of A followed by B from the checksums of each and B's length (zlib's adler32_combine). */
export function adler32Combine(adlerA: number, adlerB: number, lengthB: number): number {
  const rem = lengthB % ADLER_MOD;
  let sum1 = adlerA & 0xffff;
  let sum2 = (rem * sum1) % ADLER_MOD;
  sum1 += (adlerB & 0xffff) + ADLER_MOD - 1;
  sum2 += (adlerA >>> 16) + (adlerB >>> 16) + ADLER_MOD - rem;
  if (sum1 >= ADLER_MOD) sum1 -= ADLER_MOD;
  if (sum1 >= ADLER_MOD) sum1 -= ADLER_MOD;
  if (sum2 >= ADLER_MOD << 1) sum2 -= ADLER_MOD << 1;
  if (sum2 >= ADLER_MOD) sum2 -= ADLER_MOD;
  return ((sum2 << 16) | sum1) >>> 0;
}

function chunk(type: string, data: Uint8Array, out: Uint8Array, at: number): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(at, data.length);
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
  out.set(data, at + 8);
  const crc = zlib.crc32(data, zlib.crc32(out.subarray(at + 4, at + 8)));
  view.setUint32(at + 8 + data.length, crc);
  return at + 12 + data.length;
}

/** PNG chunks of these types and contents, in one fresh buffer (its ArrayBuffer can be transferred). */
function chunks(parts: Array<[string, Uint8Array]>): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, [, d]) => n + 12 + d.length, 0));
  let at = 0;
  for (const [type, data] of parts) at = chunk(type, data, out, at);
  return out;
}

/**
 * The scanlines' buffer, kept for the thread's next band: a fresh 24 MB buffer per band cost page
 * faults on every export. Bands larger than this are packed in a buffer of their own.
 */
let scratch = new Uint8Array(0);
const SCRATCH_MAX = 32 * 1024 * 1024;

/**
 * Encodes one band of rendered pixels (RGBA; alpha must be 255 everywhere) as scanlines deflated into
 * IDAT chunks. `first` puts the zlib header in front; `last` ends the deflate stream (final block),
 * any other band ends on a sync flush so the next band's stream follows it. `lap` marks the packing
 * and the deflating apart (the profile's phases).
 */
export function encodeBand(
  rgba: Uint8Array,
  width: number,
  rows: number,
  first: boolean,
  last: boolean,
  lap: (phase: string) => void = () => {},
): PngBand {
  const stride = width * 3 + 1;
  const length = stride * rows;
  if (scratch.length < length && length <= SCRATCH_MAX) scratch = new Uint8Array(length);
  const raw = length <= scratch.length ? scratch.subarray(0, length) : new Uint8Array(length);
  // A pixel read as one little-endian word (r | g << 8 | b << 16 | a << 24) where the platform allows.
  const words = LITTLE_ENDIAN && rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >>> 2) : null;
  let s = 0;
  let d = 0;
  for (let y = 0; y < rows; y++) {
    raw[d++] = 0; // filter: None
    if (words) {
      for (let x = 0; x < width; x++, s++, d += 3) {
        const v = words[s]!;
        raw[d] = v;
        raw[d + 1] = v >>> 8;
        raw[d + 2] = v >>> 16;
      }
    } else {
      for (let x = 0; x < width; x++, s++, d += 3) {
        raw[d] = rgba[s * 4]!;
        raw[d + 1] = rgba[s * 4 + 1]!;
        raw[d + 2] = rgba[s * 4 + 2]!;
      }
    }
  }
  const adler = adler32(raw);
  lap('pack');
  const deflated = zlib.deflateRawSync(raw, {
    level: LEVEL,
    finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
  });
  const data = first ? Buffer.concat([ZLIB_HEADER, deflated]) : deflated;
  const band = { chunks: chunks([['IDAT', data]]), adler, rawLength: length };
  lap('deflate');
  return band;
}

/** The PNG file from its bands in order (top first): 8-bit RGB, width × height. */
export function assemblePng(width: number, height: number, bands: readonly PngBand[]): Buffer {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
  let adler = 1;
  for (const band of bands) adler = adler32Combine(adler, band.adler, band.rawLength);
  const trailer = new Uint8Array(4);
  new DataView(trailer.buffer).setUint32(0, adler);
  return Buffer.concat([
    SIGNATURE,
    chunks([['IHDR', ihdr]]),
    ...bands.map((b) => b.chunks),
    chunks([
      ['IDAT', trailer],
      ['IEND', new Uint8Array(0)],
    ]),
  ]);
}
