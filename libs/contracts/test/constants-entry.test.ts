import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as constants from '../src/constants.ts';
import * as everything from '../src/index.ts';
import pkg from '../package.json' with { type: 'json' };

const srcDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Every module the given one reaches through its imports (relative ones followed, bare ones listed). */
function importGraph(entry: string): { modules: string[]; packages: Set<string> } {
  const modules: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.includes(file)) return;
    modules.push(file);
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    // `import type` is erased by every bundler, so it does not count.
    for (const m of text.matchAll(/^(?:import|export)(?!\s+type\b)[^'";]*?from\s+'([^']+)'/gm)) {
      const spec = m[1];
      if (spec.startsWith('./')) visit(spec.slice(2));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { modules, packages };
}

describe('@wb/contracts/constants', () => {
  it('reaches no zod, directly or through another module', () => {
    const { modules, packages } = importGraph('constants.ts');
    expect(modules).toContain('board-constants.ts');
    expect([...packages]).toEqual([]);
  });

  it('the graph walk does see zod where it is (so the check above can fail)', () => {
    expect(importGraph('index.ts').packages.has('zod')).toBe(true);
  });

  it('is an entry of the package, built like the main one', () => {
    expect(pkg.exports['./constants']).toEqual({ 'wb-dist': './dist/constants.js', default: './src/constants.ts' });
  });

  it('exports the same values as the main entry (one definition, two doors)', () => {
    for (const [name, value] of Object.entries(constants)) {
      expect(everything[name as keyof typeof everything], name).toBe(value);
    }
    for (const name of ['TAG_PALETTE', 'BOARD_LIMITS', 'BOARD_TEXTS', 'LIMITS', 'VALIDATION_TEXTS', 'ERRORS', 'EMAIL_PATTERN']) {
      expect(constants, name).toHaveProperty(name);
    }
  });
});
