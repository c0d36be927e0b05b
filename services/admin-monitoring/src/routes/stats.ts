import { Router, type RequestHandler } from 'express';
import type { ActivityAnswer, AdminStats } from '@wb/contracts';
import type { Pool } from '@wb/db';
import { utcDay, utcDayStart } from '../domain/day.ts';
import { activitySince } from '../store/activity.ts';
import { readDay, readStats } from '../store/counters.ts';

/** The overview shows at most this many of today's items (the newest). */
export const ACTIVITY_LIMIT = 100;

/** /api/admin/{stats,activity}: counters and today's activity, kept from domain events. */
export function statsRouter(deps: { admin: RequestHandler[]; pool: Pool; now?: () => Date }): Router {
  const { pool } = deps;
  const now = deps.now ?? (() => new Date());
  const r = Router();
  r.get('/stats', ...deps.admin, async (_req, res) => {
    const stats: AdminStats = await readStats(pool);
    res.json(stats);
  });
  r.get('/activity', ...deps.admin, async (_req, res) => {
    const t = now();
    const [activity, todayStats] = await Promise.all([activitySince(pool, utcDayStart(t), ACTIVITY_LIMIT), readDay(pool, utcDay(t))]);
    const answer: ActivityAnswer = { activity, todayStats };
    res.json(answer);
  });
  return r;
}
