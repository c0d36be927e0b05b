// The server's PNG of each object type, the arrows and each background, compared with the reference
// images in fixtures/pixels/. Regenerate them after an intended drawing change with
//   UPDATE_EXPORT_PIXELS=1 npx vitest run services/export/test/pixels.test.ts
// and look at the new images before committing them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePngs, pixelCases, renderCase, type Tolerance } from './pixels.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/pixels/', import.meta.url));
const UPDATE = process.env.UPDATE_EXPORT_PIXELS === '1';
/**
 * The renderer is deterministic software (Skia's CPU rasteriser, @napi-rs/canvas), so the same build
 * gives identical pixels; the tolerance only absorbs antialiasing changes of a Skia upgrade: at most
 * 0.1 % of the pixels may differ by more than pixelmatch's threshold 0.1. A moved glyph or a changed
 * colour exceeds it. (Switching from resvg to Skia left every case but text and sticky within it; those
 * two moved because resvg's glyphs were 2.4 % too large, see render/glyphs.ts.)
 */
const TOLERANCE: Tolerance = { threshold: 0.1, maxDiffRatio: 0.001 };

describe('server PNG against the reference images', () => {
  for (const c of pixelCases()) {
    it(c.name, async () => {
      const png = await renderCase(c, 'png');
      const file = path.join(FIXTURES, `${c.name}.png`);
      if (UPDATE || !existsSync(file)) {
        // A missing reference is written, and the test fails so it never passes unseen.
        mkdirSync(FIXTURES, { recursive: true });
        writeFileSync(file, png);
        if (!UPDATE) throw new Error(`no reference for ${c.name}: written ${file}, check and commit it`);
        return;
      }
      const r = comparePngs(png, readFileSync(file), `server-${c.name}`, TOLERANCE);
      expect(r.ratio, `${r.diffPixels} pixels differ (diff: ${r.diffFile})`).toBeLessThanOrEqual(TOLERANCE.maxDiffRatio);
    });
  }

  it('tells a changed drawing from the reference (the comparison is not blind)', async () => {
    const [sticky] = pixelCases().filter((c) => c.name === 'sticky');
    const moved = { ...sticky!, objects: sticky!.objects.map((o) => ({ ...o, text: `${(o as { text: string }).text}!` })) };
    const r = comparePngs(await renderCase(moved as never, 'png'), readFileSync(path.join(FIXTURES, 'sticky.png')), 'server-sticky-changed', TOLERANCE);
    expect(r.diffPixels).toBeGreaterThan(0);
  });
});
