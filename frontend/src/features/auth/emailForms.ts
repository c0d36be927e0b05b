/**
 * Forms of the e-mail link pages, built from the request schemas of @wb/contracts (the browser
 * checks what the server checks, with the same Russian texts).
 */
import { PasswordResetConfirmRequest, PasswordResetRequest, VALIDATION_TEXTS as T } from '@wb/contracts';
import { z } from 'zod';

export const ForgotPasswordForm = PasswordResetRequest;
export type ForgotPasswordFormValues = z.input<typeof ForgotPasswordForm>;

/** The new password twice; the token comes from the address, not from a field. */
export const ResetPasswordForm = PasswordResetConfirmRequest.pick({ password: true })
  .extend({ confirmPassword: z.string() })
  .superRefine((v, ctx) => {
    if (!v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.confirmRequired });
    else if (v.confirmPassword !== v.password)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.passwordsDiffer });
  });
export type ResetPasswordFormValues = z.input<typeof ResetPasswordForm>;

/** A link's token as the mails carry it (32 random bytes, base64url). */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const EMAIL_PAGE_TEXTS = {
  forgotTitle: 'Восстановление пароля',
  forgotSubtitle: 'Укажите email вашего аккаунта — мы пришлём ссылку для сброса пароля',
  forgotSubmit: 'Отправить ссылку',
  forgotSending: 'Отправка...',
  forgotError: 'Не удалось отправить письмо',
  resetTitle: 'Новый пароль',
  resetSubtitle: 'Придумайте новый пароль для входа',
  resetSubmit: 'Сохранить пароль',
  resetSaving: 'Сохранение...',
  resetError: 'Не удалось изменить пароль',
  linkMissing: 'В ссылке нет кода. Откройте ссылку из письма целиком или запросите новую',
  requestNew: 'Запросить новую ссылку',
  verifyTitle: 'Подтверждение email',
  verifying: 'Подтверждаем email...',
  verifyError: 'Не удалось подтвердить email',
  verifyMissing: 'В ссылке нет кода. Откройте ссылку из письма целиком',
  toSettings: 'Отправить письмо ещё раз можно в настройках',
  rememberedText: 'Вспомнили пароль?',
  signIn: 'Войти',
} as const;
