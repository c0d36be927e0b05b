import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeftIcon, CheckIcon } from 'lucide-react';
import { useEffect, useMemo, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { getErrorCode, getErrorMessage } from '../api/errors.ts';
import { useAppSelector } from '../app/store.ts';
import { AppHeader } from '../components/AppHeader.tsx';
import { Button, PasswordField, TextField } from '../components/ui/index.ts';
import {
  useChangePasswordMutation,
  useUpdateProfileMutation,
  type ChangePasswordArgs,
  type UpdateProfileArgs,
} from '../features/auth/authApi.ts';
import { selectUser } from '../features/auth/authSlice.ts';
import { EmailVerificationNotice } from '../features/auth/EmailVerificationNotice.tsx';
import { DeleteAccountSection } from '../features/settings/DeleteAccountSection.tsx';
import {
  PasswordChangeForm,
  profileForm,
  sameEmail,
  type PasswordChangeFormValues,
  type ProfileFormValues,
} from '../features/auth/forms.ts';
import type { User } from '../features/auth/types.ts';
import { notify } from '../lib/notify.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { MyPlanSection } from '../features/billing/MyPlanSection.tsx';
import { useFlash } from '../lib/useFlash.ts';

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
          <Button type="submit" variant="primary" loading={loading} disabled={disabled} data-testid={`${id}-submit`}>
            {submitLabel}
          </Button>
          {success ? (
            <p className="form__success" role="status" data-testid={`${id}-success`}>
              <CheckIcon size={16} aria-hidden="true" /> {success}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function ProfileForm({ user }: { user: User }) {
  const schema = useMemo(() => profileForm(user.email), [user.email]);
  const { register, handleSubmit, formState, setError, reset, watch } = useForm<
    ProfileFormValues,
    unknown,
    UpdateProfileArgs
  >({
    resolver: zodResolver(schema),
    defaultValues: { name: user.name, email: user.email, currentPassword: '' },
  });
  const errors = formState.errors;
  const [success, flash, clearFlash] = useFlash();
  const [update, { isLoading }] = useUpdateProfileMutation();

  // Keep the form in step with the stored user (e.g. after a save).
  useEffect(() => {
    reset({ name: user.name, email: user.email, currentPassword: '' });
  }, [user.name, user.email, reset]);

  const onSubmit = handleSubmit(async (payload) => {
    try {
      await update(payload).unwrap();
      flash(SETTINGS_TEXTS.profileUpdated);
      notify.success(SETTINGS_TEXTS.profileUpdated);
    } catch (err) {
      const code = getErrorCode(err);
      if (code === 'EMAIL_ALREADY_EXISTS') setError('email', { type: 'server', message: SETTINGS_TEXTS.emailExists });
      else if (code === 'INVALID_CURRENT_PASSWORD')
        setError('currentPassword', { type: 'server', message: SETTINGS_TEXTS.invalidCurrentPassword });
      else notify.error(getErrorMessage(err, SETTINGS_TEXTS.profileError));
    }
  });

  const name = watch('name');
  const email = watch('email');
  const emailChanged = !sameEmail(email, user.email);
  const dirty = name.trim() !== user.name || emailChanged;

  return (
    <SettingsCard
      id="profile"
      title="Профиль"
      description="Имя и email, под которыми вас видят участники досок."
      onSubmit={(e) => {
        clearFlash();
        void onSubmit(e);
      }}
      submitLabel="Сохранить"
      loading={isLoading}
      disabled={isLoading || !dirty}
      success={success}
    >
      <TextField id="profile-name" label="Имя" error={errors.name?.message} autoComplete="name" {...register('name')} />
      <TextField
        id="profile-email"
        label="Email"
        error={errors.email?.message}
        type="email"
        autoComplete="email"
        {...register('email')}
      />
      {emailChanged ? (
        // The new address takes the account over, so the owner proves it with the password.
        <PasswordField
          id="profile-current-password"
          label="Текущий пароль"
          error={errors.currentPassword?.message}
          autoComplete="current-password"
          {...register('currentPassword')}
        />
      ) : null}
    </SettingsCard>
  );
}

const EMPTY_PASSWORDS: PasswordChangeFormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

function PasswordForm() {
  const { register, handleSubmit, formState, setError, reset } = useForm<
    PasswordChangeFormValues,
    unknown,
    ChangePasswordArgs & { confirmPassword: string }
  >({ resolver: zodResolver(PasswordChangeForm), defaultValues: EMPTY_PASSWORDS });
  const errors = formState.errors;
  const [success, flash, clearFlash] = useFlash();
  const [changePassword, { isLoading }] = useChangePasswordMutation();

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword({ currentPassword, newPassword }).unwrap();
      reset(EMPTY_PASSWORDS);
      flash(SETTINGS_TEXTS.passwordChanged);
    } catch (err) {
      if (getErrorCode(err) === 'INVALID_CURRENT_PASSWORD') {
        setError('currentPassword', { type: 'server', message: SETTINGS_TEXTS.invalidCurrentPassword });
        return;
      }
      notify.error(getErrorMessage(err, SETTINGS_TEXTS.passwordError));
    }
  });

  return (
    <SettingsCard
      id="password"
      title="Смена пароля"
      description="Используйте не менее 8 символов: буквы разного регистра, цифры и символы."
      onSubmit={(e) => {
        clearFlash();
        void onSubmit(e);
      }}
      submitLabel="Изменить пароль"
      loading={isLoading}
      disabled={isLoading}
      success={success}
    >
      <PasswordField
        id="current-password"
        label="Текущий пароль"
        error={errors.currentPassword?.message}
        autoComplete="current-password"
        {...register('currentPassword')}
      />
      <PasswordField
        id="new-password"
        label="Новый пароль"
        error={errors.newPassword?.message}
        autoComplete="new-password"
        {...register('newPassword')}
      />
      <PasswordField
        id="confirm-password"
        label="Подтверждение нового пароля"
        error={errors.confirmPassword?.message}
        autoComplete="new-password"
        {...register('confirmPassword')}
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
          <ArrowLeftIcon size={16} aria-hidden="true" /> К доскам
        </Link>
        <h1 className="page__title">Настройки</h1>
        <div className="settings">
          <EmailVerificationNotice />
          <ProfileForm user={user} />
          <PasswordForm />
          <MyPlanSection />
          <DeleteAccountSection />
        </div>
      </main>
    </div>
  );
}
