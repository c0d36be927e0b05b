// Types of scripts/ci-floors.mjs for its test.
export interface TierShortfall {
  tier: string;
  floor: number;
  ran: number;
}
export function tierCounts(
  summary: { projects?: Record<string, { passed?: number; failed?: number }> } | undefined,
  extra?: Record<string, number>,
): Record<string, number>;
export function belowFloor(floors: Record<string, number>, counts: Record<string, number>): TierShortfall[];
export function describeShortfall(t: TierShortfall): string;
