import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMOJIS,
  EMOJI_PICKER,
  KANBAN_COLORS,
  PARTICIPANT_COLORS,
  STICKER_STATUS_COLORS,
  STICKY_COLORS,
  TEXT_COLORS,
  HOTKEY_COLORS,
  favoriteEmojisSchema,
  highlighterWidth,
  pluralParticipants,
  reconnectDelay,
} from '../src/index.ts';

describe('constants', () => {
  it('palettes have the sizes of §9 and no duplicates', () => {
    for (const [list, n] of [
      [STICKY_COLORS, 10],
      [TEXT_COLORS, 10],
      [STICKER_STATUS_COLORS, 10],
      [PARTICIPANT_COLORS, 10],
      [KANBAN_COLORS, 18],
      [HOTKEY_COLORS, 8],
      [EMOJI_PICKER, 32],
    ] as const) {
      expect(list).toHaveLength(n);
      expect(new Set(list).size).toBe(n);
    }
    expect(STICKY_COLORS[0]).toBe('#FFF2B3');
  });

  it('default emojis lead the picker and are valid reactions', () => {
    expect(DEFAULT_EMOJIS).toEqual(['👍', '❤️', '😊', '🔥', '👏', '💯']);
    expect(EMOJI_PICKER.slice(0, 6)).toEqual(DEFAULT_EMOJIS);
    expect(favoriteEmojisSchema.safeParse([...EMOJI_PICKER]).success).toBe(true);
    expect(favoriteEmojisSchema.safeParse(['abc']).success).toBe(false);
  });

  it('plural of участник follows §9 literally', () => {
    expect(pluralParticipants(1)).toBe('участник');
    expect([2, 3, 4].map(pluralParticipants)).toEqual(['участника', 'участника', 'участника']);
    expect([5, 11, 21, 0].map(pluralParticipants)).toEqual([
      'участников',
      'участников',
      'участников',
      'участников',
    ]);
  });

  it('highlighter width and reconnect back-off', () => {
    expect(highlighterWidth(1)).toBe(8);
    expect(highlighterWidth(4)).toBe(16);
    expect([0, 1, 2].map(reconnectDelay)).toEqual([1000, 1500, 2250]);
    expect(reconnectDelay(20)).toBe(30000);
  });
});
