/**
 * A reaction is one emoji: one grapheme cluster (Intl.Segmenter, so 👍🏽, 👨‍👩‍👧 and 🇷🇺 count once)
 * that carries a pictograph or a flag. A string of joiners or variation selectors alone, several
 * emoji, NUL or a lone surrogate are not one (issue 32 item 5: 6000 reactions of `\u200d` were kept).
 */
const ALLOWED = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d\ufe0f\u20e3]+$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;

let segmenter: Intl.Segmenter | undefined;

export function isSingleEmoji(s: string): boolean {
  if (s.length === 0 || s.length > 16 || !ALLOWED.test(s)) return false;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of segmenter.segment(s)) if (++n > 1) return false;
  return PICTOGRAPH.test(s) || FLAG.test(s);
}
