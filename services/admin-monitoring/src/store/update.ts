import type { Pool, Queryable } from '@wb/db';
import { UPDATE_FINISHED, UPDATE_INTERRUPTED_ERROR, UPDATE_STALE_MS, type UpdateRow } from '../domain/update.ts';

/** The system update's rows (migrations/002_system_update.sql). Every write names a running row, so a finished run is never reopened. */

const COLUMNS = 'id, is_running, current_step, progress, error, started_at, finished_at';

export async function latestUpdate(db: Queryable): Promise<UpdateRow | undefined> {
  const { rows } = await db.query<UpdateRow>(`SELECT ${COLUMNS} FROM system_updates ORDER BY id DESC LIMIT 1`);
  return rows[0];
}

/** A running row whose runner has been silent past UPDATE_STALE_MS is ended as interrupted. */
export async function endStaleUpdates(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE system_updates SET is_running = false, error = $1, finished_at = now()
      WHERE is_running AND heartbeat_at < now() - make_interval(secs => $2)`,
    [UPDATE_INTERRUPTED_ERROR, UPDATE_STALE_MS / 1000],
  );
  return rowCount ?? 0;
}

/** Inserts the running row, or answers undefined when another run holds the one running slot. */
export async function insertRunningUpdate(db: Queryable, step: string, startedBy: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO system_updates (is_running, current_step, started_by) VALUES (true, $1, $2)
     ON CONFLICT DO NOTHING RETURNING id`,
    [step, startedBy],
  );
  return rows[0]?.id;
}

export async function setStep(db: Queryable, id: string, step: string, progress: number, restartingSelf = false): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE system_updates SET current_step = $2, progress = $3, restarting_self = $4, heartbeat_at = now()
      WHERE id = $1 AND is_running`,
    [id, step, progress, restartingSelf],
  );
  return (rowCount ?? 0) > 0;
}

export async function heartbeat(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE system_updates SET heartbeat_at = now() WHERE id = $1 AND is_running', [id]);
}

export async function finishUpdate(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE system_updates SET is_running = false, current_step = $2, progress = 100, finished_at = now(), restarting_self = false
      WHERE id = $1 AND is_running`,
    [id, UPDATE_FINISHED],
  );
}

export async function failUpdate(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(
    'UPDATE system_updates SET is_running = false, error = $2, finished_at = now(), restarting_self = false WHERE id = $1 AND is_running',
    [id, error],
  );
}

/**
 * Called by a starting process: a run that was restarting this service has reached its end (the
 * new instance is up), whichever process ran it. Answers how many runs were finished.
 */
export async function finishSelfRestarts(pool: Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE system_updates SET is_running = false, current_step = $1, progress = 100, finished_at = now(), restarting_self = false
      WHERE is_running AND restarting_self`,
    [UPDATE_FINISHED],
  );
  return rowCount ?? 0;
}
