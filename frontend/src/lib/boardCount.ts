/** 'current/max' of the header; max -1 means unlimited, unknown max shows a dash. */
export function formatBoardCount(current: number, max: number | null | undefined): string {
  if (max === null || max === undefined) return `${current}/—`;
  return `${current}/${max < 0 ? '∞' : max}`;
}
