import type { PaymentView } from '@wb/contracts';
import { useEffect } from 'react';
import { Table, type TableColumn } from '../../components/ui/index.ts';
import { formatPrice } from '../billing/format.ts';
import { logFailure } from './alerts.ts';
import { useGetAdminPaymentsQuery } from './adminApi.ts';
import { formatDateTime } from './format.ts';
import { TAB_TITLES } from './specTexts.ts';
import { PAYMENT_STATUS, TEXTS } from './texts.ts';
import a from './admin.module.css';

const T = TEXTS.payments;

/** Spec §2 Платежи: user, amount, status ('paid', anything else failed), date. */
export function PaymentsTab() {
  const { data: payments, error } = useGetAdminPaymentsQuery(undefined, { refetchOnMountOrArgChange: true });
  useEffect(() => {
    if (error) logFailure('payments', error);
  }, [error]);
  const columns: TableColumn<PaymentView>[] = [
    { key: 'user', header: T.user, cell: (p) => p.user_name ?? TEXTS.unknownUser },
    { key: 'amount', header: T.amount, align: 'end', cell: (p) => formatPrice(p.amount_minor, p.currency) },
    {
      key: 'status',
      header: T.status,
      cell: (p) => {
        const paid = p.status === 'paid';
        return (
          <span
            className={`${a.badge} ${paid ? a.green : a.red}`}
            data-testid="payment-status"
            data-status={paid ? 'paid' : 'failed'}
          >
            {paid ? PAYMENT_STATUS.paid : PAYMENT_STATUS.failed}
          </span>
        );
      },
    },
    { key: 'date', header: T.date, cell: (p) => formatDateTime(p.created_at) },
  ];
  return (
    <Table
      caption={TAB_TITLES.payments}
      hideCaption
      columns={columns}
      rows={payments ?? []}
      rowKey={(p) => p.id}
      rowTestId={() => 'payment-row'}
      empty={payments ? T.empty : '…'}
      testId="payments-table"
      cards
    />
  );
}
