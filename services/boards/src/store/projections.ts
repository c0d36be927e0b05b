import type { Queryable } from '@wb/db';
import type { Entitlement } from '../domain/limits.ts';

export async function upsertUserName(db: Queryable, id: string, name: string) {
  await db.query(
    `INSERT INTO users (id, name) VALUES ($1, $2)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, updated_at = now() WHERE users.name IS DISTINCT FROM EXCLUDED.name`,
    [id, name],
  );
}

export async function userName(db: Queryable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [id]);
  return rows[0]?.name ?? null;
}

export async function getEntitlement(db: Queryable, userId: string): Promise<Entitlement | null> {
  const { rows } = await db.query<Entitlement>(
    'SELECT max_boards, max_canvas_w, max_canvas_h, export_pdf, limits_enabled FROM entitlements WHERE user_id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

/** Applies an entitlements.changed event unless a newer one was applied already (redeliveries arrive out of order). */
export async function upsertEntitlement(db: Queryable, userId: string, e: Entitlement, occurredAt: string) {
  await db.query(
    `INSERT INTO entitlements (user_id, max_boards, max_canvas_w, max_canvas_h, export_pdf, limits_enabled, source_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (user_id) DO UPDATE SET max_boards = EXCLUDED.max_boards, max_canvas_w = EXCLUDED.max_canvas_w,
       max_canvas_h = EXCLUDED.max_canvas_h, export_pdf = EXCLUDED.export_pdf, limits_enabled = EXCLUDED.limits_enabled,
       source_at = EXCLUDED.source_at
     WHERE entitlements.source_at <= EXCLUDED.source_at`,
    [userId, e.max_boards, e.max_canvas_w, e.max_canvas_h, e.export_pdf, e.limits_enabled, occurredAt],
  );
}
