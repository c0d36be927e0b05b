import { z } from 'zod';
import { EMAIL_PATTERN, LIMITS, VALIDATION_TEXTS as T } from './texts.ts';

const requiredString = (requiredMsg: string) =>
  z.string({ error: requiredMsg }).refine((v) => v.length > 0, { message: requiredMsg });

export const emailField = requiredString(T.emailRequired)
  .transform((v) => v.trim())
  .refine((v) => v.length > 0, { message: T.emailRequired })
  .refine((v) => v.length <= LIMITS.emailMax && EMAIL_PATTERN.test(v), { message: T.emailInvalid });

export const nameField = requiredString(T.nameRequired)
  .transform((v) => v.trim())
  .refine((v) => v.length > 0, { message: T.nameRequired })
  .refine((v) => v.length >= LIMITS.nameMin, { message: T.nameTooShort })
  .refine((v) => v.length <= LIMITS.nameMax, { message: `Имя должно содержать не более ${LIMITS.nameMax} символов` });

const newPassword = (requiredMsg: string, shortMsg: string) =>
  requiredString(requiredMsg)
    .refine((v) => v.length >= LIMITS.passwordMin, { message: shortMsg })
    .refine((v) => v.length <= LIMITS.passwordMax, {
      message: `Пароль должен содержать не более ${LIMITS.passwordMax} символов`,
    });

export const RegisterRequest = z.object({
  email: emailField,
  password: newPassword(T.passwordRequired, T.passwordTooShort),
  name: nameField,
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z.object({
  email: emailField,
  // Login never tells whether a password is too short: any non-empty string is checked against the hash.
  password: requiredString(T.passwordRequired).refine((v) => v.length <= 1024, { message: T.passwordRequired }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const RefreshRequest = z.object({ refreshToken: z.string().min(1).max(512) });
export const LogoutRequest = z.object({ refreshToken: z.string().min(1).max(512).optional() });

const currentPasswordField = requiredString(T.currentPasswordRequired).refine((v) => v.length <= 1024, {
  message: T.currentPasswordRequired,
});

/** `currentPassword` is required when `email` changes (checked by auth against the stored address). */
export const UpdateProfileRequest = z.object({ name: nameField, email: emailField.optional(), currentPassword: currentPasswordField.optional() });
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;
/** Whoever holds a session must not take the account over by moving its address: the password proves the owner. */
export const ChangeEmailRequest = z.object({ email: emailField, currentPassword: currentPasswordField });
export const ChangePasswordRequest = z.object({
  currentPassword: currentPasswordField,
  newPassword: newPassword(T.newPasswordRequired, T.newPasswordTooShort),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
/** Deleting one's own account (issue 32 item 13): the password proves the owner, as for a new address. */
export const DeleteAccountRequest = z.object({ password: currentPasswordField });
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequest>;

/** Personal settings: a small free-form JSON object (the spec does not show its content). */
export const UpdateSettingsRequest = z.object({
  settings: z.record(z.string().max(64), z.unknown()).refine((v) => JSON.stringify(v).length <= 16_384, {
    message: 'Настройки слишком большие',
  }),
});

export const FavoriteEmojisRequest = z.object({
  favorites: z.array(z.string().min(1).max(32)).max(64),
});

export const PublicUser = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  plan_name: z.string().nullable(),
  boards_count: z.number().int(),
  created_at: z.string(),
  settings: z.record(z.string(), z.unknown()),
  /** Whether the owner opened the verification link sent to the current address (item 11 of issue 32). */
  emailVerified: z.boolean(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** POST /api/auth/register and /login. */
export const AuthAnswer = z.object({ user: PublicUser, accessToken: z.string(), refreshToken: z.string() });
export type AuthAnswer = z.infer<typeof AuthAnswer>;
/** POST /api/auth/refresh: a new pair, no user (the SPA keeps the one it has). */
export const RefreshAnswer = AuthAnswer.omit({ user: true });
export type RefreshAnswer = z.infer<typeof RefreshAnswer>;
/** GET /api/auth/verify and /profile, and every profile or settings change. */
export const UserAnswer = z.object({ user: PublicUser });
export type UserAnswer = z.infer<typeof UserAnswer>;

/** Claims of an access token, as every service sees them after verification. */
export const AccessClaims = z.object({
  sub: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  admin: z.boolean(),
  /** The session (refresh-token family) the token belongs to: checked against the revoked sessions. */
  sid: z.string().optional(),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

export const ACCESS_TOKEN_AUDIENCE = 'whiteboard';
export const ACCESS_TOKEN_ISSUER = 'whiteboard-auth';
export const ACCESS_TOKEN_ALG = 'ES256';

// ---- Password reset and e-mail verification (links sent by e-mail; services/auth/src/routes/email.ts)

/** The random part of an e-mail link: 32 bytes, base64url (43 characters). */
const emailLinkToken = (invalid: string) =>
  z.string({ error: invalid }).regex(/^[A-Za-z0-9_-]{43}$/, { message: invalid });

/** POST /api/auth/password-reset/request: the answer is the same whether the address is known or not. */
export const PasswordResetRequest = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

/** POST /api/auth/password-reset/confirm: the new password follows the registration rules. */
export const PasswordResetConfirmRequest = z.object({
  token: emailLinkToken('Ссылка для сброса пароля недействительна. Запросите новую'),
  password: newPassword(T.passwordRequired, T.passwordTooShort),
});
export type PasswordResetConfirmRequest = z.infer<typeof PasswordResetConfirmRequest>;

/** POST /api/auth/verify-email. */
export const VerifyEmailRequest = z.object({ token: emailLinkToken('Ссылка для подтверждения email недействительна') });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;

/** The answer of the e-mail calls that change nothing the client shows: a Russian sentence for the page. */
export const MessageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswer>;

/** Texts of the e-mail calls that the SPA shows as well (ours: docs/decisions.md). */
export const EMAIL_FLOW_TEXTS = {
  resetRequested: 'Если этот адрес зарегистрирован, мы отправили на него письмо со ссылкой для сброса пароля. Ссылка действует 1 час.',
  passwordReset: 'Пароль изменён. Войдите с новым паролем',
  emailVerified: 'Email подтверждён',
  verificationSent: 'Письмо для подтверждения отправлено',
} as const;
