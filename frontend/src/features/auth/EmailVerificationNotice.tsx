import { MailWarningIcon } from 'lucide-react';
import { useState } from 'react';
import { getErrorCode, getErrorMessage } from '../../api/errors.ts';
import { useAppDispatch, useAppSelector } from '../../app/store.ts';
import { Button } from '../../components/ui/index.ts';
import { authApi } from './authApi.ts';
import { selectUser, userUpdated } from './authSlice.ts';
import { useResendVerificationMutation } from './emailApi.ts';

export const VERIFICATION_NOTICE_TEXTS = {
  title: 'Email не подтверждён',
  body: (email: string) =>
    `Мы отправили письмо со ссылкой для подтверждения на ${email}. Откройте её, чтобы подтвердить адрес. Письма нет? Проверьте папку «Спам» или отправьте его ещё раз.`,
  resend: 'Отправить письмо ещё раз',
  resendError: 'Не удалось отправить письмо',
} as const;

/** Settings: shown while the account's address is unverified, with a resend button. */
export function EmailVerificationNotice() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const [resend, { isLoading }] = useResendVerificationMutation();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  if (!user || user.emailVerified) return null;

  const onResend = async () => {
    setResult(null);
    try {
      setResult({ ok: true, message: (await resend().unwrap()).message });
    } catch (err) {
      if (getErrorCode(err) === 'EMAIL_ALREADY_VERIFIED') {
        // Verified in another tab or device meanwhile: take the fresh user, the notice goes away.
        const fresh = await dispatch(authApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true })).unwrap();
        dispatch(userUpdated(fresh.user));
        return;
      }
      setResult({ ok: false, message: getErrorMessage(err, VERIFICATION_NOTICE_TEXTS.resendError) });
    }
  };

  return (
    <section className="card settings__card email-notice" aria-labelledby="email-notice-title" data-testid="email-verification-notice">
      <header className="card__header">
        <h2 id="email-notice-title">
          <MailWarningIcon size={20} aria-hidden="true" /> {VERIFICATION_NOTICE_TEXTS.title}
        </h2>
        <p>{VERIFICATION_NOTICE_TEXTS.body(user.email)}</p>
      </header>
      <div className="form__actions">
        <Button variant="secondary" loading={isLoading} disabled={isLoading} onClick={() => void onResend()} data-testid="resend-verification">
          {VERIFICATION_NOTICE_TEXTS.resend}
        </Button>
        {result ? (
          <p className={result.ok ? 'form__success' : 'form__error'} role={result.ok ? 'status' : 'alert'} data-testid="resend-result">
            {result.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
