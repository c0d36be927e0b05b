import type { Pool } from '@wb/db';
import { withTransaction } from '@wb/db';
import type { SystemConfigView } from '@wb/contracts';
import { publishAdminAction, publishConfigChanged, type AdminActor } from '../events/publish.ts';
import { getConfig, updateConfig } from '../store/config.ts';
import { syncEntitlements } from './entitlements.ts';

/** Applied at once: everyone's entitlements are recomputed in the same transaction as the change. */
/** An unchanged PUT (the same values again) is no action: no event, no audit entry. */
export async function changeConfig(pool: Pool, patch: Partial<SystemConfigView>, now: Date, actor: AdminActor): Promise<SystemConfigView> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT 1 FROM system_config FOR UPDATE');
    const before = await getConfig(client);
    const after = await updateConfig(client, patch);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await publishConfigChanged(client, {
        billingEnabled: after.billing_enabled,
        limitsEnabled: after.limits_enabled,
        graceDays: after.grace_days,
      });
      await syncEntitlements(client, 'all', now);
      await publishAdminAction(client, actor, 'config.updated', { type: 'config', id: null, label: 'настройки биллинга' }, before, after);
    }
    return after;
  });
}
