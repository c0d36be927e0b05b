import { FREE_PLAN_NAME, type PublicUser } from '@wb/contracts';

/** A users row as the store reads it (column names as in SQL). */
export interface UserRow {
  id: string;
  name: string;
  email: string;
  is_admin: boolean;
  plan_name: string | null;
  boards_count: number;
  created_at: string;
  settings: Record<string, unknown> | null;
  /** When the current address was proven by a link (mail/flows.ts); null: not yet. */
  email_verified_at?: string | Date | null;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    isAdmin: row.is_admin,
    // Null until billing's first entitlements.changed for the user arrives (a moment after
    // registering): a user billing has not spoken about has no subscription, which is Free.
    plan_name: row.plan_name ?? FREE_PLAN_NAME,
    boards_count: row.boards_count,
    created_at: row.created_at,
    settings: row.settings ?? {},
    emailVerified: Boolean(row.email_verified_at),
  };
}
