const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** '900', '900s', '15m', '1h', '30d' → seconds; null when malformed or not positive. */
export function parseDuration(value: string): number | null {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/.exec(value);
  if (!m) return null;
  const seconds = Number(m[1]) * UNITS[m[2] || 's'];
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : null;
}
