/**
 * Pixel comparison for the export tests: the board fixtures rendered by the real render task, and a
 * pixelmatch-based comparison that states its tolerance and leaves a diff image behind on failure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as Y from 'yjs';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { addArrow, addObject, snapshotOfDoc, type ArrowInput, type CanvasObjectInput } from '@wb/board-model';
import { fontFiles } from '../src/render/fonts.ts';
import render, { type ExportFormat } from '../src/render/task.ts';
import { AREA, ARROWS, ARROW_ENDS, OBJECTS } from './fixtures.ts';

/** A deterministic 40×30 picture (colour bands and a diagonal) for the image object, as the store would hand it over. */
export function testPicture(): Buffer {
  const png = new PNG({ width: 40, height: 30 });
  for (let y = 0; y < 30; y++)
    for (let x = 0; x < 40; x++) {
      const i = (y * 40 + x) * 4;
      const band = Math.floor(x / 10);
      png.data.set(x === y ? [0, 0, 0, 255] : [band * 80, 200 - band * 50, 120 + y * 4, 255], i);
    }
  return PNG.sync.write(png);
}
export const PICTURE_SRC = 'data:image/png;base64,' + testPicture().toString('base64');

export interface PixelCase {
  name: string;
  objects: CanvasObjectInput[];
  arrows: ArrowInput[];
  background: string;
}

/** One case per object type on a white board, the arrows, and each background on an empty board. */
export function pixelCases(): PixelCase[] {
  const objects = Object.entries(OBJECTS).map(([name, o]) => ({
    name,
    objects: [name === 'image' ? ({ ...o, src: PICTURE_SRC } as CanvasObjectInput) : o],
    arrows: [],
    background: 'white',
  }));
  const arrows = { name: 'arrows', objects: ARROW_ENDS, arrows: ARROWS, background: 'white' };
  const backgrounds = ['grid', 'dots', 'lines'].map((background) => ({
    name: `background-${background}`,
    objects: [],
    arrows: [],
    background,
  }));
  return [...objects, arrows, ...backgrounds];
}

export function snapshotOf(c: Pick<PixelCase, 'objects' | 'arrows'>) {
  const doc = new Y.Doc();
  c.objects.forEach((o) => addObject(doc, o));
  c.arrows.forEach((a) => addArrow(doc, a));
  return snapshotOfDoc(doc);
}

export async function renderCase(c: PixelCase, format: ExportFormat, area = AREA): Promise<Buffer> {
  const result = await render({
    format,
    board: snapshotOf(c),
    background: c.background,
    area,
    images: { [PICTURE_SRC]: PICTURE_SRC },
    fonts: fontFiles(),
    maxObjects: 1000,
  });
  if (!result.ok) throw new Error(`render refused: ${result.reason}`);
  return Buffer.from(result.bytes);
}

export interface Tolerance {
  /** pixelmatch's per-pixel colour distance threshold (0..1; YIQ-based). */
  threshold: number;
  /** Share of all pixels allowed to differ beyond that threshold. */
  maxDiffRatio: number;
}

export interface Comparison {
  diffPixels: number;
  ratio: number;
  diffFile: string;
}

/** Compares two PNGs of one size; the diff image is written to the temp dir for a failing test's report. */
export function comparePngs(actual: Buffer, expected: Buffer, name: string, tol: Tolerance): Comparison {
  const a = PNG.sync.read(actual);
  const e = PNG.sync.read(expected);
  if (a.width !== e.width || a.height !== e.height)
    throw new Error(`${name}: size ${a.width}×${a.height}, expected ${e.width}×${e.height}`);
  const diff = new PNG({ width: a.width, height: a.height });
  const diffPixels = pixelmatch(a.data, e.data, diff.data, a.width, a.height, { threshold: tol.threshold });
  const dir = path.join(tmpdir(), 'wb-export-pixel-diffs');
  mkdirSync(dir, { recursive: true });
  const diffFile = path.join(dir, `${name}.diff.png`);
  writeFileSync(diffFile, PNG.sync.write(diff));
  writeFileSync(path.join(dir, `${name}.actual.png`), actual);
  return { diffPixels, ratio: diffPixels / (a.width * a.height), diffFile };
}
