import { HEX_COLOR, LIMITS, TAG_PALETTE } from '@wb/contracts';

export const DEFAULT_FOLDER_COLOR = LIMITS.defaultFolderColor;
export const DEFAULT_TAG_COLOR = TAG_PALETTE[0];

export const isHexColor = (v: string): boolean => HEX_COLOR.test(v);

/**
 * One stored form (#RRGGBB, upper case) so the palette check and equality comparisons in the SPA
 * do not depend on how a client spelled the colour. Returns null for anything that is not a hex colour.
 */
export function normalizeHexColor(v: string): string | null {
  if (!isHexColor(v)) return null;
  const hex = v.slice(1).toUpperCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

export const isPaletteColor = (v: string): boolean => {
  const n = normalizeHexColor(v);
  return n !== null && (TAG_PALETTE as readonly string[]).includes(n);
};
