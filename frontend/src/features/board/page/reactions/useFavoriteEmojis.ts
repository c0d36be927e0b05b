/**
 * Favourite emojis (§7): loaded for signed-in users, the defaults on any failure or without a login;
 * the quick reactions are the first six (§9).
 */
import { useCallback, useMemo } from 'react';
import { DEFAULT_EMOJIS, QUICK_REACTIONS_COUNT } from '@wb/board-model';
import { useGetFavoriteEmojisQuery, useSaveFavoriteEmojisMutation } from '../boardPageApi.ts';

export function quickReactions(favorites: readonly string[]): string[] {
  const list = favorites.length > 0 ? favorites : DEFAULT_EMOJIS;
  return list.slice(0, QUICK_REACTIONS_COUNT);
}

/** Adds or removes one favourite, keeping the order the user built. */
export function toggleFavorite(favorites: readonly string[], emoji: string): string[] {
  return favorites.includes(emoji) ? favorites.filter((e) => e !== emoji) : [...favorites, emoji];
}

export function useFavoriteEmojis(signedIn: boolean) {
  const query = useGetFavoriteEmojisQuery(undefined, { skip: !signedIn });
  const [save] = useSaveFavoriteEmojisMutation();
  const favorites = useMemo<string[]>(
    () => (query.isSuccess && query.data.favorites.length > 0 ? query.data.favorites : [...DEFAULT_EMOJIS]),
    [query.isSuccess, query.data],
  );
  const toggle = useCallback(
    (emoji: string) => {
      if (!signedIn) return;
      void save(toggleFavorite(favorites, emoji));
    },
    [favorites, save, signedIn],
  );
  return { favorites, quick: quickReactions(favorites), toggle, canEdit: signedIn };
}
