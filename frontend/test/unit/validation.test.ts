import { describe, expect, it } from 'vitest';
import {
  PASSWORDS_MATCH_TEXT,
  passwordStrength,
  profilePayload,
  strengthInfo,
  validateLogin,
  validatePasswordChange,
  validateProfile,
  validateRegister,
} from '../../src/features/auth/validation.ts';

describe('validateLogin', () => {
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
  });
});

describe('validateRegister', () => {
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

describe('validateProfile / profilePayload', () => {
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
  it('sends the email only when it changed', () => {
    expect(profilePayload({ name: ' Anna ', email: 'anna@example.com' }, 'anna@example.com')).toEqual({
      name: 'Anna',
    });
    expect(profilePayload({ name: 'Anna', email: ' ANNA@example.com ' }, 'anna@example.com')).toEqual({
      name: 'Anna',
    });
    expect(profilePayload({ name: 'Anna', email: 'anna2@example.com' }, 'anna@example.com')).toEqual({
      name: 'Anna',
      email: 'anna2@example.com',
    });
  });
});

describe('validatePasswordChange', () => {
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
