import type { Queryable } from '@wb/db';
import type { PdfEntitlement } from '../domain/entitlements.ts';

export async function upsertEntitlement(
  db: Queryable,
  userId: string,
  e: PdfEntitlement,
  occurredAt: string,
): Promise<void> {
  await db.query(
    `INSERT INTO entitlements (user_id, export_pdf, limits_enabled, source_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET export_pdf = EXCLUDED.export_pdf, limits_enabled = EXCLUDED.limits_enabled,
       source_at = EXCLUDED.source_at
     WHERE entitlements.source_at <= EXCLUDED.source_at`,
    [userId, e.exportPdf, e.limitsEnabled, occurredAt],
  );
}

export async function findEntitlement(db: Queryable, userId: string): Promise<PdfEntitlement | null> {
  const { rows } = await db.query<{ export_pdf: boolean; limits_enabled: boolean }>(
    'SELECT export_pdf, limits_enabled FROM entitlements WHERE user_id = $1',
    [userId],
  );
  return rows[0] ? { exportPdf: rows[0].export_pdf, limitsEnabled: rows[0].limits_enabled } : null;
}
