import { describe, expect, it } from 'vitest';
import { isUuid, TAG_PALETTE } from '@wb/contracts';
import { isHexColor, isPaletteColor, normalizeHexColor } from '../../src/domain/colors.ts';
import { boardLimits, canvasLimits } from '../../src/domain/limits.ts';

describe('colours', () => {
  it('accepts #RGB and #RRGGBB, normalises to upper-case #RRGGBB', () => {
    expect(normalizeHexColor('#abc')).toBe('#AABBCC');
    expect(normalizeHexColor('#3b82f6')).toBe('#3B82F6');
    expect(normalizeHexColor('3B82F6')).toBeNull();
    expect(normalizeHexColor('#12345')).toBeNull();
    expect(normalizeHexColor('#GGGGGG')).toBeNull();
    expect(isHexColor('red')).toBe(false);
  });
  it('knows the 12-colour palette', () => {
    expect(TAG_PALETTE).toHaveLength(12);
    for (const c of TAG_PALETTE) expect(isPaletteColor(c.toLowerCase())).toBe(true);
    expect(isPaletteColor('#000000')).toBe(false);
  });
});

describe('ids and limits', () => {
  it('uuid shape', () => {
    expect(isUuid('6f1c1d1e-1b2c-4d3e-8f90-0123456789ab')).toBe(true);
    expect(isUuid('123')).toBe(false);
    expect(isUuid("' OR 1=1 --")).toBe(false);
  });
  it('board limits: no row or limits off = unlimited', () => {
    expect(boardLimits(null, 7)).toEqual({ current: 7, max: -1, canCreate: true });
    const ent = { max_boards: 3, max_canvas_w: 8000, max_canvas_h: 8000, export_pdf: false, limits_enabled: true };
    expect(boardLimits(ent, 2)).toEqual({ current: 2, max: 3, canCreate: true });
    expect(boardLimits(ent, 3)).toEqual({ current: 3, max: 3, canCreate: false });
    expect(boardLimits({ ...ent, limits_enabled: false }, 9)).toEqual({ current: 9, max: -1, canCreate: true });
    expect(boardLimits({ ...ent, max_boards: -1 }, 9).canCreate).toBe(true);
  });
  it('canvas limits', () => {
    expect(canvasLimits(null, 'grid')).toEqual({ max_width: null, max_height: null, unlimited: true, background: 'grid' });
    const ent = { max_boards: 3, max_canvas_w: 8000, max_canvas_h: 6000, export_pdf: false, limits_enabled: true };
    expect(canvasLimits(ent, 'white')).toEqual({ max_width: 8000, max_height: 6000, unlimited: false, background: 'white' });
    expect(canvasLimits({ ...ent, max_canvas_w: null }, 'white').unlimited).toBe(true);
  });
});
