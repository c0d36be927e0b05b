/**
 * Today's stats and today's activity are per UTC day (contracts' TodayStats): an event belongs to
 * the day of the instant it happened (its occurredAt), whenever it is delivered.
 */
export function utcDay(at: string | Date): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) throw new RangeError(`not an instant: ${String(at)}`);
  return d.toISOString().slice(0, 10);
}

/** 00:00 UTC of the day `now` is in. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
