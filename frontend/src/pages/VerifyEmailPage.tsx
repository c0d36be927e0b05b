import { CheckCircle2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { getErrorMessage } from '../api/errors.ts';
import { useAppDispatch, useAppSelector } from '../app/store.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { Spinner } from '../components/FullScreenLoader.tsx';
import { authApi } from '../features/auth/authApi.ts';
import { selectUser, userUpdated } from '../features/auth/authSlice.ts';
import { emailApi } from '../features/auth/emailApi.ts';
import { EMAIL_PAGE_TEXTS as T, LINK_TOKEN } from '../features/auth/emailForms.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

type State = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/** One call per token, however often the page mounts (a link is single-use: a second call would fail). */
const calls = new Map<string, Promise<State>>();

/** /verify-email?token=: opens the link once and says how it went. */
export function VerifyEmailPage() {
  useDocumentTitle(T.verifyTitle);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const [state, setState] = useState<State>(() =>
    LINK_TOKEN.test(token) ? { kind: 'working' } : { kind: 'failed', message: T.verifyMissing },
  );

  useEffect(() => {
    if (!LINK_TOKEN.test(token)) return;
    let alive = true;
    let call = calls.get(token);
    if (!call) {
      call = dispatch(emailApi.endpoints.verifyEmail.initiate({ token }))
        .unwrap()
        .then(
          (r): State => ({ kind: 'done', message: r.message }),
          (err: unknown): State => ({ kind: 'failed', message: getErrorMessage(err, T.verifyError) }),
        );
      calls.set(token, call);
    }
    void call.then((s) => {
      if (alive) setState(s);
    });
    return () => {
      alive = false;
    };
  }, [token, dispatch]);

  // A signed-in browser shows the new state at once (settings' notice goes away).
  useEffect(() => {
    if (state.kind !== 'done' || !user || user.emailVerified) return;
    void dispatch(authApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true }))
      .unwrap()
      .then((r) => dispatch(userUpdated(r.user)))
      .catch(() => undefined);
  }, [state.kind, user, dispatch]);

  const footer = user
    ? { text: '', to: '/dashboard', label: 'К доскам', testId: 'dashboard-link' }
    : { text: '', to: '/login', label: T.signIn, testId: 'login-link' };

  return (
    <AuthLayout title={T.verifyTitle} footer={footer}>
      <div aria-live="polite" className="form">
        {state.kind === 'working' ? (
          <p className="form__pending" data-testid="verify-working">
            <Spinner size="sm" /> {T.verifying}
          </p>
        ) : state.kind === 'done' ? (
          <p className="alert alert--success" role="status" data-testid="verify-done">
            <CheckCircle2Icon size={18} aria-hidden="true" /> {state.message}
          </p>
        ) : (
          <>
            <FormAlert message={state.message} testId="verify-error" />
            {user ? (
              <p>
                <Link to="/settings" data-testid="verify-to-settings">
                  {T.toSettings}
                </Link>
              </p>
            ) : null}
          </>
        )}
      </div>
    </AuthLayout>
  );
}
