import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { getErrorCode, getErrorMessage, getFieldErrors } from '../api/errors.ts';
import { useAppDispatch } from '../app/store.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { FormField } from '../components/FormField.tsx';
import { Spinner } from '../components/FullScreenLoader.tsx';
import { ArrowLeftIcon, CheckIcon } from 'lucide-react';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { PasswordStrength } from '../components/PasswordStrength.tsx';
import { useRegisterMutation } from '../features/auth/authApi.ts';
import { completeSignIn } from '../features/auth/session.ts';
import {
  PASSWORDS_MATCH_TEXT,
  validateRegister,
  type FieldErrors,
  type RegisterValues,
} from '../features/auth/validation.ts';
import { notify } from '../lib/notify.ts';

export const REGISTER_TEXTS = {
  success: 'Регистрация успешна!',
  fallbackError: 'Ошибка регистрации',
} as const;

type Field = keyof RegisterValues;

export function RegisterPage() {
  useDocumentTitle('Регистрация');
  const [values, setValues] = useState<RegisterValues>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const set = (field: Field) => (e: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
    if (serverError) setServerError(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateRegister(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setServerError(null);
    try {
      const data = await register({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
      }).unwrap();
      completeSignIn(dispatch, data);
      notify.success(REGISTER_TEXTS.success);
      navigate('/dashboard', { replace: true });
    } catch (err) {
      const message = getErrorMessage(err, REGISTER_TEXTS.fallbackError);
      const fields = getFieldErrors(err);
      const next: FieldErrors<Field> = {};
      for (const f of ['name', 'email', 'password'] as const) if (fields[f]) next[f] = fields[f];
      if (getErrorCode(err) === 'EMAIL_ALREADY_EXISTS') next.email = message;
      setErrors(next);
      setServerError(message);
      notify.error(message);
    }
  };

  const matches = values.confirmPassword.length > 0 && values.confirmPassword === values.password;

  return (
    <AuthLayout
      title="Создать аккаунт"
      subtitle="Начните работать с командой за минуту"
      back={
        <Link to="/" className="auth__back" data-testid="home-link">
          <ArrowLeftIcon size={16} /> На главную
        </Link>
      }
      footer={
        <>
          Уже есть аккаунт?{' '}
          <Link to="/login" data-testid="login-link">
            Войти
          </Link>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate data-testid="register-form">
        {serverError ? (
          <div className="alert alert--error" role="alert" data-testid="register-server-error">
            {serverError}
          </div>
        ) : null}
        <FormField id="name" label="Имя" error={errors.name}>
          <input
            id="name"
            name="name"
            className="input"
            autoComplete="name"
            placeholder="Как к вам обращаться"
            value={values.name}
            onChange={set('name')}
            aria-invalid={!!errors.name || undefined}
            autoFocus
          />
        </FormField>
        <FormField id="email" label="Email" error={errors.email}>
          <input
            id="email"
            name="email"
            type="email"
            className="input"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            value={values.email}
            onChange={set('email')}
            aria-invalid={!!errors.email || undefined}
          />
        </FormField>
        <FormField
          id="password"
          label="Пароль"
          error={errors.password}
          hint={<PasswordStrength password={values.password} />}
        >
          <PasswordInput
            id="password"
            name="password"
            autoComplete="new-password"
            placeholder="Минимум 8 символов"
            value={values.password}
            onChange={set('password')}
            invalid={!!errors.password}
          />
        </FormField>
        <FormField
          id="confirmPassword"
          label="Подтверждение пароля"
          error={errors.confirmPassword}
          hint={
            matches && !errors.confirmPassword ? (
              <p className="field__ok" data-testid="passwords-match">
                <CheckIcon size={14} /> {PASSWORDS_MATCH_TEXT}
              </p>
            ) : null
          }
        >
          <PasswordInput
            id="confirmPassword"
            name="confirmPassword"
            autoComplete="new-password"
            placeholder="Повторите пароль"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            invalid={!!errors.confirmPassword}
          />
        </FormField>
        <button
          type="submit"
          className="btn btn--primary btn--block btn--lg"
          disabled={isLoading}
          data-testid="register-submit"
        >
          {isLoading ? (
            <>
              <Spinner size="sm" /> Регистрация...
            </>
          ) : (
            'Зарегистрироваться'
          )}
        </button>
        <p className="form__terms" data-testid="terms-notice">
          Регистрируясь, вы соглашаетесь с условиями использования сервиса и политикой конфиденциальности.
        </p>
      </form>
    </AuthLayout>
  );
}
