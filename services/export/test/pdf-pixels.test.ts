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
 * Two rasterisers: poppler draws the PDF's real text with the embedded fonts and its own glyph
 * antialiasing, Skia the PNG's glyph outlines; edges and the scaled image differ slightly. So per
 * pixel a looser colour threshold (0.2), and at most 2 % of the pixels beyond it (measured: 0 for
 * shapes and backgrounds, 0.2 % for the path, 0.4 % for the arrows' dashes, 0.9 % for the image, 0.1 %
 * for the text and 0.2 % for the sticky; 1.2 % for those two while resvg drew the PNG's glyphs 2.4 %
 * too large). A missing or misplaced object, a wrong colour or text on other lines differs on far more.
 */
const TOLERANCE: Tolerance = { threshold: 0.2, maxDiffRatio: 0.02 };

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

  it('tells a different drawing apart (the comparison is not blind)', async () => {
    const [sticky, text] = ['sticky', 'text'].map((n) => pixelCases().find((c) => c.name === n)!);
    const r = comparePngs(pdfToPng(await renderCase(sticky!, 'pdf'), 'blind'), await renderCase(text!, 'png'), 'pdf-blind', TOLERANCE);
    expect(r.ratio).toBeGreaterThan(TOLERANCE.maxDiffRatio);
  });
});
