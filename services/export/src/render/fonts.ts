/**
 * The bundled fonts every export draws with (the SPA loads the same files): DejaVu Sans for text,
 * Noto Emoji for emoji. Neither rasteriser reads WOFF, so the emoji font is unpacked to TrueType
 * once per process into a temp file named by its content.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const woff = require('woff2sfnt-sfnt2woff') as { toSfnt(woff: Buffer): Buffer };

export interface FontFiles {
  text: string;
  emoji: string;
}

let cached: FontFiles | undefined;

export function fontFiles(): FontFiles {
  if (cached) return cached;
  const text = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const emojiWoff = path.join(
    path.dirname(require.resolve('@fontsource/noto-emoji/package.json')),
    'files/noto-emoji-emoji-400-normal.woff',
  );
  const source = readFileSync(emojiWoff);
  const dir = path.join(tmpdir(), 'wb-export-fonts');
  const emoji = path.join(
    dir,
    `noto-emoji-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.ttf`,
  );
  if (!existsSync(emoji)) {
    mkdirSync(dir, { recursive: true });
    // Written aside then renamed, so a concurrent process never reads half a font.
    const partial = `${emoji}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, woff.toSfnt(source));
    renameSync(partial, emoji);
  }
  cached = { text, emoji };
  return cached;
}
