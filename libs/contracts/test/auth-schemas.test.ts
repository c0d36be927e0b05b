import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ChangePasswordRequest,
  LIMITS,
  LoginRequest,
  RegisterRequest,
  UpdateProfileRequest,
  VALIDATION_TEXTS as T,
} from '../src/index.ts';

/** The messages zod reports, by field (first message per field, as the service kit shows them). */
function errorsOf(schema: z.ZodType, data: unknown): Record<string, string> {
  const r = schema.safeParse(data);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

const good = { email: 'anna@example.com', password: 'secret123', name: 'Анна' };

describe('RegisterRequest', () => {
  it('accepts a valid registration and trims name and email', () => {
    const r = RegisterRequest.parse({ ...good, email: '  anna@example.com ', name: '  Анна  ' });
    expect(r).toEqual({ email: 'anna@example.com', password: 'secret123', name: 'Анна' });
  });

  it.each([
    ['missing email', { ...good, email: undefined }, 'email', T.emailRequired],
    ['empty email', { ...good, email: '' }, 'email', T.emailRequired],
    ['blank email', { ...good, email: '   ' }, 'email', T.emailRequired],
    ['email without @', { ...good, email: 'anna.example.com' }, 'email', T.emailInvalid],
    ['email without domain dot', { ...good, email: 'anna@example' }, 'email', T.emailInvalid],
    ['email with a space', { ...good, email: 'an na@example.com' }, 'email', T.emailInvalid],
    ['email too long', { ...good, email: `${'a'.repeat(250)}@example.com` }, 'email', T.emailInvalid],
    ['email not a string', { ...good, email: 42 }, 'email', T.emailRequired],
    ['missing password', { ...good, password: undefined }, 'password', T.passwordRequired],
    ['empty password', { ...good, password: '' }, 'password', T.passwordRequired],
    ['short password', { ...good, password: '1234567' }, 'password', T.passwordTooShort],
    ['missing name', { ...good, name: undefined }, 'name', T.nameRequired],
    ['blank name', { ...good, name: '   ' }, 'name', T.nameRequired],
    ['one-letter name after trim', { ...good, name: ' А ' }, 'name', T.nameTooShort],
  ])('%s → Russian message on the field', (_label, data, field, message) => {
    expect(errorsOf(RegisterRequest, data)[field]).toBe(message);
  });

  it('passwords of exactly the minimum length pass, over the maximum fail in Russian', () => {
    expect(RegisterRequest.safeParse({ ...good, password: 'x'.repeat(LIMITS.passwordMin) }).success).toBe(
      true,
    );
    const msg = errorsOf(RegisterRequest, { ...good, password: 'x'.repeat(LIMITS.passwordMax + 1) }).password;
    expect(msg).toMatch(/[а-яё]/i);
  });

  it('names over the maximum fail in Russian', () => {
    expect(errorsOf(RegisterRequest, { ...good, name: 'я'.repeat(LIMITS.nameMax + 1) }).name).toMatch(
      /[а-яё]/i,
    );
    expect(RegisterRequest.safeParse({ ...good, name: 'я'.repeat(LIMITS.nameMax) }).success).toBe(true);
  });

  it('a body that is not an object is rejected', () => {
    expect(RegisterRequest.safeParse('nope').success).toBe(false);
    expect(RegisterRequest.safeParse(null).success).toBe(false);
  });
});

describe('LoginRequest', () => {
  it('never says a password is too short: any non-empty password is checked against the hash', () => {
    expect(LoginRequest.safeParse({ email: good.email, password: '1' }).success).toBe(true);
  });

  it('requires both fields with the spec texts', () => {
    expect(errorsOf(LoginRequest, {})).toEqual({ email: T.emailRequired, password: T.passwordRequired });
    expect(errorsOf(LoginRequest, { email: 'bad', password: 'x' }).email).toBe(T.emailInvalid);
  });
});

describe('profile and password changes', () => {
  it('UpdateProfileRequest: name required, email optional but validated', () => {
    expect(UpdateProfileRequest.parse({ name: 'Борис' })).toEqual({ name: 'Борис' });
    expect(errorsOf(UpdateProfileRequest, { name: '' }).name).toBe(T.nameRequired);
    expect(errorsOf(UpdateProfileRequest, { name: 'Борис', email: 'x' }).email).toBe(T.emailInvalid);
  });

  it('ChangePasswordRequest uses the "current" and "new" texts', () => {
    expect(errorsOf(ChangePasswordRequest, {})).toEqual({
      currentPassword: T.currentPasswordRequired,
      newPassword: T.newPasswordRequired,
    });
    expect(
      errorsOf(ChangePasswordRequest, { currentPassword: 'old', newPassword: 'short' }).newPassword,
    ).toBe(T.newPasswordTooShort);
    expect(
      ChangePasswordRequest.safeParse({ currentPassword: 'old', newPassword: 'long enough' }).success,
    ).toBe(true);
  });
});
