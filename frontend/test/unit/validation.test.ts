import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LoginForm, PasswordChangeForm, profileForm, RegisterForm } from '../../src/features/auth/forms.ts';
import { PASSWORDS_MATCH_TEXT, passwordStrength, strengthInfo } from '../../src/features/auth/validation.ts';

/** The first message per field, as react-hook-form shows them (criteriaMode 'firstError'). */
function errorsOf(schema: z.ZodType, values: unknown): Record<string, string> {
  const r = schema.safeParse(values);
  const out: Record<string, string> = {};
  if (!r.success) for (const i of r.error.issues) out[String(i.path[0])] ??= i.message;
  return out;
}

const validateLogin = (v: unknown) => errorsOf(LoginForm, v);
const validateRegister = (v: unknown) => errorsOf(RegisterForm, v);
const validatePasswordChange = (v: unknown) => errorsOf(PasswordChangeForm, v);
const validateProfile = (v: { name: string; email: string }) =>
  errorsOf(profileForm('someone-else@example.com'), { ...v, currentPassword: 'x' });
const profilePayload = (v: { name: string; email: string }, currentEmail: string) =>
  profileForm(currentEmail).parse({ ...v, currentPassword: 'pw' });

describe('login form (the contract\'s LoginRequest)', () => {
  it('requires the email and the password', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Email обязателен',
      password: 'Пароль обязателен',
    });
  });
  it('treats a blank email as missing', () => {
    expect(validateLogin({ email: '   ', password: 'x' }).email).toBe('Email обязателен');
  });
  it.each(['plain', 'a@b', 'a b@c.ru', '@c.ru', 'a@.ru'])('rejects %s', (email) => {
    expect(validateLogin({ email, password: 'x' }).email).toBe('Некорректный email');
  });
  it('accepts a simple address with surrounding spaces and any non-empty password', () => {
    expect(validateLogin({ email: ' ivan@example.com ', password: '1' })).toEqual({});
    expect(LoginForm.parse({ email: ' ivan@example.com ', password: '1' }).email).toBe('ivan@example.com');
  });
});

describe('register form', () => {
  const ok = {
    name: 'Иван',
    email: 'ivan@example.com',
    password: 'Secret123!',
    confirmPassword: 'Secret123!',
  };
  it('passes a valid form', () => {
    expect(validateRegister(ok)).toEqual({});
  });
  it('requires every field', () => {
    expect(validateRegister({ name: '', email: '', password: '', confirmPassword: '' })).toEqual({
      name: 'Имя обязательно',
      email: 'Email обязателен',
      password: 'Пароль обязателен',
      confirmPassword: 'Подтверждение пароля обязательно',
    });
  });
  it('needs a trimmed name of at least 2 characters', () => {
    expect(validateRegister({ ...ok, name: ' И ' }).name).toBe('Имя должно содержать минимум 2 символа');
    expect(validateRegister({ ...ok, name: '   ' }).name).toBe('Имя обязательно');
    expect(validateRegister({ ...ok, name: 'Ян' }).name).toBeUndefined();
  });
  it('needs 8 characters of password', () => {
    expect(validateRegister({ ...ok, password: 'Ab1!xyz', confirmPassword: 'Ab1!xyz' }).password).toBe(
      'Пароль должен содержать минимум 8 символов',
    );
    expect(
      validateRegister({ ...ok, password: 'abcdefgh', confirmPassword: 'abcdefgh' }).password,
    ).toBeUndefined();
  });
  it('needs the confirmation to equal the password', () => {
    expect(validateRegister({ ...ok, confirmPassword: 'Secret123?' }).confirmPassword).toBe(
      'Пароли не совпадают',
    );
  });
  it('validates the email like login', () => {
    expect(validateRegister({ ...ok, email: 'nope' }).email).toBe('Некорректный email');
  });
});

describe('profile form', () => {
  it('requires a name of 2+ characters and a valid email', () => {
    expect(validateProfile({ name: '', email: '' })).toEqual({
      name: 'Имя обязательно',
      email: 'Email обязателен',
    });
    expect(validateProfile({ name: 'A', email: 'x@' })).toEqual({
      name: 'Имя должно содержать минимум 2 символа',
      email: 'Некорректный email',
    });
    expect(validateProfile({ name: 'Anna', email: 'anna@example.com' })).toEqual({});
  });
  it('sends the email, with the current password, only when it changed', () => {
    expect(profilePayload({ name: ' Anna ', email: 'anna@example.com' }, 'anna@example.com')).toEqual({
      name: 'Anna',
    });
    expect(profilePayload({ name: 'Anna', email: ' ANNA@example.com ' }, 'anna@example.com')).toEqual({
      name: 'Anna',
    });
    expect(profilePayload({ name: 'Anna', email: 'anna2@example.com' }, 'anna@example.com')).toEqual({
      name: 'Anna',
      email: 'anna2@example.com',
      currentPassword: 'pw',
    });
  });
  it('asks for the current password when the email changes', () => {
    const form = profileForm('anna@example.com');
    expect(errorsOf(form, { name: 'Anna', email: 'new@example.com', currentPassword: '' })).toEqual({
      currentPassword: 'Текущий пароль обязателен',
    });
    expect(errorsOf(form, { name: 'Anna', email: 'anna@example.com', currentPassword: '' })).toEqual({});
  });
});

describe('password change form', () => {
  it('requires every field', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: '', confirmPassword: '' })).toEqual({
      currentPassword: 'Текущий пароль обязателен',
      newPassword: 'Новый пароль обязателен',
      confirmPassword: 'Подтвердите новый пароль',
    });
  });
  it('needs 8 characters and a matching confirmation', () => {
    expect(
      validatePasswordChange({ currentPassword: 'x', newPassword: 'short', confirmPassword: 'short' }),
    ).toEqual({
      newPassword: 'Новый пароль должен содержать минимум 8 символов',
    });
    expect(
      validatePasswordChange({
        currentPassword: 'x',
        newPassword: 'longenough',
        confirmPassword: 'longenougH',
      }),
    ).toEqual({ confirmPassword: 'Пароли не совпадают' });
    expect(
      validatePasswordChange({
        currentPassword: 'x',
        newPassword: 'longenough',
        confirmPassword: 'longenough',
      }),
    ).toEqual({});
  });
});

describe('password strength', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['A', 1],
    ['1', 1],
    ['!', 1],
    ['abcdefgh', 2],
    ['aB', 2],
    ['abcdefG1', 4],
    ['abcdeFG!', 4],
    ['aB1', 3],
    ['aB1!', 4],
    ['Abcdefg1!', 5],
    ['пароль', 1],
    ['ПарольДлинный', 3],
    ['Пароль12!', 5],
  ] as const)('%j scores %i', (pw, score) => {
    expect(passwordStrength(pw)).toBe(score);
  });

  it('maps scores to the spec texts', () => {
    expect(strengthInfo(0)).toBeNull();
    expect(strengthInfo(1)?.label).toBe('Слабый пароль');
    expect(strengthInfo(2)?.label).toBe('Слабый пароль');
    expect(strengthInfo(3)?.label).toBe('Средний пароль');
    expect(strengthInfo(4)?.label).toBe('Хороший пароль');
    expect(strengthInfo(5)?.label).toBe('Отличный пароль');
    expect(PASSWORDS_MATCH_TEXT).toBe('Пароли совпадают');
  });
});
