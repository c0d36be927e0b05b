import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../app/store.ts';
import { getErrorMessage } from '../../api/errors.ts';
import { notify } from '../../lib/notify.ts';
import { selectUser } from '../auth/authSlice.ts';
import { useCheckoutMutation } from './billingApi.ts';
import { BILLING_DISABLED_TITLE, CHECKOUT_ERROR } from './texts.ts';
import type { Plan, PlanVariant } from './types.ts';

/** Where the browser goes to pay; a function so a test can watch it. */
export const goToCheckout = (url: string) => window.location.assign(url);

/**
 * Spec §4 "Pricing checkout": a visitor goes to /register, Free goes to /dashboard, billing off is an
 * error, otherwise an order is created and the browser goes to its checkout address.
 */
export function useChoosePlan(billingEnabled: boolean) {
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const [checkout] = useCheckoutMutation();
  const [pending, setPending] = useState<string | null>(null);

  const choose = async (plan: Plan, variant: PlanVariant | null) => {
    if (!user) return navigate('/register');
    if (!variant || variant.price_minor === 0) return navigate('/dashboard');
    if (!billingEnabled) return notify.error(BILLING_DISABLED_TITLE);
    setPending(variant.id);
    try {
      const answer = await checkout({ plan_id: plan.id, variant_id: variant.id }).unwrap();
      goToCheckout(answer.data.checkout_url);
    } catch (err) {
      notify.error(getErrorMessage(err, CHECKOUT_ERROR));
      setPending(null);
    }
  };

  return { choose, pending };
}
