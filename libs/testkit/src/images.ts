/**
 * Image bytes for tests of the image rules (libs/board-model imageSize): the PNG signature and the
 * IHDR chunk that declares `width` × `height`, which is all a size check reads. Append noise to make
 * distinct files; no decoder is asked to draw them.
 */
export function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.set([8, 6, 0, 0, 0], 24); // 8-bit RGBA, as an encoder writes it
  return b;
}
