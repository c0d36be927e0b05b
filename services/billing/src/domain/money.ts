/** Minor units as a decimal string with two places, as YooKassa's amount.value wants it ("499.00"). */
export function minorToDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "499.00" → 49900; anything else → null. */
export function decimalToMinor(value: string): number | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}
