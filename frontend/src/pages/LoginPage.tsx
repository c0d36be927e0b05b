import type { LoginRequest } from '@wb/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { getErrorMessage } from '../api/errors.ts';
import { safeRedirect } from '../app/navigation.ts';
import { useAppDispatch } from '../app/store.ts';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { PasswordField, TextField } from '../components/ui/TextField.tsx';
import { useLoginMutation } from '../features/auth/authApi.ts';
import type { LoginFormValues } from '../features/auth/forms.ts';
import { completeSignIn } from '../features/auth/session.ts';
import { notify } from '../lib/notify.ts';
import { lazyResolver } from '../lib/lazyResolver.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

export const LOGIN_TEXTS = {
  success: 'Добро пожаловать!',
  fallbackError: 'Ошибка входа',
  loading: 'Вход...',
} as const;

// zod and the contract schemas load on the first keystroke in the form (or submit), not with the page
// (the email field is focused on load, so focus would fetch them at once).
const resolver = lazyResolver(() => import('../features/auth/loginResolver.ts').then((m) => m.loginResolver));

export function LoginPage() {
  useDocumentTitle('Вход');
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginFormValues, unknown, LoginRequest>({
    resolver,
    defaultValues: { email: '', password: '' },
  });
  const errors = formState.errors;
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  // Any edit hides the last server answer, as it no longer describes what is typed.
  const field = (name: keyof LoginFormValues) => register(name, { onChange: () => setServerError(null) });

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      const data = await login(values).unwrap();
      completeSignIn(dispatch, data);
      notify.success(LOGIN_TEXTS.success);
      navigate(target, { replace: true });
    } catch (err) {
      const message = getErrorMessage(err, LOGIN_TEXTS.fallbackError);
      setServerError(message);
      notify.error(message);
    }
  });

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
      <form className="form" onSubmit={onSubmit} onInput={resolver.preload} noValidate data-testid="login-form">
        <FormAlert message={serverError} testId="login-server-error" />
        <TextField
          id="email"
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          autoFocus
          {...field('email')}
        />
        <PasswordField
          id="password"
          label="Пароль"
          error={errors.password?.message}
          autoComplete="current-password"
          placeholder="Ваш пароль"
          {...field('password')}
        />
        <p className="form__aside">
          <Link to="/forgot-password" data-testid="forgot-password-link">
            Забыли пароль?
          </Link>
        </p>
        <AuthSubmit loading={isLoading} loadingText={LOGIN_TEXTS.loading} testId="login-submit">
          Войти
        </AuthSubmit>
      </form>
    </AuthLayout>
  );
}
