import type { SystemConfigView } from '@wb/contracts';
import type { Queryable } from '@wb/db';

export async function getConfig(db: Queryable): Promise<SystemConfigView> {
  const { rows } = await db.query<SystemConfigView>('SELECT billing_enabled, limits_enabled, grace_days FROM system_config');
  return rows[0]!;
}

/** Locks the one row so concurrent changes apply one after the other (each recomputes everyone's entitlements). */
export async function updateConfig(db: Queryable, patch: Partial<SystemConfigView>): Promise<SystemConfigView> {
  const { rows } = await db.query<SystemConfigView>(
    `UPDATE system_config SET
       billing_enabled = COALESCE($1, billing_enabled),
       limits_enabled = COALESCE($2, limits_enabled),
       grace_days = COALESCE($3, grace_days),
       updated_at = now()
     RETURNING billing_enabled, limits_enabled, grace_days`,
    [patch.billing_enabled ?? null, patch.limits_enabled ?? null, patch.grace_days ?? null],
  );
  return rows[0]!;
}
