import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { fastShortStrings } from '../../vite/fast-short-strings.ts';

type Transform = (this: { error(msg: string): never }, code: string, id: string) => { code: string } | null;
const transform = fastShortStrings().transform as Transform;
const ctx = { error: (msg: string): never => { throw new Error(msg); } };

/** lib0/decoding.js as the SPA build ships it, loaded from a scratch copy beside its real siblings. */
async function patchedDecoding(): Promise<typeof decoding> {
  // The ES module the SPA bundles (require.resolve would answer lib0's CommonJS twin).
  const file = path.join(path.dirname(createRequire(import.meta.url).resolve('yjs')), '..', '..', 'lib0', 'decoding.js');
  const dir = path.dirname(file);
  const out = transform.call(ctx, readFileSync(file, 'utf8'), file)!.code.replace(/from '\.\/([\w.-]+)'/g, (_m, f: string) => `from '${pathToFileURL(path.join(dir, f)).href}'`);
  const copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'lib0-')), 'decoding.mjs');
  writeFileSync(copy, out);
  return (await import(pathToFileURL(copy).href)) as typeof decoding;
}

describe('vite/fast-short-strings (lib0 readVarString without TextDecoder for short ASCII)', () => {
  it('reads every string exactly as lib0 does: ASCII, Cyrillic, emoji, empty, around the 32-byte edge, long', async () => {
    const fast = await patchedDecoding();
    expect(fast.readVarString).not.toBe(decoding.readVarString);
    const strings = [
      '', 'x', 'fill', 'zIndex', 'backgroundColor', 'a'.repeat(31), 'b'.repeat(32), 'c'.repeat(33),
      'Стикер 42', 'Новый стикер', 'ё', '👍', 'mixed ascii then Ж', 'Ж then ascii', '\u0000\u007f', 'a'.repeat(31) + 'é',
      'x'.repeat(5000), 'Текущие'.repeat(100),
    ];
    const enc = encoding.createEncoder();
    for (const s of strings) encoding.writeVarString(enc, s);
    const bytes = encoding.toUint8Array(enc);
    const a = decoding.createDecoder(bytes);
    const b = fast.createDecoder(bytes);
    for (const s of strings) {
      expect(fast.readVarString(b)).toBe(s);
      expect(decoding.readVarString(a)).toBe(s);
      expect(b.pos).toBe(a.pos);
    }
  });

  it('fails the build when lib0 changes the line it replaces', () => {
    expect(() => transform.call(ctx, 'export const readVarString = somethingElse', '/n/lib0/decoding.js')).toThrow(/lib0\/decoding\.js changed/);
    expect(transform.call(ctx, 'whatever', '/n/lib0/encoding.js')).toBeNull();
  });
});
