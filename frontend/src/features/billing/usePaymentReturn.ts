import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { notify } from '../../lib/notify.ts';

export const PAYMENT_CANCELLED = 'Оплата отменена. Тариф не изменился.';

/** A provider sends a browser that gave up back to /pricing?payment=cancelled: say so once, then tidy the address. */
export function usePaymentReturn() {
  const [params, setParams] = useSearchParams();
  const outcome = params.get('payment');
  useEffect(() => {
    if (outcome !== 'cancelled') return;
    notify.info(PAYMENT_CANCELLED, { toastId: 'payment-cancelled' });
    setParams(
      (p) => {
        p.delete('payment');
        return p;
      },
      { replace: true },
    );
  }, [outcome, setParams]);
}
