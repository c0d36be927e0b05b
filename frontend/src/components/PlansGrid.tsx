import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { selectUser } from '../features/auth/authSlice.ts';
import {
  INCLUDED_TITLE,
  POPULAR_BADGE_TEXT,
  activeVariants,
  formatPeriod,
  formatPrice,
  isPopularPlan,
  planFeatures,
} from '../features/billing/format.ts';
import { useGetPlansQuery } from '../features/billing/plansApi.ts';
import type { Plan } from '../features/billing/types.ts';
import { CheckIcon } from 'lucide-react';
import { Spinner } from './FullScreenLoader.tsx';

function PlanCard({ plan, ctaTo }: { plan: Plan; ctaTo: string }) {
  const variants = activeVariants(plan);
  const popular = isPopularPlan(plan);
  return (
    <article className={`plan${popular ? ' plan--popular' : ''}`} data-testid="plan-card">
      {popular ? <span className="plan__badge">{POPULAR_BADGE_TEXT}</span> : null}
      <h3 className="plan__name">{plan.name}</h3>
      {plan.description ? <p className="plan__desc">{plan.description}</p> : null}
      <div className="plan__variants">
        {variants.length === 0 ? (
          <Link to={ctaTo} className="btn btn--primary btn--block">
            Начать бесплатно
          </Link>
        ) : (
          variants.map((v) => (
            <div className="plan__variant" key={v.id}>
              <div>
                <span className="plan__price">{formatPrice(v.price_minor, v.currency)}</span>
                <span className="plan__period">{formatPeriod(v.days)}</span>
              </div>
              <Link to={ctaTo} className={`btn btn--sm ${popular ? 'btn--primary' : 'btn--secondary'}`}>
                {v.price_minor === 0 ? 'Начать' : 'Выбрать'}
              </Link>
            </div>
          ))
        )}
      </div>
      <h4 className="plan__included">{INCLUDED_TITLE}</h4>
      <ul className="plan__features">
        {planFeatures(plan).map((f) => (
          <li key={f}>
            <CheckIcon size={16} /> {f}
          </li>
        ))}
      </ul>
    </article>
  );
}

/**
 * The plans from GET /billing/plans as cards. Until billing is deployed (404 or failure) it shows
 * `fallback` instead.
 */
export function PlansGrid({ fallback, ctaTo }: { fallback?: React.ReactNode; ctaTo?: string }) {
  const user = useAppSelector(selectUser);
  const { data, isLoading, isError } = useGetPlansQuery();
  if (isLoading) {
    return (
      <div className="plans__loading">
        <Spinner />
      </div>
    );
  }
  if (isError || !data || data.plans.length === 0) return <>{fallback ?? null}</>;
  const to = ctaTo ?? (user ? '/pricing' : '/register');
  return (
    <>
      {!data.billing_enabled ? (
        <div className="notice notice--warning" data-testid="billing-off">
          <strong>Биллинг временно недоступен</strong>
          <span>В настоящее время все премиум функции доступны бесплатно для всех пользователей.</span>
        </div>
      ) : null}
      <div className="plans" data-testid="plans-grid">
        {data.plans.map((p) => (
          <PlanCard key={p.id} plan={p} ctaTo={to} />
        ))}
      </div>
    </>
  );
}
