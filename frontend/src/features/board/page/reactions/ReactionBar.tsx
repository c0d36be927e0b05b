/**
 * Reactions of the one selected sticky or image (§9): existing reactions with counts, the six quick
 * ones, and the full 32-emoji picker with 'all / favourites'; signed-in users add or remove a
 * favourite with the star on each emoji (or a right click). Guests never see it (§6).
 */
import { useState } from 'react';
import { SmilePlusIcon, StarIcon } from 'lucide-react';
import { EMOJI_PICKER, type Reaction } from '@wb/board-model';
import { Button, IconButton, Popover, PopoverContent, PopoverTrigger, Tabs, TabsContent, TabsList, TabsTrigger } from '../../../../components/ui/index.ts';
import { OWN } from '../texts.ts';
import styles from '../boardPage.module.css';

export function groupReactions(reactions: readonly Reaction[], userId: string | null) {
  const groups = new Map<string, { emoji: string; count: number; mine: boolean; names: string[] }>();
  for (const r of reactions) {
    const g = groups.get(r.emoji) ?? { emoji: r.emoji, count: 0, mine: false, names: [] };
    g.count++;
    g.mine ||= r.userId === userId;
    g.names.push(r.userName);
    groups.set(r.emoji, g);
  }
  return [...groups.values()];
}

export function ReactionBar(props: {
  reactions: readonly Reaction[];
  userId: string | null;
  quick: readonly string[];
  favorites: readonly string[];
  canEditFavorites: boolean;
  onToggleFavorite(emoji: string): void;
  onReact(emoji: string): void;
}) {
  const { reactions, userId, quick, favorites, canEditFavorites, onToggleFavorite, onReact } = props;
  const [open, setOpen] = useState(false);
  const pick = (emoji: string) => {
    onReact(emoji);
    setOpen(false);
  };
  const grid = (list: readonly string[]) => (
    <div className={styles.emojiGrid}>
      {list.map((e) => {
        const favourite = favorites.includes(e);
        return (
          <span key={e} className={styles.emojiCell}>
            <IconButton
              plain
              className={styles.emoji}
              onClick={() => pick(e)}
              onContextMenu={(ev) => {
                if (!canEditFavorites) return;
                ev.preventDefault();
                onToggleFavorite(e);
              }}
              label={`${OWN.react} ${e}`}
              data-testid="picker-emoji"
            >
              {e}
            </IconButton>
            {canEditFavorites ? (
              // The visible way to edit favourites (right click stays as a shortcut).
              <IconButton
                plain
                className={`${styles.favouriteToggle} ${favourite ? styles.favouriteOn : ''}`}
                onClick={() => onToggleFavorite(e)}
                label={`${favourite ? OWN.removeFavourite : OWN.addFavourite} ${e}`}
                aria-pressed={favourite}
                title={favourite ? OWN.removeFavourite : OWN.addFavourite}
                data-testid="favourite-toggle"
                data-emoji={e}
              >
                <StarIcon size={11} aria-hidden="true" fill={favourite ? 'currentColor' : 'none'} />
              </IconButton>
            ) : null}
          </span>
        );
      })}
    </div>
  );
  return (
    <div className={styles.reactionBar} data-testid="reaction-bar">
      {groupReactions(reactions, userId).map((g) => (
        <Button
          key={g.emoji}
          variant="plain"
          className={`${styles.reactionChip} ${g.mine ? styles.reactionMine : ''}`}
          onClick={() => onReact(g.emoji)}
          title={g.names.join(', ')}
          data-testid="reaction-chip"
          data-emoji={g.emoji}
          data-count={g.count}
        >
          {/* The emoji in an emoji font first (a text font's monochrome glyph would win otherwise), the count in the text font. */}
          <span className={styles.emojiGlyph} data-testid="reaction-chip-emoji">
            {g.emoji}
          </span>{' '}
          {g.count}
        </Button>
      ))}
      <span className={styles.reactionDivider} />
      {quick.map((e) => (
        <IconButton key={e} plain className={styles.emoji} onClick={() => onReact(e)} data-testid="quick-reaction" label={`${OWN.react} ${e}`}>
          {e}
        </IconButton>
      ))}
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger className={styles.emoji} aria-label={OWN.moreEmojis} data-testid="open-emoji-picker">
          <SmilePlusIcon size={18} aria-hidden="true" />
        </PopoverTrigger>
        <PopoverContent data-testid="emoji-picker">
          <Tabs defaultValue="all">
            <TabsList aria-label={OWN.moreEmojis}>
              <TabsTrigger value="all">{OWN.all}</TabsTrigger>
              <TabsTrigger value="favourites">{OWN.favourites}</TabsTrigger>
            </TabsList>
            <TabsContent value="all">{grid(EMOJI_PICKER)}</TabsContent>
            <TabsContent value="favourites">{grid(favorites)}</TabsContent>
          </Tabs>
        </PopoverContent>
      </Popover>
    </div>
  );
}
