import type { ActivityItem } from '@wb/contracts';
import type { Queryable } from '@wb/db';

/** One line of the overview's activity. */
export async function addActivity(db: Queryable, item: ActivityItem): Promise<void> {
  await db.query('INSERT INTO activity (type, at, text) VALUES ($1, $2, $3)', [item.type, item.time, item.text]);
}

/** Items at or after `since`, newest first (the activity_at index; never more than `limit`). */
export async function activitySince(db: Queryable, since: Date, limit: number): Promise<ActivityItem[]> {
  const { rows } = await db.query<{ type: ActivityItem['type']; at: string; text: string }>(
    'SELECT type, at, text FROM activity WHERE at >= $1 ORDER BY at DESC, id DESC LIMIT $2',
    [since, limit],
  );
  return rows.map((r) => ({ type: r.type, time: r.at, text: r.text }));
}
