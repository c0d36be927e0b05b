import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { getErrorMessage } from '../api/errors.ts';
import { safeRedirect } from '../app/navigation.ts';
import { useAppDispatch } from '../app/store.ts';
import { FormAlert, PasswordField, TextField } from '../components/FormField.tsx';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { useLoginMutation } from '../features/auth/authApi.ts';
import { completeSignIn } from '../features/auth/session.ts';
import { validateLogin, type LoginValues } from '../features/auth/validation.ts';
import { notify } from '../lib/notify.ts';
import { useFormValues } from '../lib/useFormValues.ts';

export const LOGIN_TEXTS = {
  success: 'Добро пожаловать!',
  fallbackError: 'Ошибка входа',
  loading: 'Вход...',
} as const;

export function LoginPage() {
  useDocumentTitle('Вход');
  const [serverError, setServerError] = useState<string | null>(null);
  const { values, errors, setErrors, set } = useFormValues<LoginValues>({ email: '', password: '' }, () =>
    setServerError(null),
  );
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));

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
      footer={{
        text: 'Нет аккаунта?',
        to: '/register',
        label: 'Зарегистрироваться',
        testId: 'register-link',
      }}
    >
      <form className="form" onSubmit={onSubmit} noValidate data-testid="login-form">
        <FormAlert message={serverError} testId="login-server-error" />
        <TextField
          id="email"
          label="Email"
          error={errors.email}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          value={values.email}
          onChange={set('email')}
          autoFocus
        />
        <PasswordField
          id="password"
          label="Пароль"
          error={errors.password}
          name="password"
          autoComplete="current-password"
          placeholder="Ваш пароль"
          value={values.password}
          onChange={set('password')}
        />
        <AuthSubmit loading={isLoading} loadingText={LOGIN_TEXTS.loading} testId="login-submit">
          Войти
        </AuthSubmit>
      </form>
    </AuthLayout>
  );
}
