import type { EventData } from '@wb/contracts';
import type { Queryable } from '@wb/db';
import { adminActionText } from '../domain/audit-texts.ts';
import { addActivity } from './activity.ts';

/**
 * Keeps an administrator's action: the audit row (who, what, before, after, when) and its line in
 * the overview's activity (type 'other'), with the caller's client so both commit with the caller's
 * transaction. The admin.action consumer passes the event's id, so a redelivery is kept once;
 * actions this service does itself (system update, cache refresh) get a fresh id.
 * Returns false when that id was already recorded.
 */
export async function recordAdminAction(
  db: Queryable,
  data: EventData<'admin.action'>,
  opts: { id?: string } = {},
): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO audit_log (id, actor_id, actor_name, action, target_type, target_id, target_label, before, after, at)
     VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (id) DO NOTHING`,
    [
      opts.id ?? null,
      data.actorId,
      data.actorName,
      data.action,
      data.target.type,
      data.target.id,
      data.target.label,
      data.before === null ? null : JSON.stringify(data.before),
      data.after === null ? null : JSON.stringify(data.after),
      data.at,
    ],
  );
  if (r.rowCount === 0) return false;
  await addActivity(db, { type: 'other', time: data.at, text: adminActionText(data) });
  return true;
}

export interface AuditEntry extends EventData<'admin.action'> {
  id: string;
}

/** The newest audit entries (newest first). */
export async function listAdminActions(db: Queryable, limit = 100): Promise<AuditEntry[]> {
  const { rows } = await db.query(
    `SELECT id, actor_id, actor_name, action, target_type, target_id, target_label, before, after, at
       FROM audit_log ORDER BY at DESC, recorded_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    actorId: r.actor_id,
    actorName: r.actor_name,
    action: r.action,
    target: { type: r.target_type, id: r.target_id, label: r.target_label },
    before: r.before,
    after: r.after,
    at: r.at,
  }));
}
