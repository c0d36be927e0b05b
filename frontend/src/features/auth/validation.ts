/**
 * Password strength of the register form (spec §5). Field validation lives in forms.ts, built
 * from the zod schemas of @wb/contracts.
 */
import { LIMITS } from '@wb/contracts/constants';

export type StrengthLevel = 0 | 1 | 2 | 3 | 4 | 5;

/** One point each: length ≥ 8, a lowercase letter, an uppercase letter, a digit, a symbol. */
export function passwordStrength(password: string): StrengthLevel {
  if (!password) return 0;
  let score = 0;
  if (password.length >= LIMITS.passwordMin) score++;
  if (/\p{Ll}/u.test(password)) score++;
  if (/\p{Lu}/u.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^\p{L}\p{N}\s]/u.test(password)) score++;
  return score as StrengthLevel;
}

export const STRENGTH_TEXTS = {
  weak: 'Слабый пароль',
  medium: 'Средний пароль',
  good: 'Хороший пароль',
  excellent: 'Отличный пароль',
} as const;

export type StrengthKind = keyof typeof STRENGTH_TEXTS;

/** 1-2 weak, 3 medium, 4 good, 5 excellent; null for an empty password (no bar shown). */
export function strengthInfo(score: number): { kind: StrengthKind; label: string } | null {
  if (score <= 0) return null;
  const kind: StrengthKind =
    score <= 2 ? 'weak' : score === 3 ? 'medium' : score === 4 ? 'good' : 'excellent';
  return { kind, label: STRENGTH_TEXTS[kind] };
}

export const PASSWORDS_MATCH_TEXT = 'Пароли совпадают';
