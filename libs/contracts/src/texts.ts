/**
 * Russian texts of the spec that more than one place needs (server validation and the SPA).
 * Every value here is copied from ../shared/spec; test/spec-texts.test.ts keeps them honest.
 */
export const VALIDATION_TEXTS = {
  emailRequired: 'Email обязателен',
  emailInvalid: 'Некорректный email',
  passwordRequired: 'Пароль обязателен',
  nameRequired: 'Имя обязательно',
  nameTooShort: 'Имя должно содержать минимум 2 символа',
  passwordTooShort: 'Пароль должен содержать минимум 8 символов',
  confirmRequired: 'Подтверждение пароля обязательно',
  passwordsDiffer: 'Пароли не совпадают',
  currentPasswordRequired: 'Текущий пароль обязателен',
  newPasswordRequired: 'Новый пароль обязателен',
  newPasswordTooShort: 'Новый пароль должен содержать минимум 8 символов',
  confirmNewRequired: 'Подтвердите новый пароль',
} as const;

export const LIMITS = {
  passwordMin: 8,
  /** Not in the spec: argon2 accepts far more, and we cap to keep hashing cost bounded. */
  passwordMax: 128,
  nameMin: 2,
  nameMax: 100,
  emailMax: 254,
  tagNameMax: 50,
  defaultFolderColor: '#3B82F6',
} as const;

export const TAG_PALETTE = [
  '#3B82F6', '#EF4444', '#10B981', '#F59E0B', '#8B5CF6', '#EC4899',
  '#06B6D4', '#84CC16', '#F97316', '#6366F1', '#14B8A6', '#A855F7',
] as const;

// A "simple {email} pattern" as the spec asks: something@something.tld, no spaces.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
