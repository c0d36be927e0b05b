/** The loading stages of §2/§4, the 'Настройка вида...' overlay and the 'Доступ запрещен' panel. */
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ShieldAlertIcon } from 'lucide-react';
import { Spinner } from '../../../components/FullScreenLoader.tsx';
import { buttonClass } from '../../../components/ui/index.ts';
import { DENIED_REDIRECT_MS } from './loadError.ts';
import { OWN, SPEC } from './texts.ts';
import styles from './boardPage.module.css';

export function LoadingStage({ text }: { text: string }) {
  return (
    <div className={styles.loading} data-testid="board-loading" role="status">
      <Spinner />
      <p>{text}</p>
    </div>
  );
}

export function SettingUpOverlay() {
  return (
    <div className={styles.settingUp} data-testid="board-setting-up" role="status">
      <Spinner />
      <p>{SPEC.settingUpView}</p>
    </div>
  );
}

/**
 * §2 Load error: the panel, then /dashboard after 2 s. A visitor who is not signed in (a bad or
 * revoked link) would only bounce off /dashboard's guard to /login, so they are told that and sent
 * there directly (issue 35 item 9).
 */
export function AccessDenied({ message, signedIn }: { message: string; signedIn: boolean }) {
  const navigate = useNavigate();
  const target = signedIn ? '/dashboard' : '/login';
  useEffect(() => {
    const t = setTimeout(() => navigate(target, { replace: true }), DENIED_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [navigate, target]);
  return (
    <div className={styles.denied} data-testid="board-denied" role="alert">
      <ShieldAlertIcon size={40} aria-hidden="true" />
      <h1>{SPEC.accessDenied}</h1>
      <p data-testid="board-denied-message">{message}</p>
      <p className={styles.muted} data-testid="board-denied-notice">
        {signedIn ? OWN.redirectNotice : OWN.redirectToLoginNotice}
      </p>
      <Link to={target} className={buttonClass({ variant: 'primary' })} data-testid="board-denied-back">
        {signedIn ? OWN.backToBoards : OWN.toLogin}
      </Link>
    </div>
  );
}
