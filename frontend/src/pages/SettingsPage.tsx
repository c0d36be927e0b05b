import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { useEffect, type FormEvent, type ReactNode } from 'react';
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

interface SettingsCardProps {
  /** Prefix of the card's ids and test ids: `<id>-title`, `<id>-form`, `<id>-submit`, `<id>-success`. */
  id: string;
  title: string;
  description: string;
  onSubmit: (e: FormEvent) => void;
  submitLabel: string;
  loading: boolean;
  disabled: boolean;
  success: string | null;
  children: ReactNode;
}

/** A settings card: heading, a form of fields, the submit button and its passing success message. */
function SettingsCard({
  id,
  title,
  description,
  onSubmit,
  submitLabel,
  loading,
  disabled,
  success,
  children,
}: SettingsCardProps) {
  return (
    <section className="card settings__card" aria-labelledby={`${id}-title`}>
      <header className="card__header">
        <h2 id={`${id}-title`}>{title}</h2>
        <p>{description}</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate data-testid={`${id}-form`}>
        {children}
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={disabled} data-testid={`${id}-submit`}>
            {loading ? <Spinner size="sm" /> : null} {submitLabel}
          </button>
          {success ? (
            <p className="form__success" role="status" data-testid={`${id}-success`}>
              <CheckIcon size={16} /> {success}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}

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
    <SettingsCard
      id="profile"
      title="Профиль"
      description="Имя и email, под которыми вас видят участники досок."
      onSubmit={onSubmit}
      submitLabel="Сохранить"
      loading={isLoading}
      disabled={isLoading || !dirty}
      success={success}
    >
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
    </SettingsCard>
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
    <SettingsCard
      id="password"
      title="Смена пароля"
      description="Используйте не менее 8 символов: буквы разного регистра, цифры и символы."
      onSubmit={onSubmit}
      submitLabel="Изменить пароль"
      loading={isLoading}
      disabled={isLoading}
      success={success}
    >
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
    </SettingsCard>
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
