/**
 * Colours of a tag chip: a light tint of the tag's colour behind text in a dark shade of it. The shade
 * was a fixed 70 % of the colour (light palette colours such as #06B6D4 and #14B8A6, and custom light
 * ones, fell under WCAG's 4.5:1); it now darkens further only as far as the contrast needs. Pure, so
 * the contrast is unit-tested for every palette colour.
 */
import type { CSSProperties } from 'react';

/** WCAG AA for normal-size text (the chips' 12 px). */
export const MIN_TEXT_CONTRAST = 4.5;
/** The grey of a chip whose colour cannot be read (as the CSS default). */
const FALLBACK = '#7c849d';
/** The share of the tag's colour in the background (the rest is white), as the chips had. */
const BACKGROUND_SHARE = 0.14;
/** The share of the tag's colour in the text (the rest is black) where that already reads well. */
const TEXT_SHARE_START = 0.7;
const TEXT_SHARE_STEP = 0.05;

type Rgb = readonly [number, number, number];

/** `#RGB` or `#RRGGBB` (the API's hexColor), else null. */
export function parseHex(color: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
}

const toHex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** `share` of `a` and the rest of `b`, channel by channel in sRGB (as CSS `color-mix(in srgb, ...)`). */
const mix = (a: Rgb, b: Rgb, share: number): Rgb =>
  a.map((v, i) => Math.round(v * share + b[i]! * (1 - share))) as unknown as Rgb;

/** WCAG 2 relative luminance. */
export function relativeLuminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/** Background and text colours (`#rrggbb`) of a chip of a tag of this colour; the text meets 4.5:1 on it. */
export function tagChipColors(color: string): { background: string; text: string } {
  const base = parseHex(color) ?? parseHex(FALLBACK)!;
  const background = mix(base, WHITE, BACKGROUND_SHARE);
  let share = TEXT_SHARE_START;
  let text = mix(base, BLACK, share);
  // The background is at least 86 % white, so black text always passes: the loop ends at share 0 at the latest.
  while (contrastRatio(text, background) < MIN_TEXT_CONTRAST && share > 0) {
    share = Math.max(0, share - TEXT_SHARE_STEP);
    text = mix(base, BLACK, share);
  }
  return { background: toHex(background), text: toHex(text) };
}

/** The inline custom properties of a tag chip (shared.module.css `.tagChip` reads them). */
export function tagChipStyle(color: string): CSSProperties {
  const { background, text } = tagChipColors(color);
  return { '--tag-color': color, '--tag-bg': background, '--tag-text': text } as CSSProperties;
}
