/** board-page.md §7: what the reaction picker offers before the user picks favourites. */
export const DEFAULT_FAVORITE_EMOJIS = ['👍', '❤️', '😊', '🔥', '👏', '💯'] as const;

/** Stored list → answer: nothing chosen (never set, or cleared) falls back to the defaults. */
export function favoritesOrDefault(stored: unknown): string[] {
  return Array.isArray(stored) && stored.length > 0 ? (stored as string[]) : [...DEFAULT_FAVORITE_EMOJIS];
}

/** Trims and drops duplicates, keeping the user's order. */
export function normalizeFavorites(list: string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const e = raw.trim();
    if (e && !out.includes(e)) out.push(e);
  }
  return out;
}
