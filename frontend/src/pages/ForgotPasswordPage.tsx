import { zodResolver } from '@hookform/resolvers/zod';
import type { PasswordResetRequest } from '@wb/contracts';
import { MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { getErrorMessage } from '../api/errors.ts';
import { AuthLayout, AuthSubmit } from '../components/AuthLayout.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { TextField } from '../components/ui/index.ts';
import { useRequestPasswordResetMutation } from '../features/auth/emailApi.ts';
import { EMAIL_PAGE_TEXTS as T, ForgotPasswordForm, type ForgotPasswordFormValues } from '../features/auth/emailForms.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

/** /forgot-password: the server answers the same sentence whether or not the address has an account. */
export function ForgotPasswordPage() {
  useDocumentTitle(T.forgotTitle);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ForgotPasswordFormValues, unknown, PasswordResetRequest>({
    resolver: zodResolver(ForgotPasswordForm),
    defaultValues: { email: '' },
  });
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      setSent((await requestReset(values).unwrap()).message);
    } catch (err) {
      setServerError(getErrorMessage(err, T.forgotError));
    }
  });

  return (
    <AuthLayout
      title={T.forgotTitle}
      subtitle={T.forgotSubtitle}
      footer={{ text: T.rememberedText, to: '/login', label: T.signIn, testId: 'login-link' }}
    >
      {sent ? (
        <div className="alert alert--success" role="status" data-testid="forgot-sent">
          <MailCheckIcon size={18} aria-hidden="true" /> {sent}
        </div>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate data-testid="forgot-form">
          <FormAlert message={serverError} testId="forgot-server-error" />
          <TextField
            id="email"
            label="Email"
            error={formState.errors.email?.message}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            autoFocus
            {...register('email', { onChange: () => setServerError(null) })}
          />
          <AuthSubmit loading={isLoading} loadingText={T.forgotSending} testId="forgot-submit">
            {T.forgotSubmit}
          </AuthSubmit>
        </form>
      )}
    </AuthLayout>
  );
}
