/**
 * Schemas of the auth forms, built from the request schemas of @wb/contracts so the browser checks
 * exactly what the server checks, with the same Russian texts. Only what the server cannot see is
 * added here: the repeated password, and the current password asked for when the email changes.
 */
import {
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  UpdateProfileRequest,
  VALIDATION_TEXTS as T,
} from '@wb/contracts';
import { z } from 'zod';

export const LoginForm = LoginRequest;
export type LoginFormValues = z.input<typeof LoginForm>;

export const RegisterForm = RegisterRequest.extend({ confirmPassword: z.string() }).superRefine((v, ctx) => {
  if (!v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.confirmRequired });
  else if (v.confirmPassword !== v.password)
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.passwordsDiffer });
});
export type RegisterFormValues = z.input<typeof RegisterForm>;

export const PasswordChangeForm = ChangePasswordRequest.extend({ confirmPassword: z.string() }).superRefine(
  (v, ctx) => {
    if (!v.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.confirmNewRequired });
    else if (v.confirmPassword !== v.newPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: T.passwordsDiffer });
  },
);
export type PasswordChangeFormValues = z.input<typeof PasswordChangeForm>;

export const sameEmail = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The profile form of a user whose stored address is `currentEmail`. */
export function profileForm(currentEmail: string) {
  return UpdateProfileRequest.extend({ email: UpdateProfileRequest.shape.email.unwrap(), currentPassword: z.string() })
    .superRefine((v, ctx) => {
      if (!sameEmail(v.email, currentEmail) && !v.currentPassword)
        ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: T.currentPasswordRequired });
    })
    .transform(({ name, email, currentPassword }) =>
      // The call carries the email (and the password proving the owner) only when the address changes.
      sameEmail(email, currentEmail) ? { name } : { name, email, currentPassword },
    );
}
export type ProfileFormValues = z.input<ReturnType<typeof profileForm>>;
