import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useEffect, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { getErrorCode, getErrorMessage } from '../api/errors.ts';
import { useAppSelector } from '../app/store.ts';
import { AppHeader } from '../components/AppHeader.tsx';
import { PasswordField, TextField } from '../components/FormField.tsx';
import { Spinner } from '../components/FullScreenLoader.tsx';
import { ArrowLeftIcon, CheckIcon } from 'lucide-react';
import { selectUser } from '../features/auth/authSlice.ts';
import { useChangePasswordMutation, useUpdateProfileMutation } from '../features/auth/authApi.ts';
import type { User } from '../features/auth/types.ts';
import {
  profilePayload,
  validatePasswordChange,
  validateProfile,
  type PasswordChangeValues,
  type ProfileValues,
} from '../features/auth/validation.ts';
import { notify } from '../lib/notify.ts';
import { useFlash } from '../lib/useFlash.ts';
import { useFormValues } from '../lib/useFormValues.ts';

export const SETTINGS_TEXTS = {
  profileUpdated: 'Профиль обновлён',
  profileError: 'Ошибка обновления профиля',
  emailExists: 'Пользователь с таким email уже существует',
  passwordError: 'Ошибка изменения пароля',
  invalidCurrentPassword: 'Неверный текущий пароль',
  passwordChanged: 'Пароль успешно изменён',
} as const;

function ProfileForm({ user }: { user: User }) {
  const { values, setValues, errors, setErrors, set } = useFormValues<ProfileValues>({
    name: user.name,
    email: user.email,
  });
  const [success, flash, clearFlash] = useFlash();
  const [update, { isLoading }] = useUpdateProfileMutation();

  // Keep the form in step with the stored user (e.g. after a save).
  useEffect(() => {
    setValues({ name: user.name, email: user.email });
  }, [user.name, user.email]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    clearFlash();
    const found = validateProfile(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await update(profilePayload(values, user.email)).unwrap();
      flash(SETTINGS_TEXTS.profileUpdated);
      notify.success(SETTINGS_TEXTS.profileUpdated);
    } catch (err) {
      if (getErrorCode(err) === 'EMAIL_ALREADY_EXISTS') {
        setErrors({ email: SETTINGS_TEXTS.emailExists });
        return;
      }
      notify.error(getErrorMessage(err, SETTINGS_TEXTS.profileError));
    }
  };

  const dirty =
    values.name.trim() !== user.name || values.email.trim().toLowerCase() !== user.email.toLowerCase();

  return (
    <section className="card settings__card" aria-labelledby="profile-title">
      <header className="card__header">
        <h2 id="profile-title">Профиль</h2>
        <p>Имя и email, под которыми вас видят участники досок.</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="profile-form">
        <TextField
          id="profile-name"
          label="Имя"
          error={errors.name}
          autoComplete="name"
          value={values.name}
          onChange={set('name')}
        />
        <TextField
          id="profile-email"
          label="Email"
          error={errors.email}
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
        />
        <div className="form__actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={isLoading || !dirty}
            data-testid="profile-submit"
          >
            {isLoading ? <Spinner size="sm" /> : null} Сохранить
          </button>
          {success ? (
            <p className="form__success" role="status" data-testid="profile-success">
              <CheckIcon size={16} /> {success}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}

const EMPTY_PASSWORDS: PasswordChangeValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

function PasswordForm() {
  const { values, setValues, errors, setErrors, set } = useFormValues<PasswordChangeValues>(EMPTY_PASSWORDS);
  const [success, flash, clearFlash] = useFlash();
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    clearFlash();
    const found = validatePasswordChange(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await changePassword({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      }).unwrap();
      setValues(EMPTY_PASSWORDS);
      flash(SETTINGS_TEXTS.passwordChanged);
    } catch (err) {
      if (getErrorCode(err) === 'INVALID_CURRENT_PASSWORD') {
        setErrors({ currentPassword: SETTINGS_TEXTS.invalidCurrentPassword });
        return;
      }
      notify.error(getErrorMessage(err, SETTINGS_TEXTS.passwordError));
    }
  };

  return (
    <section className="card settings__card" aria-labelledby="password-title">
      <header className="card__header">
        <h2 id="password-title">Смена пароля</h2>
        <p>Используйте не менее 8 символов: буквы разного регистра, цифры и символы.</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="password-form">
        <PasswordField
          id="current-password"
          label="Текущий пароль"
          error={errors.currentPassword}
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
        />
        <PasswordField
          id="new-password"
          label="Новый пароль"
          error={errors.newPassword}
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
        />
        <PasswordField
          id="confirm-password"
          label="Подтверждение нового пароля"
          error={errors.confirmPassword}
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
        />
        <div className="form__actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={isLoading}
            data-testid="password-submit"
          >
            {isLoading ? <Spinner size="sm" /> : null} Изменить пароль
          </button>
          {success ? (
            <p className="form__success" role="status" data-testid="password-success">
              <CheckIcon size={16} /> {success}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}

export function SettingsPage() {
  useDocumentTitle('Настройки');
  const user = useAppSelector(selectUser);
  if (!user) return null;
  return (
    <div className="app-shell">
      <AppHeader />
      <main className="page page--narrow">
        <Link to="/dashboard" className="back-link" data-testid="back-to-boards">
          <ArrowLeftIcon size={16} /> К доскам
        </Link>
        <h1 className="page__title">Настройки</h1>
        <div className="settings">
          <ProfileForm user={user} />
          <PasswordForm />
        </div>
      </main>
    </div>
  );
}
