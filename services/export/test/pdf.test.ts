// The PDF drawn from the scene (render/pdf.ts): real text in the embedded fonts, colours as CSS gives them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cssColor } from '../src/render/pdf.ts';
import { pixelCases, renderCase } from './pixels.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'wb-export-pdf-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PDF text', () => {
  it('is real text in the embedded bundled fonts (pdftotext reads the sticky and the text object back)', async () => {
    for (const [name, words] of [
      ['sticky', ['Новый стикер:', 'переносится по']],
      ['text', ['Новый текст', 'Привет, мир!']],
    ] as const) {
      const file = path.join(dir, `${name}.pdf`);
      writeFileSync(file, await renderCase(pixelCases().find((c) => c.name === name)!, 'pdf'));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const w of words) expect(text).toContain(w);
      const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
      expect(fonts).toMatch(/DejaVuSans/);
      // Embedded (emb) and subset (sub): the PDF shows the same glyphs wherever it is opened.
      expect(fonts).toMatch(/DejaVuSans.*\byes\s+yes\b/);
    }
  });
});

describe('cssColor', () => {
  it('reads hex, rgb() and rgba(); none for transparent', () => {
    expect(cssColor('#FF6B6B')).toEqual({ color: [255, 107, 107], alpha: 1 });
    expect(cssColor('#abc')).toEqual({ color: [170, 187, 204], alpha: 1 });
    expect(cssColor('#00000080')?.alpha).toBeCloseTo(128 / 255);
    expect(cssColor('rgba(0,0,0,0.2)')).toEqual({ color: [0, 0, 0], alpha: 0.2 });
    expect(cssColor('rgb(10, 20, 30)')).toEqual({ color: [10, 20, 30], alpha: 1 });
    expect(cssColor('transparent')).toBeNull();
    expect(cssColor(undefined)).toBeNull();
    expect(cssColor('red')).toEqual({ color: 'red', alpha: 1 });
  });
});
