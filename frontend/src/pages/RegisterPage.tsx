import { zodResolver } from '@hookform/resolvers/zod';
import type { RegisterRequest } from '@wb/contracts';
import { CheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { getErrorCode, getErrorMessage, getFieldErrors } from '../api/errors.ts';
import { useAppDispatch } from '../app/store.ts';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { PasswordStrength } from '../components/PasswordStrength.tsx';
import { PasswordField, TextField } from '../components/ui/index.ts';
import { useRegisterMutation } from '../features/auth/authApi.ts';
import { RegisterForm, type RegisterFormValues } from '../features/auth/forms.ts';
import { completeSignIn } from '../features/auth/session.ts';
import { PASSWORDS_MATCH_TEXT } from '../features/auth/validation.ts';
import { notify } from '../lib/notify.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

export const REGISTER_TEXTS = {
  success: 'Регистрация успешна!',
  fallbackError: 'Ошибка регистрации',
} as const;

export function RegisterPage() {
  useDocumentTitle('Регистрация');
  const [serverError, setServerError] = useState<string | null>(null);
  const { register: field, handleSubmit, formState, setError, watch } = useForm<
    RegisterFormValues,
    unknown,
    RegisterRequest & { confirmPassword: string }
  >({
    resolver: zodResolver(RegisterForm),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });
  const errors = formState.errors;
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const input = (name: keyof RegisterFormValues) => field(name, { onChange: () => setServerError(null) });

  const onSubmit = handleSubmit(async ({ name, email, password }) => {
    setServerError(null);
    try {
      const data = await register({ name, email, password }).unwrap();
      completeSignIn(dispatch, data);
      notify.success(REGISTER_TEXTS.success);
      navigate('/dashboard', { replace: true });
    } catch (err) {
      const message = getErrorMessage(err, REGISTER_TEXTS.fallbackError);
      const fields = getFieldErrors(err);
      for (const f of ['name', 'email', 'password'] as const)
        if (fields[f]) setError(f, { type: 'server', message: fields[f] });
      if (getErrorCode(err) === 'EMAIL_ALREADY_EXISTS') setError('email', { type: 'server', message });
      setServerError(message);
      notify.error(message);
    }
  });

  const password = watch('password');
  const confirm = watch('confirmPassword');
  const matches = confirm.length > 0 && confirm === password;

  return (
    <AuthLayout
      title="Создать аккаунт"
      subtitle="Начните работать с командой за минуту"
      footer={{ text: 'Уже есть аккаунт?', to: '/login', label: 'Войти', testId: 'login-link' }}
    >
      <form className="form" onSubmit={onSubmit} noValidate data-testid="register-form">
        <FormAlert message={serverError} testId="register-server-error" />
        <TextField
          id="name"
          label="Имя"
          error={errors.name?.message}
          autoComplete="name"
          placeholder="Как к вам обращаться"
          autoFocus
          {...input('name')}
        />
        <TextField
          id="email"
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          {...input('email')}
        />
        <PasswordField
          id="password"
          label="Пароль"
          error={errors.password?.message}
          hint={<PasswordStrength password={password} />}
          autoComplete="new-password"
          placeholder="Минимум 8 символов"
          {...input('password')}
        />
        <PasswordField
          id="confirmPassword"
          label="Подтверждение пароля"
          error={errors.confirmPassword?.message}
          hint={
            matches && !errors.confirmPassword ? (
              <p className="field__ok" data-testid="passwords-match">
                <CheckIcon size={14} aria-hidden="true" /> {PASSWORDS_MATCH_TEXT}
              </p>
            ) : null
          }
          autoComplete="new-password"
          placeholder="Повторите пароль"
          {...input('confirmPassword')}
        />
        <AuthSubmit loading={isLoading} loadingText="Регистрация..." testId="register-submit">
          Зарегистрироваться
        </AuthSubmit>
        <p className="form__terms" data-testid="terms-notice">
          Регистрируясь, вы соглашаетесь с условиями использования сервиса и политикой конфиденциальности.
        </p>
      </form>
    </AuthLayout>
  );
}
