// The PNG writer (render/png.ts) and the banded render (render/bands.ts): bands joined into one zlib
// stream decode (pngjs checks the Adler-32 and each chunk's CRC) to the same picture as one render.
import { deflateSync, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { boardToScene } from '@wb/board-model';
import { bandCount, bandRows, bandScene, renderBanded } from '../src/render/bands.ts';
import { adler32, adler32Combine, assemblePng, encodeBand } from '../src/render/png.ts';
import render, { type RenderTask } from '../src/render/task.ts';
import { fontFiles } from '../src/render/fonts.ts';
import { comparePngs, pixelCases, snapshotOf, PICTURE_SRC } from './pixels.ts';
import { AREA } from './fixtures.ts';

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) out[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24;
  return out;
}

describe('png writer', () => {
  it('adler32 agrees with zlib, and combines as of the concatenation', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 70_000],
      [6000, 3],
      [100_003, 250_007],
    ] as const) {
      const x = bytes(a, 1);
      const y = bytes(b, 2);
      const both = new Uint8Array([...x, ...y]);
      const z = deflateSync(both, { level: 0 });
      expect(adler32(both)).toBe(z.readUInt32BE(z.length - 4));
      expect(adler32Combine(adler32(x), adler32(y), y.length)).toBe(adler32(both));
    }
  });

  it('joins bands deflated apart into one valid PNG (RGB, opaque)', () => {
    const width = 37;
    const rows = [5, 1, 11];
    const height = rows.reduce((a, b) => a + b);
    const rgba = bytes(width * height * 4, 3);
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    let at = 0;
    const bands = rows.map((n, i) => {
      const band = encodeBand(rgba.subarray(at, at + width * n * 4), width, n, i === 0, i === rows.length - 1);
      at += width * n * 4;
      return band;
    });
    const png = PNG.sync.read(assemblePng(width, height, bands));
    expect([png.width, png.height]).toEqual([width, height]);
    expect(Buffer.from(png.data).equals(Buffer.from(rgba))).toBe(true);
    // One zlib stream across the IDAT chunks (inflateSync checks the Adler-32 too).
    const file = assemblePng(width, height, bands);
    const idat: Buffer[] = [];
    for (let p = 8; p < file.length; ) {
      const len = file.readUInt32BE(p);
      if (file.toString('latin1', p + 4, p + 8) === 'IDAT') idat.push(file.subarray(p + 8, p + 8 + len));
      p += 12 + len;
    }
    expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (width * 3 + 1));
  });
});

describe('banded render', () => {
  const all = pixelCases().filter((c) => c.background === 'white');
  const board = snapshotOf({ objects: all.flatMap((c) => c.objects), arrows: all.flatMap((c) => c.arrows) });
  const task: RenderTask & { format: 'png' } = {
    format: 'png',
    board,
    background: 'grid',
    area: AREA,
    images: { [PICTURE_SRC]: PICTURE_SRC },
    fonts: fontFiles(),
    maxObjects: 1000,
  };

  it('splits large areas only, into bands covering every row once', () => {
    expect(bandCount({ x: 0, y: 0, width: 400, height: 300 }, 2)).toBe(1);
    expect(bandCount({ x: 0, y: 0, width: 4000, height: 4000 }, 2)).toBe(2);
    expect(bandCount({ x: 0, y: 0, width: 4000, height: 4000 }, 1)).toBe(1);
    const scene = boardToScene(board, { area: AREA, background: 'grid' });
    for (const count of [1, 2, 3]) {
      const rows = bandRows(scene, count);
      expect(rows).toHaveLength(count);
      expect(rows[0]![0]).toBe(0);
      expect(rows.at(-1)![1]).toBe(AREA.height);
      for (let i = 1; i < rows.length; i++) expect(rows[i]![0]).toBe(rows[i - 1]![1]);
      for (const r of rows) expect(r[1] - r[0]).toBeGreaterThanOrEqual(64);
    }
    // A band draws the items meeting it, and those whose shadow may reach into it.
    const [top] = bandRows(scene, 2);
    const part = bandScene(scene, top!);
    expect(part.area).toEqual({ ...AREA, height: top![1] });
    expect(part.items.length).toBeLessThanOrEqual(scene.items.length);
  });

  it('draws the same picture in 2 or 3 bands as in one', async () => {
    const whole = await render(task);
    if (!whole.ok) throw new Error('refused');
    for (const count of [2, 3]) {
      const banded = await renderBanded(render, render, task, count);
      if (!banded.ok) throw new Error('refused');
      // Sub-pixel rounding of the shifted viewBox may move an edge's antialiasing by a level.
      const r = comparePngs(Buffer.from(banded.bytes), Buffer.from(whole.bytes), `banded-${count}`, { threshold: 0.1, maxDiffRatio: 0.001 });
      expect(r.ratio, `${r.diffPixels} pixels differ (diff: ${r.diffFile})`).toBeLessThanOrEqual(0.001);
    }
  });
});

describe('canvas drawing', () => {
  it('leaves the grey placeholder where a picture does not decode, and draws a GIF', async () => {
    const { OBJECTS } = await import('./fixtures.ts');
    const pixelAt = async (href: string) => {
      const result = await render({
        format: 'png',
        board: snapshotOf({ objects: [{ ...OBJECTS.image, src: href } as never], arrows: [] }),
        background: 'white',
        area: AREA,
        images: { [href]: href },
        fonts: fontFiles(),
        maxObjects: 10,
      });
      if (!result.ok) throw new Error('refused');
      const png = PNG.sync.read(Buffer.from(result.bytes));
      const i = (100 * png.width + 200) * 4; // inside the image (100..300, 60..210)
      return [...png.data.subarray(i, i + 4)];
    };
    expect(await pixelAt('data:image/png;base64,AAAA')).toEqual([0xe0, 0xe0, 0xe0, 255]);
    // A 1×1 red GIF.
    const gif = 'data:image/gif;base64,R0lGODlhAQABAIAAAP8AAAAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==';
    expect(await pixelAt(gif)).toEqual([255, 0, 0, 255]);
  });
});
