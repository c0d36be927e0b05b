import { describe, expect, it } from 'vitest';
import { AppError } from '@wb/service-kit';
import { pngHeader } from '@wb/testkit';
import { checkArea } from '../src/domain/area.ts';
import { pdfAllowed } from '../src/domain/entitlements.ts';
import { contentDisposition, exportFileName, sanitizeTitle } from '../src/domain/filename.ts';
import { createGate, GateBusy } from '../src/domain/gate.ts';
import { classifyImageSrc, decodeSizes, drawableImage, imageSourcesInArea } from '../src/domain/images.ts';

const limits = { maxPixels: 1_000_000, maxSide: 2_000 };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).code;
  }
  return 'none';
};

describe('checkArea', () => {
  it('accepts an area over 10×10 and rounds to whole pixels', () => {
    expect(checkArea({ x: 1.5, y: 2, width: 10.6, height: 11.2 }, limits)).toEqual({
      x: 1.5,
      y: 2,
      width: 11,
      height: 11,
    });
  });
  it('normalises a selection dragged up or left', () => {
    expect(checkArea({ x: 100, y: 100, width: -50, height: -40 }, limits)).toEqual({
      x: 50,
      y: 60,
      width: 50,
      height: 40,
    });
  });
  it('refuses 10×10 and less', () => {
    expect(codeOf(() => checkArea({ x: 0, y: 0, width: 10, height: 500 }, limits))).toBe(
      'EXPORT_AREA_TOO_SMALL',
    );
    expect(codeOf(() => checkArea({ x: 0, y: 0, width: -10, height: 500 }, limits))).toBe(
      'EXPORT_AREA_TOO_SMALL',
    );
  });
  it('refuses a side or a pixel count over the maximum', () => {
    expect(codeOf(() => checkArea({ x: 0, y: 0, width: 2_001, height: 20 }, limits))).toBe(
      'EXPORT_AREA_TOO_LARGE',
    );
    expect(codeOf(() => checkArea({ x: 0, y: 0, width: 1_500, height: 1_500 }, limits))).toBe(
      'EXPORT_AREA_TOO_LARGE',
    );
  });
});

describe('file names', () => {
  const at = new Date(Date.UTC(2026, 10, 23, 8, 5, 9));
  it('date-time and the sanitised title; "Доска" when nothing is left', () => {
    expect(exportFileName('План: спринт/1 <script>', 'png', at)).toBe(
      '2026-11-23_08-05-09_План_спринт_1_script.png',
    );
    expect(exportFileName('', 'pdf', at)).toBe('2026-11-23_08-05-09_Доска.pdf');
    expect(exportFileName('../../etc/passwd', 'svg', at)).toBe('2026-11-23_08-05-09_etc_passwd.svg');
    expect(sanitizeTitle('💥💥')).toBe('Доска');
    expect(sanitizeTitle('а'.repeat(300))).toHaveLength(80);
  });
  it('a Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('2026_Доска.png')).toBe(
      `attachment; filename="2026______.png"; filename*=UTF-8''2026_%D0%94%D0%BE%D1%81%D0%BA%D0%B0.png`,
    );
  });
});

describe('pdfAllowed', () => {
  it('allows while nothing is known or billing is off, else follows the plan', () => {
    expect(pdfAllowed(null)).toBe(true);
    expect(pdfAllowed({ exportPdf: false, limitsEnabled: false })).toBe(true);
    expect(pdfAllowed({ exportPdf: false, limitsEnabled: true })).toBe(false);
    expect(pdfAllowed({ exportPdf: true, limitsEnabled: true })).toBe(true);
  });
});

describe('gate', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs up to the concurrency, queues a few, refuses the rest at once', async () => {
    const gate = createGate({ concurrency: 2, maxWaiting: 1, timeoutMs: 5_000, perUser: 2, perUserWaiting: 8 });
    const d = [deferred(), deferred(), deferred()];
    const runs = d.map((x, i) => gate.run(`u${i}`, () => x.promise));
    expect([gate.running, gate.waiting]).toEqual([2, 1]);
    await expect(gate.run('u9', async () => 1)).rejects.toEqual(new GateBusy('queue-full'));
    d[0]!.resolve();
    await runs[0];
    expect([gate.running, gate.waiting]).toEqual([2, 0]);
    d[1]!.resolve();
    d[2]!.resolve();
    await Promise.all(runs);
    expect(gate.running).toBe(0);
  });

  it('gives up on a wait longer than the time-out, and frees the slot after a failure', async () => {
    const gate = createGate({ concurrency: 1, maxWaiting: 5, timeoutMs: 30, perUser: 2, perUserWaiting: 8 });
    const hold = deferred();
    const first = gate.run('u1', () => hold.promise);
    await expect(gate.run('u2', async () => 1)).rejects.toMatchObject({ reason: 'timeout' });
    expect(gate.waiting).toBe(0);
    hold.resolve();
    await first;
    await expect(gate.run('u1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run('u1', async () => 42)).toBe(42);
  });

  it('refuses a user past their share with user-busy, and tells a waiting export its position', async () => {
    const gate = createGate({ concurrency: 4, maxWaiting: 10, timeoutMs: 5_000, perUser: 2, perUserWaiting: 1 });
    const d = [deferred(), deferred(), deferred()];
    const positions: number[] = [];
    const runs = d.map((x) =>
      gate.run('u1', (position) => {
        positions.push(position);
        return x.promise;
      }),
    );
    await expect(gate.run('u1', async () => 1)).rejects.toEqual(new GateBusy('user-busy'));
    // Another user is not held back by u1's line.
    expect(await gate.run('u2', async (position) => position)).toBe(0);
    d[0]!.resolve();
    await runs[0];
    d[1]!.resolve();
    d[2]!.resolve();
    await Promise.all(runs);
    expect(positions).toEqual([0, 0, 1]);
  });
});

