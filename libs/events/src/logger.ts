import type { EventLogger } from './types.ts';

/** Without a service logger, problems still reach stderr as JSON; routine info stays quiet. */
export const fallbackLogger: EventLogger = {
  info() {},
  warn(obj, msg) {
    process.stderr.write(`${JSON.stringify({ level: 'warn', lib: 'events', msg, ...errFields(obj) })}\n`);
  },
  error(obj, msg) {
    process.stderr.write(`${JSON.stringify({ level: 'error', lib: 'events', msg, ...errFields(obj) })}\n`);
  },
};

function errFields(obj: object): object {
  const o = obj as { err?: unknown };
  return o.err instanceof Error ? { ...obj, err: { message: o.err.message, stack: o.err.stack } } : obj;
}

/** Delay before delivery number `deliveryCount + 1`; the last value of the schedule repeats. */
export function backoffDelay(schedule: number[], deliveryCount: number): number {
  if (schedule.length === 0) return 0;
  return schedule[Math.min(Math.max(deliveryCount - 1, 0), schedule.length - 1)];
}
