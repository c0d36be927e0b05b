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

/** Items at or after `since`, newest first (the activity_at index; never more than `limit`). */
export async function activitySince(db: Queryable, since: Date, limit: number): Promise<ActivityItem[]> {
  const { rows } = await db.query<{
    type: ActivityItem['type'];
    at: string;
    text: string;
    person_id: string | null;
    person_at: number | null;
    name: string | null;
    email: string | null;
  }>(
    `SELECT a.type, a.at, a.text, a.person_id, a.person_at, u.name, u.email
       FROM (SELECT * FROM activity WHERE at >= $1 ORDER BY at DESC, id DESC LIMIT $2) a
       LEFT JOIN users u ON u.id = a.person_id
      ORDER BY a.at DESC, a.id DESC`,
    [since, limit],
  );
  return rows.map((r) => ({
    type: r.type,
    time: r.at,
    text: r.person_id && r.person_at !== null ? placePerson(r.text, r.person_at, personLabel(r, r.person_id)) : r.text,
  }));
}
