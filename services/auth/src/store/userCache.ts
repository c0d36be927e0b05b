import type { UserRow } from '../domain/users.ts';

/**
 * Recently read user rows, for the calls every page load makes (verify, profile). A replica's own
 * writes replace the entry at once; another replica's write is seen within `ttlMs`. Access tokens
 * already outlive a deleted user by minutes at other services, so a couple of seconds here adds no
 * new exposure, and it spares the database one query per page view.
 */
export interface UserCache {
  get(id: string): UserRow | undefined;
  set(row: UserRow): void;
  forget(id: string): void;
}

export function createUserCache(ttlMs: number, max = 50_000): UserCache {
  const entries = new Map<string, { row: UserRow; until: number }>();
  return {
    get(id) {
      const hit = entries.get(id);
      if (!hit) return undefined;
      if (hit.until > Date.now()) return hit.row;
      entries.delete(id);
      return undefined;
    },
    set(row) {
      if (ttlMs <= 0) return;
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(row.id, { row, until: Date.now() + ttlMs });
    },
    forget(id) {
      entries.delete(id);
    },
  };
}
