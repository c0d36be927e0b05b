/** A stable id for an anonymous link visitor, so the server can tell their reactions apart (realtime README). */
const KEY = 'wb-anon-id';

export function anonId(): string {
  try {
    const existing = localStorage.getItem(KEY);
    if (existing) return existing;
    const fresh = crypto.randomUUID();
    localStorage.setItem(KEY, fresh);
    return fresh;
  } catch {
    return crypto.randomUUID();
  }
}
