import type { Pool } from '@wb/db';
import { withTransaction } from '@wb/db';
import type { SystemConfigView } from '@wb/contracts';
import { publishConfigChanged } from '../events/publish.ts';
import { getConfig, updateConfig } from '../store/config.ts';
import { syncEntitlements } from './entitlements.ts';

/** Applied at once: everyone's entitlements are recomputed in the same transaction as the change. */
export async function changeConfig(pool: Pool, patch: Partial<SystemConfigView>, now: Date): Promise<SystemConfigView> {
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
    }
    return after;
  });
}
