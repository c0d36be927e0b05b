import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, dataUrlImageSize, imageSize, imageSizeAllowed } from '../src/imageSize.ts';

/** A complete, decodable PNG (CRCs left zero: the size is read from IHDR, which is what is tested). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(Math.min(height, 4) * (width + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// SOI, APP1 (an EXIF block of 300 bytes before the frame), DQT, SOF2 (progressive) height 480 width 640.
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  Buffer.from([0xff, 0xe1, 0x01, 0x2e]),
  Buffer.alloc(300),
  Buffer.from([0xff, 0xdb, 0x00, 0x43]),
  Buffer.alloc(65),
  Buffer.from([0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]),
  Buffer.alloc(20),
]);
const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x40, 0x01, 0xc8, 0x00]), Buffer.alloc(20)]); // 320 × 200
const riff = (chunk: string, body: number[]) =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.from(chunk, 'latin1'), Buffer.alloc(4), Buffer.from(body), Buffer.alloc(16)]);
// VP8X: flags + reserved (4), canvas width-1 = 999, height-1 = 499 (24-bit little-endian).
const webpX = riff('VP8X', [0, 0, 0, 0, 0xe7, 0x03, 0x00, 0xf3, 0x01, 0x00]);
// VP8L: signature 0x2f, then 14 bits width-1 = 99, 14 bits height-1 = 49.
const vp8lBits = 99 | (49 << 14);
const webpL = riff('VP8L', [0x2f, vp8lBits & 0xff, (vp8lBits >> 8) & 0xff, (vp8lBits >> 16) & 0xff, (vp8lBits >>> 24) & 0xff]);
// VP8 (lossy): frame tag (3), start code 9d 01 2a, width 200, height 150 (14 bits each, little-endian).
const webpLossy = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 200, 0, 150, 0]);

describe('imageSize', () => {
  it('reads the declared size of PNG, JPEG (after EXIF, progressive), GIF and the three WebP kinds', () => {
    expect(imageSize(png(16, 9))).toEqual({ width: 16, height: 9 });
    expect(imageSize(jpeg)).toEqual({ width: 640, height: 480 });
    expect(imageSize(gif)).toEqual({ width: 320, height: 200 });
    expect(imageSize(webpX)).toEqual({ width: 1000, height: 500 });
    expect(imageSize(webpL)).toEqual({ width: 100, height: 50 });
    expect(imageSize(webpLossy)).toEqual({ width: 200, height: 150 });
  });

  it('answers null for other bytes and for headers cut short', () => {
    expect(imageSize(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageSize(Buffer.alloc(0))).toBeNull();
    expect(imageSize(png(16, 9).subarray(0, 20))).toBeNull();
    expect(imageSize(jpeg.subarray(0, 200))).toBeNull();
    expect(imageSize(gif.subarray(0, 8))).toBeNull();
    expect(imageSize(webpX.subarray(0, 20))).toBeNull();
    // A JPEG whose segments lose their 0xFF markers is not read past the damage.
    expect(imageSize(Buffer.concat([Buffer.from([0xff, 0xd8, 0x00, 0x00]), Buffer.alloc(40)]))).toBeNull();
  });

  it('allows pictures within the side and pixel limits only', () => {
    expect(imageSizeAllowed(imageSize(png(16, 9)))).toBe(true);
    expect(imageSizeAllowed({ width: MAX_IMAGE_SIDE, height: Math.floor(MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE) })).toBe(true);
    expect(imageSizeAllowed(imageSize(png(MAX_IMAGE_SIDE + 1, 1)))).toBe(false);
    expect(imageSizeAllowed(imageSize(png(8_000, 8_000)))).toBe(false); // 64 MP
    expect(imageSizeAllowed(imageSize(png(100_000, 100_000)))).toBe(false);
    expect(imageSizeAllowed(imageSize(png(0, 10)))).toBe(false);
    expect(imageSizeAllowed(null)).toBe(false);
  });

  it('reads a base64 data URL, an EXIF-long JPEG included, and nothing else', () => {
    const url = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
    expect(dataUrlImageSize(url(png(16, 9)))).toEqual({ width: 16, height: 9 });
    expect(dataUrlImageSize(url(png(100_000, 100_000)))).toEqual({ width: 100_000, height: 100_000 });
    const longExif = Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(65_533), jpeg.subarray(2)]);
    expect(dataUrlImageSize(url(longExif, 'image/jpeg'))).toEqual({ width: 640, height: 480 });
    expect(dataUrlImageSize(`data:image/png,${encodeURIComponent('\x89PNG')}`)).toBeNull();
    expect(dataUrlImageSize('/yjs/images/b/abc')).toBeNull();
    expect(dataUrlImageSize('data:image/png;base64,!!!!')).toBeNull();
  });
});
