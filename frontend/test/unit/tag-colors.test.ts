import { describe, expect, it } from 'vitest';
import {
  MIN_TEXT_CONTRAST,
  contrastRatio,
  parseHex,
  tagChipColors,
} from '../../src/features/dashboard/tagColors.ts';

/** Spec §3 Tag: the palette's 12 colours. */
const PALETTE = [
  '#3B82F6', '#EF4444', '#10B981', '#F59E0B', '#8B5CF6', '#EC4899',
  '#06B6D4', '#84CC16', '#F97316', '#6366F1', '#14B8A6', '#A855F7',
];
/** Custom colours a user may pick: light ones (the hard case), white, black, a short form. */
const CUSTOM = ['#FDE68A', '#FFFFFF', '#FFFF00', '#A7F3D0', '#E0E7FF', '#000000', '#111827', '#ff0'];

const ratio = (c: { background: string; text: string }) => contrastRatio(parseHex(c.text)!, parseHex(c.background)!);

describe('tag chip colours', () => {
  it.each([...PALETTE, ...CUSTOM])('%s: the text meets 4.5:1 on the chip', (color) => {
    expect(ratio(tagChipColors(color))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('keeps the chips as they were where they already read well: a light tint behind 70 % of the colour', () => {
    // #3B82F6: 14 % on white = (228,238,254); 70 % on black = (41,91,172).
    expect(tagChipColors('#3B82F6')).toEqual({ background: '#e4eefe', text: '#295bac' });
  });

  it('darkens the text of a light colour only as far as needed', () => {
    const cyan = tagChipColors('#06B6D4');
    expect(cyan.background).toBe('#dcf5f9');
    // 70 % of #06B6D4 on black (4,127,148) is under 4.5:1 on the tint; a darker shade of the same hue is used.
    expect(contrastRatio(parseHex('#047f94')!, parseHex(cyan.background)!)).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(cyan.text).not.toBe('#047f94');
    const [r, g, b] = parseHex(cyan.text)!;
    expect(g).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
    expect(ratio(cyan)).toBeLessThan(MIN_TEXT_CONTRAST + 1);
  });

  it('an unreadable colour falls back to the grey chip', () => {
    expect(tagChipColors('red')).toEqual(tagChipColors('#7c849d'));
    expect(parseHex('#12345')).toBeNull();
    expect(parseHex('#ABCDEF')).toEqual([0xab, 0xcd, 0xef]);
  });

  it('contrast ratio is WCAG 2s: black on white is 21, a colour on itself 1', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([59, 130, 246], [59, 130, 246])).toBe(1);
  });
});
