import { FREE_PLAN_NAME, type AdminActionName, type AdminUser, type EventData } from '@wb/contracts';

/** A row of the admin list as the store reads it. */
export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  is_admin: boolean;
  plan_name: string | null;
  boards_count: number;
  created_at: string | Date;
}

export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    isAdmin: row.is_admin,
    // Null until billing's first entitlements.changed: no subscription, which is Free.
    plan_name: row.plan_name ?? FREE_PLAN_NAME,
    boards_count: row.boards_count,
    created_at: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
  };
}

/** `?search=` as an ILIKE pattern: the text anywhere, its %, _ and \ taken literally; null for "everyone". */
export function searchPattern(search: string | undefined): string | null {
  const text = search?.trim();
  if (!text) return null;
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface Actor {
  id: string;
  name: string;
}

/** What the audit log keeps of a user: never a hash, a token or a setting. */
const visible = (u: { name: string; email: string }) => ({ name: u.name, email: u.email });

/** The admin.action event of an administrator's change to a user (kept by admin-monitoring). */
export function userAction(
  actor: Actor,
  action: Extract<AdminActionName, 'user.updated' | 'user.deleted'>,
  target: { id: string; name: string; email: string },
  after: { name: string; email: string } | null,
  at: Date,
): EventData<'admin.action'> {
  return {
    actorId: actor.id,
    actorName: actor.name,
    action,
    target: { type: 'user', id: target.id, label: `${target.name} <${target.email}>` },
    before: visible(target),
    after: after ? visible(after) : null,
    at: at.toISOString(),
  };
}
