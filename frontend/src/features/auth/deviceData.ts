/**
 * What this device keeps of a signed-in user beyond the tokens, so a board reloads offline
 * (issue 35 item 7; docs/decisions.md "Offline app shell"): the last user the server confirmed, each
 * board's last answer, and each board's document in IndexedDB (y-indexeddb, `wb-board-<id>`). All of it
 * is removed at logout, account deletion and when another account signs in on the device.
 * No imports beyond types: this sits in the entry chunk.
 */
import type { User } from './types.ts';

export const LAST_USER_KEY = 'wb-last-user';
const ANSWER_PREFIX = 'wb-board-answer:';
/** IndexedDB database of one board's document (realtime/boardConnection.ts opens it). */
export const BOARD_DB_PREFIX = 'wb-board-';

function read<T>(key: string): T | null {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: offline reload then simply is not available */
  }
}

export function rememberUser(user: User): void {
  write(LAST_USER_KEY, user);
}

/** The `sub` of a JWT, read without checking it (only used to match the remembered user). */
function tokenSubject(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

/** The remembered user, if it is the one the stored access token was issued to. */
export function rememberedUserFor(accessToken: string): User | null {
  const user = read<User>(LAST_USER_KEY);
  return user && typeof user.id === 'string' && tokenSubject(accessToken) === user.id ? user : null;
}

export function rememberedUserId(): string | null {
  return read<User>(LAST_USER_KEY)?.id ?? null;
}

export function rememberBoardAnswer(boardId: string, userId: string, answer: unknown): void {
  write(ANSWER_PREFIX + boardId, { userId, answer });
}

export function rememberedBoardAnswer<T>(boardId: string, userId: string): T | null {
  const saved = read<{ userId: string; answer: T }>(ANSWER_PREFIX + boardId);
  return saved?.userId === userId ? saved.answer : null;
}

/**
 * Removes the remembered user, the boards' answers and their IndexedDB documents. A board still open
 * closes its database when its page unmounts; the deletion waits for that (IndexedDB's 'blocked').
 */
export async function clearDeviceData(): Promise<void> {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key === LAST_USER_KEY || key?.startsWith(ANSWER_PREFIX)) localStorage.removeItem(key);
    }
  } catch {
    /* storage disabled: nothing was kept */
  }
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const dbs = await indexedDB.databases().catch(() => []);
  await Promise.all(
    dbs
      .filter((db) => db.name?.startsWith(BOARD_DB_PREFIX))
      .map(
        (db) =>
          new Promise<void>((resolve) => {
            const req = indexedDB.deleteDatabase(db.name!);
            req.onsuccess = req.onerror = () => resolve();
          }),
      ),
  );
}
