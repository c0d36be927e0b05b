/**
 * Who may still join a board that is filling up. Anonymous link visitors have a sub-limit, so the
 * rest of the board's capacity stays for signed-in users; the owner has a reserve above the limit,
 * so a full board never locks its owner out.
 */
export interface Occupancy {
  total: number;
  anonymous: number;
}

export interface CapacityLimits {
  perBoard: number;
  anonymousPerBoard: number;
  ownerReserve: number;
}

export function admits(o: Occupancy, limits: CapacityLimits, who: { owner: boolean; signedIn: boolean }): boolean {
  if (who.owner) return o.total < limits.perBoard + limits.ownerReserve;
  if (!who.signedIn && o.anonymous >= limits.anonymousPerBoard) return false;
  return o.total < limits.perBoard;
}
