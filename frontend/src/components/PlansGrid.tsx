import { useEffect } from 'react';
import { CheckIcon } from 'lucide-react';
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
import {
  BILLING_DISABLED_TEXT,
  BILLING_DISABLED_TITLE,
  CHOOSE,
  PLANS_LOAD_ERROR,
  START,
  START_FREE,
} from '../features/billing/texts.ts';
import type { Plan } from '../features/billing/types.ts';
import { useChoosePlan } from '../features/billing/useChoosePlan.ts';
import { notify } from '../lib/notify.ts';
import { Button } from './ui/index.ts';
import { Spinner } from './FullScreenLoader.tsx';

type Choose = ReturnType<typeof useChoosePlan>;

function PlanCard({ plan, choose, pending }: { plan: Plan } & Choose) {
  const variants = activeVariants(plan);
  const popular = isPopularPlan(plan);
  return (
    <article
      className={`plan${popular ? ' plan--popular' : ''}`}
      data-testid="plan-card"
      data-plan={plan.name}
    >
      {popular ? <span className="plan__badge">{POPULAR_BADGE_TEXT}</span> : null}
      <h3 className="plan__name">{plan.name}</h3>
      {plan.description ? <p className="plan__desc">{plan.description}</p> : null}
      <div className="plan__variants">
        {variants.length === 0 ? (
          <Button variant="primary" block onClick={() => void choose(plan, null)}>
            {START_FREE}
          </Button>
        ) : (
          variants.map((v) => (
            <div className="plan__variant" key={v.id} data-testid="plan-variant">
              <div>
                <span className="plan__price">{formatPrice(v.price_minor, v.currency)}</span>
                <span className="plan__period">{formatPeriod(v.days)}</span>
              </div>
              <Button
                size="sm"
                variant={popular ? 'primary' : 'secondary'}
                loading={pending === v.id}
                disabled={pending !== null}
                onClick={() => void choose(plan, v)}
              >
                {v.price_minor === 0 ? START : CHOOSE}
              </Button>
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
 * The plans from GET /billing/plans as cards with the checkout rules of spec §4; the yellow notice
 * while billing is off. When the plans cannot be loaded it says so (with a retry); `fallback` is for an
 * empty list.
 */
export function PlansGrid({ fallback }: { fallback?: React.ReactNode }) {
  const { data, isLoading, isError, isFetching, refetch } = useGetPlansQuery();
  const billingEnabled = data?.billing_enabled ?? true;
  const chooser = useChoosePlan(billingEnabled);

  useEffect(() => {
    if (isError) notify.error(PLANS_LOAD_ERROR, { toastId: 'plans-load-error' });
  }, [isError]);

  if (isLoading) {
    return (
      <div className="plans__loading">
        <Spinner />
      </div>
    );
  }
  // Nothing is known of the plans: say so, and nothing about what is free (limits still apply).
  if (isError) {
    return (
      <div className="plans-fallback" role="alert" data-testid="plans-error">
        <p>{PLANS_LOAD_ERROR}</p>
        <Button variant="secondary" onClick={() => void refetch()} disabled={isFetching}>
          Повторить
        </Button>
      </div>
    );
  }
  if (!data || data.plans.length === 0) return <>{fallback ?? null}</>;
  return (
    <>
      {!data.billing_enabled ? (
        <div className="notice notice--warning" data-testid="billing-off">
          <strong>{BILLING_DISABLED_TITLE}</strong>
          <span>{BILLING_DISABLED_TEXT}</span>
        </div>
      ) : null}
      <div className="plans" data-testid="plans-grid">
        {data.plans.map((p) => (
          <PlanCard key={p.id} plan={p} {...chooser} />
        ))}
      </div>
    </>
  );
}
