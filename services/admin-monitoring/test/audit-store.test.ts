import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, type Pool } from '@wb/db';
import { startPostgres } from '@wb/testkit';
import { recordAdminAction, listAdminActions } from '../src/store/audit.ts';
import { activitySince } from '../src/store/activity.ts';

let pg: Awaited<ReturnType<typeof startPostgres>>;
let pool: Pool;

beforeAll(async () => {
  pg = await startPostgres();
  pool = createPool({ url: pg.url, schema: 'admin' });
  await migrate(pool, { schema: 'admin', dir: fileURLToPath(new URL('../migrations', import.meta.url)) });
});
afterAll(async () => {
  await pool?.end();
  await pg?.stop();
});

describe('recordAdminAction', () => {
  it('keeps the audit row and an activity line of type other, once per id', async () => {
    const id = randomUUID();
    const actorId = randomUUID();
    const at = new Date().toISOString();
    const data = {
      actorId,
      actorName: 'Анна Админ',
      action: 'plan.updated' as const,
      target: { type: 'plan' as const, id: randomUUID(), label: 'Pro' },
      before: { name: 'Pro', description: 'a' },
      after: { name: 'Pro', description: 'b' },
      at,
    };
    expect(await recordAdminAction(pool, data, { id })).toBe(true);
    expect(await recordAdminAction(pool, data, { id })).toBe(false);
    // Without an id (the service's own actions) every call is a new entry.
    await recordAdminAction(pool, { ...data, action: 'system.cache_refreshed', target: { type: 'system', id: null, label: 'система' }, before: null, after: null });

    const log = await listAdminActions(pool);
    expect(log).toHaveLength(2);
    const entry = log.find((e) => e.id === id)!;
    expect(entry).toMatchObject({ actorId, actorName: 'Анна Админ', action: 'plan.updated', before: data.before, after: data.after, at });
    const items = await activitySince(pool, new Date(Date.now() - 60_000), 100);
    expect(items.map((i) => i.type)).toEqual(['other', 'other']);
    expect(items.map((i) => i.text).sort()).toEqual([
      'Администратор Анна Админ: изменён тариф «Pro» (изменено: description)',
      'Администратор Анна Админ: обновлены данные мониторинга',
    ]);
  });
});
