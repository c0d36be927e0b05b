import type { AdminActionName, EventData } from '@wb/contracts';

/**
 * The overview's line for an administrator's action (type 'other'): who did what to which record,
 * and which fields changed. Our texts (docs/decisions.md "Admin activity texts"): the spec has none.
 */
const WHAT: Record<AdminActionName, (label: string) => string> = {
  'user.updated': (l) => `изменён пользователь ${l}`,
  'user.deleted': (l) => `удалён пользователь ${l}`,
  'plan.created': (l) => `создан тариф «${l}»`,
  'plan.updated': (l) => `изменён тариф «${l}»`,
  'plan.deactivated': (l) => `отключён тариф «${l}»`,
  'subscription.created': (l) => `выдана подписка ${l}`,
  'subscription.updated': (l) => `изменена подписка ${l}`,
  'subscription.extended': (l) => `продлена подписка ${l}`,
  'subscription.revoked': (l) => `отозвана подписка ${l}`,
  'config.updated': () => 'изменены настройки биллинга',
  'system.update_started': () => 'запущено обновление системы',
  'system.cache_refreshed': () => 'обновлены данные мониторинга',
};

/** Keys whose value differs between before and after (either may be null), in a stable order. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  if (!before || !after) return [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

export function adminActionText(a: EventData<'admin.action'>): string {
  const what = WHAT[a.action](a.target.label);
  const fields = changedFields(a.before, a.after);
  return `Администратор ${a.actorName}: ${what}${fields.length ? ` (изменено: ${fields.join(', ')})` : ''}`;
}