describe('image sources', () => {
  const board = 'b1';
  const hash = 'a'.repeat(64);
  it('only the board’s own store URLs and raster data URLs', () => {
    expect(classifyImageSrc(board, `/yjs/images/b1/${hash}`)).toEqual({
      kind: 'store',
      src: `/yjs/images/b1/${hash}`,
      hash,
    });
    expect(classifyImageSrc(board, `/yjs/images/b2/${hash}`)).toBeNull();
    expect(classifyImageSrc(board, 'http://127.0.0.1:5432/')).toBeNull();
    expect(classifyImageSrc(board, 'data:image/svg+xml;base64,PHN2Zy8+')).toBeNull();
    expect(classifyImageSrc(board, 'data:image/png;base64,iVBORw0KGgo=')).toMatchObject({ kind: 'data' });
  });
  it('only images meeting the area', () => {
    const img = (x: number) => ({
      type: 'image',
      src: `/yjs/images/b1/${hash}`,
      x,
      y: 0,
      width: 10,
      height: 10,
    });
    expect(
      imageSourcesInArea(board, [img(0), img(500), null, 'x'], { x: 0, y: 0, width: 100, height: 100 }),
    ).toHaveLength(1);
    expect(imageSourcesInArea(board, [img(500)], { x: 0, y: 0, width: 100, height: 100 })).toHaveLength(0);
  });
  it('keeps the largest size a picture is drawn at', () => {
    const src = `/yjs/images/b1/${hash}`;
    const objects = [
      { type: 'image', src, x: 0, y: 0, width: 30, height: 200 },
      { type: 'image', src, x: 10, y: 10, width: 120, height: 40 },
    ];
    expect(imageSourcesInArea(board, objects, { x: 0, y: 0, width: 100, height: 100 })[0]!.drawn).toEqual({ width: 120, height: 200 });
  });
});

describe('decodeSizes (issue 32 item 1)', () => {
  const bomb = { width: 7000, height: 7000 };
  it('decodes a picture at the size it is drawn with, never above its own', () => {
    expect(decodeSizes([{ drawn: { width: 300, height: 200.2 }, natural: bomb }], 1, 1e9)).toEqual([{ width: 300, height: 201 }]);
    expect(decodeSizes([{ drawn: { width: 300, height: 200 }, natural: bomb }], 2, 1e9)).toEqual([{ width: 600, height: 400 }]);
    expect(decodeSizes([{ drawn: { width: 3000, height: 100 }, natural: { width: 64, height: 48 } }], 1, 1e9)).toEqual([{ width: 64, height: 48 }]);
  });
  it('scales every picture down by one factor when together they pass the budget', () => {
    const images = Array.from({ length: 20 }, () => ({ drawn: { width: 4000, height: 4000 }, natural: bomb }));
    const sizes = decodeSizes(images, 1, 16_000_000);
    expect(sizes.reduce((s, x) => s + x.width * x.height, 0)).toBeLessThanOrEqual(16_000_000);
    expect(sizes[0]).toEqual({ width: 894, height: 894 });
  });
});

describe('drawableImage', () => {
  it('decodes only pictures whose header is within the board limits (a small file may declare 40 GB of pixels)', () => {
    expect(drawableImage(pngHeader(640, 480))).toBe(true);
    expect(drawableImage(pngHeader(100_000, 100_000))).toBe(false);
    expect(drawableImage(Buffer.from('not an image'))).toBe(false);
  });

  it('reads the header of a base64 data URL', () => {
    const url = `data:image/png;base64,${Buffer.concat([pngHeader(100_000, 100_000), Buffer.alloc(1000)]).toString('base64')}`;
    expect(drawableImage(url)).toBe(false);
    const ok = `data:image/png;base64,${pngHeader(20, 10).toString('base64')}`;
    expect(drawableImage(ok)).toBe(true);
  });
});
