import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { getErrorCode, getErrorMessage, getFieldErrors } from '../api/errors.ts';
import { useAppDispatch } from '../app/store.ts';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { FormAlert, PasswordField, TextField } from '../components/FormField.tsx';
import { CheckIcon } from 'lucide-react';
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
import { useFormValues } from '../lib/useFormValues.ts';

export const REGISTER_TEXTS = {
  success: 'Регистрация успешна!',
  fallbackError: 'Ошибка регистрации',
} as const;

type Field = keyof RegisterValues;

export function RegisterPage() {
  useDocumentTitle('Регистрация');
  const [serverError, setServerError] = useState<string | null>(null);
  const { values, errors, setErrors, set } = useFormValues<RegisterValues>(
    { name: '', email: '', password: '', confirmPassword: '' },
    () => setServerError(null),
  );
  const [register, { isLoading }] = useRegisterMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

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
      footer={{ text: 'Уже есть аккаунт?', to: '/login', label: 'Войти', testId: 'login-link' }}
    >
      <form className="form" onSubmit={onSubmit} noValidate data-testid="register-form">
        <FormAlert message={serverError} testId="register-server-error" />
        <TextField
          id="name"
          label="Имя"
          error={errors.name}
          name="name"
          autoComplete="name"
          placeholder="Как к вам обращаться"
          value={values.name}
          onChange={set('name')}
          autoFocus
        />
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
        />
        <PasswordField
          id="password"
          label="Пароль"
          error={errors.password}
          hint={<PasswordStrength password={values.password} />}
          name="password"
          autoComplete="new-password"
          placeholder="Минимум 8 символов"
          value={values.password}
          onChange={set('password')}
        />
        <PasswordField
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
          name="confirmPassword"
          autoComplete="new-password"
          placeholder="Повторите пароль"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
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
