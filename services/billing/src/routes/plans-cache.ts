import type { Pool } from '@wb/db';
import { getConfig } from '../store/config.ts';
import { listPlans } from '../store/plans.ts';

/**
 * The public plan list as ready JSON text. It is read on every landing and pricing page view and
 * changes only on an admin's edit, so one replica serves it from memory for `ttlMs`: its own edits
 * drop it at once, another replica's are seen within `ttlMs`. Concurrent misses share one query.
 */
export function createPlansCache(pool: Pool, ttlMs = 1_000) {
  let cached: { body: string; until: number } | null = null;
  let loading: Promise<string> | null = null;
  // A load that started before an invalidation must not be kept: it may have read the old plans.
  let generation = 0;
  const load = async () => {
    const [plans, config] = await Promise.all([listPlans(pool, { activeOnly: true }), getConfig(pool)]);
    return JSON.stringify({ plans, billing_enabled: config.billing_enabled });
  };
  return {
    async body(): Promise<string> {
      if (cached && cached.until > Date.now()) return cached.body;
      const gen = generation;
      loading ??= load()
        .then((body) => {
          if (gen === generation) cached = { body, until: Date.now() + ttlMs };
          return body;
        })
        .finally(() => {
          loading = null;
        });
      return loading;
    },
    invalidate() {
      generation++;
      cached = null;
      loading = null;
    },
  };
}
export type PlansCache = ReturnType<typeof createPlansCache>;
