// The PDF of each pixel case turned into an image with pdftoppm (poppler-utils, installed by
// scripts/ensure-infra.mjs) at 72 dpi, where one PDF point is one pixel as in the PNG, and compared
// with the server's PNG of the same area.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparePngs, pixelCases, renderCase, type Tolerance } from './pixels.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'wb-export-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Two rasterisers (poppler and resvg) antialias edges and glyphs differently, and poppler draws the
 * PDF's sticky shadow from the same raster: so per pixel a looser colour threshold (0.2), and at most
 * 1 % of the pixels beyond it (measured: 0 for shapes, text and backgrounds, 0.4 % for the arrows'
 * dashes, 0.6 % for the scaled image). A missing or misplaced object, wrong colour or lost text is far more.
 */
const TOLERANCE: Tolerance = { threshold: 0.2, maxDiffRatio: 0.01 };

function pdfToPng(pdf: Buffer, name: string): Buffer {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '72', '-singlefile', file, path.join(dir, name)]);
  return readFileSync(path.join(dir, `${name}.png`));
}

describe('PDF drawn by pdftoppm against the PNG', () => {
  for (const c of pixelCases()) {
    it(c.name, async () => {
      const [pdf, png] = await Promise.all([renderCase(c, 'pdf'), renderCase(c, 'png')]);
      const r = comparePngs(pdfToPng(pdf, c.name), png, `pdf-${c.name}`, TOLERANCE);
      expect(r.ratio, `${r.diffPixels} pixels differ (diff: ${r.diffFile})`).toBeLessThanOrEqual(TOLERANCE.maxDiffRatio);
    });
  }
});
