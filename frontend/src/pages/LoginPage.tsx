import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { getErrorMessage } from '../api/errors.ts';
import { safeRedirect } from '../app/navigation.ts';
import { useAppDispatch } from '../app/store.ts';
import { FormField } from '../components/FormField.tsx';
import { ArrowLeftIcon } from 'lucide-react';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { Spinner } from '../components/FullScreenLoader.tsx';
import { useLoginMutation } from '../features/auth/authApi.ts';
import { completeSignIn } from '../features/auth/session.ts';
import { validateLogin, type FieldErrors, type LoginValues } from '../features/auth/validation.ts';
import { notify } from '../lib/notify.ts';

export const LOGIN_TEXTS = {
  success: 'Добро пожаловать!',
  fallbackError: 'Ошибка входа',
  loading: 'Вход...',
} as const;

export function LoginPage() {
  useDocumentTitle('Вход');
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof LoginValues>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));

  const set = (field: keyof LoginValues) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
    if (serverError) setServerError(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateLogin(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setServerError(null);
    try {
      const data = await login({ email: values.email.trim(), password: values.password }).unwrap();
      completeSignIn(dispatch, data);
      notify.success(LOGIN_TEXTS.success);
      navigate(target, { replace: true });
    } catch (err) {
      const message = getErrorMessage(err, LOGIN_TEXTS.fallbackError);
      setServerError(message);
      notify.error(message);
    }
  };

  return (
    <AuthLayout
      title="Вход в аккаунт"
      subtitle="Рады видеть вас снова"
      back={
        <Link to="/" className="auth__back" data-testid="home-link">
          <ArrowLeftIcon size={16} /> На главную
        </Link>
      }
      footer={
        <>
          Нет аккаунта?{' '}
          <Link to="/register" data-testid="register-link">
            Зарегистрироваться
          </Link>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate data-testid="login-form">
        {serverError ? (
          <div className="alert alert--error" role="alert" data-testid="login-server-error">
            {serverError}
          </div>
        ) : null}
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
            autoFocus
          />
        </FormField>
        <FormField id="password" label="Пароль" error={errors.password}>
          <PasswordInput
            id="password"
            name="password"
            autoComplete="current-password"
            placeholder="Ваш пароль"
            value={values.password}
            onChange={set('password')}
            invalid={!!errors.password}
          />
        </FormField>
        <button
          type="submit"
          className="btn btn--primary btn--block btn--lg"
          disabled={isLoading}
          data-testid="login-submit"
        >
          {isLoading ? (
            <>
              <Spinner size="sm" /> {LOGIN_TEXTS.loading}
            </>
          ) : (
            'Войти'
          )}
        </button>
      </form>
    </AuthLayout>
  );
}
