import type { ActivityItem } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import { deferPerson, personLabel, placePerson, type ActivityLine } from '../domain/activity-texts.ts';
import { personOf } from './projections.ts';

/** One line of the overview's activity. */
export async function addActivity(db: Queryable, item: ActivityItem): Promise<void> {
  await db.query('INSERT INTO activity (type, at, text) VALUES ($1, $2, $3)', [item.type, item.time, item.text]);
}

/**
 * A line naming a user: with their label when the users projection knows them, else with the
 * place kept for it, filled when the line is read (their registration may land a moment later).
 */
export async function addActivityAbout(db: Queryable, userId: string, time: string, build: (who: string) => ActivityLine): Promise<void> {
  const person = await personOf(db, userId);
  if (person) return addActivity(db, { ...build(personLabel(person, userId)), time });
  const line = deferPerson(build, personLabel(null, userId));
  await db.query('INSERT INTO activity (type, at, text, person_id, person_at) VALUES ($1, $2, $3, $4, $5)', [
    line.type,
    time,
    line.text,
    line.personAt === null ? null : userId,
    line.personAt,
  ]);
}

/**
 * Items at or after `since`, newest first (the activity_at index; never more than `limit`). Lines
 * waiting for a person's name (rare) get it by primary key in a second query: a join let the
 * planner hash the whole users table on every read.
 */
export async function activitySince(db: Queryable, since: Date, limit: number): Promise<ActivityItem[]> {
  const { rows } = await db.query<{ type: ActivityItem['type']; at: string; text: string; person_id: string | null; person_at: number | null }>(
    'SELECT type, at, text, person_id, person_at FROM activity WHERE at >= $1 ORDER BY at DESC, id DESC LIMIT $2',
    [since, limit],
  );
  const ids = [...new Set(rows.flatMap((r) => (r.person_id && r.person_at !== null ? [r.person_id] : [])))];
  const people = new Map<string, { name: string | null; email: string | null }>();
  if (ids.length > 0) {
    const found = await db.query<{ id: string; name: string | null; email: string | null }>('SELECT id, name, email FROM users WHERE id = ANY($1::uuid[])', [ids]);
    for (const p of found.rows) people.set(p.id, p);
  }
  return rows.map((r) => ({
    type: r.type,
    time: r.at,
    text: r.person_id && r.person_at !== null ? placePerson(r.text, r.person_at, personLabel(people.get(r.person_id), r.person_id)) : r.text,
  }));
}
