import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { ArrowLeftIcon } from 'lucide-react';
import { LogoMark, PRODUCT_NAME } from '../components/Logo.tsx';
import { PlansGrid } from '../components/PlansGrid.tsx';
import { selectUser } from '../features/auth/authSlice.ts';
import { Faq } from '../features/billing/Faq.tsx';
import { usePaymentReturn } from '../features/billing/usePaymentReturn.ts';
import { buttonClass } from '../components/ui/Button.tsx';

export const PRICING_TITLE = 'Выберите свой тариф';

/** Spec §2 "Pricing page": plans with checkout (PlansGrid), the billing-off notice and the FAQ. */
export function PricingPage() {
  useDocumentTitle('Тарифы');
  usePaymentReturn();
  const user = useAppSelector(selectUser);
  return (
    <div className="pricing-page">
      <header className="simple-header">
        <div className="container simple-header__inner">
          <Link to={user ? '/dashboard' : '/'} className="back-link" aria-label="Назад">
            <ArrowLeftIcon size={16} aria-hidden /> <span className="back-link__text">Назад</span>
          </Link>
          <Link to="/" className="simple-header__brand">
            <LogoMark size={28} /> {PRODUCT_NAME}
          </Link>
          <div className="simple-header__right">
            {user ? (
              <>
                <span className="simple-header__greet">Здравствуйте, {user.name}</span>
                <Link to="/dashboard" className={buttonClass({ variant: 'secondary', size: 'sm' })}>
                  Мои доски
                </Link>
              </>
            ) : (
              <>
                <Link to="/login" className={buttonClass({ variant: 'ghost', size: 'sm' })}>
                  Войти
                </Link>
                <Link to="/register" className={buttonClass({ variant: 'primary', size: 'sm' })}>
                  Регистрация
                </Link>
              </>
            )}
          </div>
        </div>
      </header>
      <main className="container page">
        <h1 className="page__title page__title--center" data-testid="pricing-title">
          {PRICING_TITLE}
        </h1>
        <p className="page__lead page__lead--center">
          Без ограничений на число участников доски. Если лимит будет достигнут, созданные доски останутся
          доступны.
        </p>
        <PlansGrid
          fallback={
            <div className="plans-fallback" data-testid="plans-fallback">
              <p>Тарифы скоро появятся. Сейчас все возможности доступны бесплатно.</p>
              <Link to={user ? '/dashboard' : '/register'} className={buttonClass({ variant: 'primary' })}>
                {user ? 'Перейти к доскам' : 'Начать бесплатно'}
              </Link>
            </div>
          }
        />
        <Faq />
      </main>
    </div>
  );
}
