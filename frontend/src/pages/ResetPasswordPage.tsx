import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_FLOW_TEXTS } from '@wb/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { baseApi } from '../api/baseApi.ts';
import { getErrorCode, getErrorMessage, getFieldErrors } from '../api/errors.ts';
import { useAppDispatch, useAppSelector } from '../app/store.ts';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { PasswordStrength } from '../components/PasswordStrength.tsx';
import { buttonClass, PasswordField } from '../components/ui/index.ts';
import { selectUser, signedOut } from '../features/auth/authSlice.ts';
import { useConfirmPasswordResetMutation } from '../features/auth/emailApi.ts';
import {
  EMAIL_PAGE_TEXTS as T,
  LINK_TOKEN,
  ResetPasswordForm,
  type ResetPasswordFormValues,
} from '../features/auth/emailForms.ts';
import { localTokenStore } from '../features/auth/tokenStorage.ts';
import { notify } from '../lib/notify.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

/** /reset-password?token=: the new password twice; every session of the account ends with it. */
export function ResetPasswordPage() {
  useDocumentTitle(T.resetTitle);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const validLink = LINK_TOKEN.test(token);
  const [serverError, setServerError] = useState<string | null>(validLink ? null : T.linkMissing);
  // A used or expired link cannot succeed however the password is typed: the form gives way to the way out.
  const [deadLink, setDeadLink] = useState(!validLink);
  const { register, handleSubmit, formState, setError, watch } = useForm<
    ResetPasswordFormValues,
    unknown,
    { password: string; confirmPassword: string }
  >({ resolver: zodResolver(ResetPasswordForm), defaultValues: { password: '', confirmPassword: '' } });
  const [confirm, { isLoading }] = useConfirmPasswordResetMutation();
  const dispatch = useAppDispatch();
  const signedInUser = useAppSelector(selectUser);
  const navigate = useNavigate();
  const field = (name: keyof ResetPasswordFormValues) => register(name, { onChange: () => setServerError(null) });

  const onSubmit = handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      const { message } = await confirm({ token, password }).unwrap();
      // The reset ended every session, this browser's too: forget its tokens rather than fail later.
      if (signedInUser) {
        localTokenStore.clear();
        dispatch(signedOut());
        dispatch(baseApi.util.resetApiState());
      }
      notify.success(message || EMAIL_FLOW_TEXTS.passwordReset);
      navigate('/login', { replace: true });
    } catch (err) {
      const code = getErrorCode(err);
      const fields = getFieldErrors(err);
      if (fields.password) setError('password', { type: 'server', message: fields.password });
      if (code?.startsWith('RESET_TOKEN_') || fields.token) setDeadLink(true);
      setServerError(fields.token ?? getErrorMessage(err, T.resetError));
    }
  });

  return (
    <AuthLayout
      title={T.resetTitle}
      subtitle={T.resetSubtitle}
      footer={{ text: T.rememberedText, to: '/login', label: T.signIn, testId: 'login-link' }}
    >
      <FormAlert message={serverError} testId="reset-server-error" />
      {deadLink ? (
        <Link to="/forgot-password" className={buttonClass({ variant: 'primary', size: 'lg', block: true })} data-testid="reset-request-new">
          {T.requestNew}
        </Link>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate data-testid="reset-form">
          <PasswordField
            id="password"
            label="Новый пароль"
            error={formState.errors.password?.message}
            hint={<PasswordStrength password={watch('password')} />}
            autoComplete="new-password"
            placeholder="Минимум 8 символов"
            autoFocus
            {...field('password')}
          />
          <PasswordField
            id="confirmPassword"
            label="Подтверждение пароля"
            error={formState.errors.confirmPassword?.message}
            autoComplete="new-password"
            placeholder="Повторите пароль"
            {...field('confirmPassword')}
          />
          <AuthSubmit loading={isLoading} loadingText={T.resetSaving} testId="reset-submit">
            {T.resetSubmit}
          </AuthSubmit>
        </form>
      )}
    </AuthLayout>
  );
}
