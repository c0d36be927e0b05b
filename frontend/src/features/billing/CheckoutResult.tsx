import { useEffect, useState } from 'react';
import { XIcon } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { isUuid } from '@wb/contracts/constants';
import { CLOSE_LABEL, IconButton } from '../../components/ui/index.ts';
import { checkoutMessage } from './myPlanTexts.ts';
import { useGetOrderQuery } from './myPlanApi.ts';
import styles from './CheckoutResult.module.css';

/**
 * The dashboard after a checkout (/dashboard?payment=success|declined&order=<id>): what happened to
 * the order, read from billing, with the plan and its date. A pending order (the provider's
 * confirmation still on its way) is asked again every two seconds. The address is tidied at once,
 * so a reload does not say it again.
 */
export function CheckoutResult() {
  const [params, setParams] = useSearchParams();
  const [seen] = useState((): { returned: 'success' | 'declined'; order: string } | null => {
    const returned = params.get('payment');
    const order = params.get('order') ?? '';
    if ((returned !== 'success' && returned !== 'declined') || !isUuid(order)) return null;
    return { returned, order };
  });
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (!params.has('payment') && !params.has('order')) return;
    setParams(
      (p) => {
        p.delete('payment');
        p.delete('order');
        return p;
      },
      { replace: true },
    );
  }, [params, setParams]);
  const [pending, setPending] = useState(true);
  const { data, isError } = useGetOrderQuery(seen?.order ?? '', { skip: !seen || closed, pollingInterval: pending ? 2000 : 0 });
  useEffect(() => {
    if (data && data.order.status !== 'pending') setPending(false);
  }, [data]);
  if (!seen || closed || (!data && !isError)) return null;
  const message = data
    ? checkoutMessage(seen.returned, data)
    : { tone: 'error' as const, title: 'Не удалось проверить оплату', text: 'Обновите страницу или загляните в «Мой тариф» в настройках.' };
  return (
    <div className={`${styles.banner} ${styles[message.tone]}`} role="status" data-testid="checkout-result" data-tone={message.tone}>
      <div>
        <strong data-testid="checkout-result-title">{message.title}</strong>
        <p data-testid="checkout-result-text">{message.text}</p>
      </div>
      <IconButton plain className={styles.close} label={CLOSE_LABEL} onClick={() => setClosed(true)}>
        <XIcon size={18} aria-hidden="true" />
      </IconButton>
    </div>
  );
}
