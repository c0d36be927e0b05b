import { Router, type RequestHandler } from 'express';
import type { ActivityAnswer, AdminStats } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { utcDay, utcDayStart } from '../domain/day.ts';
import { activitySince } from '../store/activity.ts';
import { readDay, readStats } from '../store/counters.ts';
import { sharedReads } from '../store/shared-read.ts';

/** The overview shows at most this many of today's items (the newest). */
export const ACTIVITY_LIMIT = 100;
/** How long an answer is reused: the panel reloads on a tab change, never many times a second. */
export const STATS_REUSE_MS = 250;

/** /api/admin/{stats,activity}: counters and today's activity, kept from domain events. */
export function statsRouter(deps: { admin: RequestHandler[]; pool: Pool; now?: () => Date }): Router {
  const { pool } = deps;
  const now = deps.now ?? (() => new Date());
  // The answers are shared serialized: concurrent and closely following requests cost one query
  // and one stringify.
  const shared = sharedReads<string>({ keepMs: STATS_REUSE_MS });
  const r = Router();
  r.get('/stats', ...deps.admin, async (_req, res) => {
    const body = await shared('stats', async () => JSON.stringify((await readStats(pool)) satisfies AdminStats));
    res.type('json').send(body);
  });
  r.get('/activity', ...deps.admin, async (_req, res) => {
    const t = now();
    const day = utcDay(t);
    const body = await shared(`activity:${day}`, async () => {
      const [activity, todayStats] = await Promise.all([activitySince(pool, utcDayStart(t), ACTIVITY_LIMIT), readDay(pool, day)]);
      return JSON.stringify({ activity, todayStats } satisfies ActivityAnswer);
    });
    res.type('json').send(body);
  });
  return r;
}
