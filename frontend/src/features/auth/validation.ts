/**
 * Client-side validation of the auth forms (spec §5) and the password strength score.
 * Pure functions: each returns a map field → message, empty when the form is valid.
 */
import { EMAIL_PATTERN, LIMITS, VALIDATION_TEXTS as T } from '@wb/contracts';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export interface LoginValues {
  email: string;
  password: string;
}
export interface RegisterValues {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}
export interface ProfileValues {
  name: string;
  email: string;
}
export interface PasswordChangeValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function validateEmail(email: string): string | undefined {
  const v = email.trim();
  if (!v) return T.emailRequired;
  if (!EMAIL_PATTERN.test(v)) return T.emailInvalid;
  return undefined;
}

export function validateName(name: string): string | undefined {
  const v = name.trim();
  if (!v) return T.nameRequired;
  if (v.length < LIMITS.nameMin) return T.nameTooShort;
  return undefined;
}

function compact<K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const [k, v] of Object.entries(errors) as [K, string | undefined][]) if (v) out[k] = v;
  return out;
}

export function validateLogin(v: LoginValues): FieldErrors<keyof LoginValues> {
  return compact({
    email: validateEmail(v.email),
    password: v.password ? undefined : T.passwordRequired,
  });
}

export function validateRegister(v: RegisterValues): FieldErrors<keyof RegisterValues> {
  let password: string | undefined;
  if (!v.password) password = T.passwordRequired;
  else if (v.password.length < LIMITS.passwordMin) password = T.passwordTooShort;
  let confirmPassword: string | undefined;
  if (!v.confirmPassword) confirmPassword = T.confirmRequired;
  else if (v.confirmPassword !== v.password) confirmPassword = T.passwordsDiffer;
  return compact({
    name: validateName(v.name),
    email: validateEmail(v.email),
    password,
    confirmPassword,
  });
}

export function validateProfile(v: ProfileValues): FieldErrors<keyof ProfileValues> {
  return compact({ name: validateName(v.name), email: validateEmail(v.email) });
}

export function validatePasswordChange(v: PasswordChangeValues): FieldErrors<keyof PasswordChangeValues> {
  let newPassword: string | undefined;
  if (!v.newPassword) newPassword = T.newPasswordRequired;
  else if (v.newPassword.length < LIMITS.passwordMin) newPassword = T.newPasswordTooShort;
  let confirmPassword: string | undefined;
  if (!v.confirmPassword) confirmPassword = T.confirmNewRequired;
  else if (v.confirmPassword !== v.newPassword) confirmPassword = T.passwordsDiffer;
  return compact({
    currentPassword: v.currentPassword ? undefined : T.currentPasswordRequired,
    newPassword,
    confirmPassword,
  });
}

/** The profile call sends the email only when it changed (compared trimmed, case-insensitively). */
export function profilePayload(v: ProfileValues, currentEmail: string): { name: string; email?: string } {
  const name = v.name.trim();
  const email = v.email.trim();
  return email.toLowerCase() === currentEmail.trim().toLowerCase() ? { name } : { name, email };
}

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
