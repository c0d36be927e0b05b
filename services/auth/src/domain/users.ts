import type { PublicUser } from '@wb/contracts';

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
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    isAdmin: row.is_admin,
    plan_name: row.plan_name,
    boards_count: row.boards_count,
    created_at: row.created_at,
    settings: row.settings ?? {},
  };
}
