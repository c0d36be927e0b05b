import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS, LIMITS, TAG_PALETTE, VALIDATION_TEXTS } from '../src/index.ts';

// CI clones the repository with shared/ beside it, so the spec is at <repo>/../shared/spec. A missing
// spec is a failure, not a skip: these checks are the only guard against texts drifting from it.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const specDir = path.resolve(repoRoot, '../shared/spec');

function readSpec(): string {
  if (!existsSync(specDir))
    throw new Error(`the shared spec is not at ${specDir} (shared/ must sit beside the repo)`);
  const files = ['product.md', 'board-page.md'].map((f) => path.join(specDir, f));
  for (const f of files) if (!existsSync(f)) throw new Error(`missing spec file ${f}`);
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

describe('Russian texts in @wb/contracts are copied from the spec verbatim', () => {
  const spec = readSpec();

  const specErrors = Object.entries(ERRORS).filter(([, d]) => d.spec);

  it('marks the spec-derived error texts as such', () => {
    // A guard against someone flipping every flag to false and so switching this test off.
    expect(specErrors.length).toBeGreaterThanOrEqual(9);
  });

  it.each(specErrors)('error %s', (_code, def) => {
    expect(spec).toContain(def.message);
  });

  it.each(Object.entries(VALIDATION_TEXTS))('validation text %s', (_key, text) => {
    // The spec quotes every message in single quotes; checking the quotes too catches a truncated copy.
    expect(spec).toContain(`'${text}'`);
  });

  it('tag palette, default folder colour and limits', () => {
    expect(spec).toContain(`The palette has ${TAG_PALETTE.length} colours: ${TAG_PALETTE.join(', ')}.`);
    expect(spec).toContain(`color (default ${LIMITS.defaultFolderColor})`);
    expect(spec).toContain(`name (max ${LIMITS.tagNameMax} characters)`);
    expect(spec).toMatch(new RegExp(`Password minimum \\| ${LIMITS.passwordMin} characters`));
    expect(spec).toMatch(new RegExp(`Name minimum \\| ${LIMITS.nameMin} characters`));
  });

  it('our own texts (not from the spec) are still Russian and non-empty', () => {
    for (const [code, def] of Object.entries(ERRORS)) {
      expect(def.message, code).toMatch(/[а-яё]/i);
      expect(def.status, code).toBeGreaterThanOrEqual(400);
      expect(def.status, code).toBeLessThan(600);
    }
  });
});
