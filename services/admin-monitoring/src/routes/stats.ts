import { createHash } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
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

interface Encoded {
  body: Buffer;
  etag: string;
}

function encode(value: unknown): Encoded {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"` };
}

const send = (res: Response, a: Encoded) => void res.type('json').set('ETag', a.etag).send(a.body);

/** /api/admin/{stats,activity}: counters and today's activity, kept from domain events. */
export function statsRouter(deps: { admin: RequestHandler[]; pool: Pool; now?: () => Date }): Router {
  const { pool } = deps;
  const now = deps.now ?? (() => new Date());
  // The answers are shared encoded, with their ETag: a burst of requests costs one query, one
  // stringify and one hash (Express would hash every 16 kB activity answer again).
  const shared = sharedReads<Encoded>({ keepMs: STATS_REUSE_MS });
  const r = Router();
  r.get('/stats', ...deps.admin, async (_req, res) => {
    send(res, await shared('stats', async () => encode((await readStats(pool)) satisfies AdminStats)));
  });
  r.get('/activity', ...deps.admin, async (_req, res) => {
    const t = now();
    const day = utcDay(t);
    const answer = await shared(`activity:${day}`, async () => {
      const [activity, todayStats] = await Promise.all([activitySince(pool, utcDayStart(t), ACTIVITY_LIMIT), readDay(pool, day)]);
      return encode({ activity, todayStats } satisfies ActivityAnswer);
    });
    send(res, answer);
  });
  return r;
}
