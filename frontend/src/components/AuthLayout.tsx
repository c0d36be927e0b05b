import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LogoMark, PRODUCT_NAME } from './Logo.tsx';
import { Link } from 'react-router-dom';
import { Button } from './ui/Button.tsx';

interface Props {
  title: string;
  subtitle?: string;
  /** The line under the card that leads to the other auth screen. */
  footer: { text: string; to: string; label: string; testId: string };
  children: ReactNode;
}

/** Two-pane layout of the login and register screens (the art pane hides on small screens). */
export function AuthLayout({ title, subtitle, footer, children }: Props) {
  return (
    <div className="auth">
      <aside className="auth__art" aria-hidden="true">
        <div className="auth__art-inner">
          <div className="auth__art-brand">
            <LogoMark size={40} />
            <span>{PRODUCT_NAME}</span>
          </div>
          <div className="auth__art-board">
            <div className="sticky sticky--yellow">Идеи к спринту</div>
            <div className="sticky sticky--pink">Ретро пятницы</div>
            <div className="sticky sticky--blue">Карта пользователя</div>
            <svg className="auth__art-arrow" viewBox="0 0 200 80">
              <path
                d="M10 60 C 60 0, 140 0, 190 40"
                fill="none"
                stroke="currentColor"
                strokeWidth="3"
                strokeDasharray="6 8"
                strokeLinecap="round"
              />
            </svg>
            <span className="cursor cursor--a">Анна</span>
            <span className="cursor cursor--b">Игорь</span>
          </div>
          <p className="auth__art-quote">
            Вся команда на одной доске — в реальном времени, из любой точки мира.
          </p>
        </div>
      </aside>
      <main className="auth__main">
        <div className="auth__top">
          <Link to="/" className="auth__back" data-testid="home-link">
            <ArrowLeftIcon size={16} /> На главную
          </Link>
          <Link to="/" className="auth__mobile-logo" aria-label={PRODUCT_NAME}>
            <LogoMark size={28} />
          </Link>
        </div>
        <div className="auth__card">
          <h1 className="auth__title">{title}</h1>
          {subtitle ? <p className="auth__subtitle">{subtitle}</p> : null}
          {children}
          <p className="auth__footer">
            {footer.text}{' '}
            <Link to={footer.to} data-testid={footer.testId}>
              {footer.label}
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}

interface SubmitProps {
  loading: boolean;
  loadingText: string;
  testId: string;
  children: ReactNode;
}

/** The wide submit button of an auth form: disabled with a spinner and `loadingText` while sending. */
export function AuthSubmit({ loading, loadingText, testId, children }: SubmitProps) {
  return (
    <Button type="submit" variant="primary" size="lg" block loading={loading} data-testid={testId}>
      {loading ? loadingText : children}
    </Button>
  );
}
