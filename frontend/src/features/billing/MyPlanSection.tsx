import { zodResolver } from '@hookform/resolvers/zod';
import { AutoRenewForm, FREE_PLAN_NAME, type PaymentView, type SubscriptionView } from '@wb/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useEffect } from 'react';
import { CheckIcon, DownloadIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors.ts';
import { Button, buttonClass, Switch, Table, type TableColumn } from '../../components/ui/index.ts';
import { notify } from '../../lib/notify.ts';
import { useGetSubscriptionQuery } from './billingApi.ts';
import { INCLUDED_TITLE, activeVariants, formatPeriod, formatPrice, planFeatures } from './format.ts';
import { useDownloadReceiptMutation, useGetPaymentsQuery, useSetAutoRenewMutation } from './myPlanApi.ts';
import {
  AUTO_RENEW_ERROR,
  AUTO_RENEW_LABEL,
  CHANGE_PLAN,
  CHOOSE_PLAN,
  LOAD_ERROR,
  MY_PLAN_TITLE,
  PAYMENTS_EMPTY,
  PAYMENTS_TITLE,
  PAYMENT_STATUS,
  RECEIPT_ERROR,
  RECEIPT_LABEL,
  STATUS_LABELS,
  formatDate,
  renewalNote,
} from './myPlanTexts.ts';
import { useGetPlansQuery } from './plansApi.ts';
import type { Plan } from './types.ts';
import styles from './MyPlanSection.module.css';

/** The Free plan as the landing and pricing cards show it (same helpers, same order), without the button. */
function FreePlanCard({ plan }: { plan: Plan }) {
  return (
    <article className={`plan ${styles.free}`} data-testid="my-plan-free" data-plan={plan.name}>
      <h3 className="plan__name">{plan.name}</h3>
      {plan.description ? <p className="plan__desc">{plan.description}</p> : null}
      <div className="plan__variants">
        {activeVariants(plan).map((v) => (
          <div className="plan__variant" key={v.id}>
            <div>
              <span className="plan__price">{formatPrice(v.price_minor, v.currency)}</span>
              <span className="plan__period">{formatPeriod(v.days)}</span>
            </div>
          </div>
        ))}
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

/** The switch is a one-field form: the zod schema of @wb/contracts checks it, each change is sent at once. */
function AutoRenewSwitch({ subscription }: { subscription: SubscriptionView }) {
  const [setAutoRenew, { isLoading }] = useSetAutoRenewMutation();
  const { control, handleSubmit, reset } = useForm<AutoRenewForm>({
    resolver: zodResolver(AutoRenewForm),
    defaultValues: { auto_renew: subscription.auto_renew },
  });
  useEffect(() => reset({ auto_renew: subscription.auto_renew }), [subscription.auto_renew, reset]);
  const submit = handleSubmit(async ({ auto_renew }) => {
    try {
      await setAutoRenew(auto_renew).unwrap();
    } catch (err) {
      reset({ auto_renew: subscription.auto_renew });
      notify.error(getErrorMessage(err, AUTO_RENEW_ERROR));
    }
  });
  return (
    <form onSubmit={(e) => void submit(e)} className={styles.renew}>
      <Controller
        control={control}
        name="auto_renew"
        render={({ field }) => (
          <Switch
            checked={field.value}
            disabled={isLoading}
            label={AUTO_RENEW_LABEL}
            testId="auto-renew"
            onCheckedChange={(v) => {
              field.onChange(v);
              void submit();
            }}
          />
        )}
      />
    </form>
  );
}

function CurrentPlan({ subscription }: { subscription: SubscriptionView }) {
  const status = subscription.calculated_status;
  return (
    <div className={styles.current} data-testid="my-plan-current">
      <div className={styles.head}>
        <strong className={styles.name} data-testid="my-plan-name">
          {subscription.plan_name}
        </strong>
        <span className={`${styles.badge} ${styles[status]}`} data-testid="my-plan-status">
          {STATUS_LABELS[status]}
        </span>
      </div>
      <p className={styles.note} data-testid="my-plan-expiry">
        {renewalNote(status, subscription.auto_renew, subscription.expires_at)}
      </p>
      {status !== 'expired' ? <AutoRenewSwitch subscription={subscription} /> : null}
    </div>
  );
}

function ReceiptButton({ payment }: { payment: PaymentView }) {
  const [download, { isLoading }] = useDownloadReceiptMutation();
  const save = async () => {
    try {
      const blob = await download(payment.id).unwrap();
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `receipt-${String(payment.created_at).slice(0, 10)}.pdf`;
      a.click();
      // The browser has the file by the next task; the URL only needs to live until then.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      notify.error(getErrorMessage(err, RECEIPT_ERROR));
    }
  };
  return (
    <Button
      size="sm"
      variant="secondary"
      loading={isLoading}
      onClick={() => void save()}
      aria-label={RECEIPT_LABEL}
      data-testid="receipt-download"
    >
      <DownloadIcon size={14} aria-hidden="true" /> PDF
    </Button>
  );
}

// Three narrow columns (date over plan, amount over status) so the history fits a 375 px screen unscrolled.
const COLUMNS: readonly TableColumn<PaymentView>[] = [
  {
    key: 'payment',
    header: 'Платёж',
    cell: (p) => (
      <span className={styles.stack}>
        <span>{formatDate(p.created_at)}</span>
        <span className={styles.minor}>{p.plan_name ?? '—'}</span>
      </span>
    ),
  },
  {
    key: 'amount',
    header: 'Сумма',
    align: 'end',
    cell: (p) => (
      <span className={styles.stack}>
        <span>{formatPrice(p.amount_minor, p.currency)}</span>
        <span className={`${styles.minor} ${p.status === 'paid' ? styles.paid : styles.failed}`}>{PAYMENT_STATUS[p.status]}</span>
      </span>
    ),
  },
  { key: 'receipt', header: 'Чек', align: 'end', cell: (p) => (p.status === 'paid' ? <ReceiptButton payment={p} /> : '—') },
];

/** Settings → "Мой тариф": plan, status, expiry, auto-renew, the Free card, payment history with receipts. */
export function MyPlanSection() {
  const sub = useGetSubscriptionQuery();
  const plans = useGetPlansQuery();
  const payments = useGetPaymentsQuery();
  const subscription = sub.data?.subscription ?? null;
  const onFree = !subscription || subscription.calculated_status === 'expired';
  const free = plans.data?.plans.find((p) => p.name === FREE_PLAN_NAME);
  const failed = sub.isError || payments.isError;

  return (
    <section className="card settings__card" aria-labelledby="my-plan-title" data-testid="my-plan">
      <header className="card__header">
        <h2 id="my-plan-title">{MY_PLAN_TITLE}</h2>
        <p>Тариф, срок действия, автопродление и история платежей.</p>
      </header>
      {failed ? (
        <p className="form__error" role="alert">
          {LOAD_ERROR}
        </p>
      ) : null}
      {subscription ? <CurrentPlan subscription={subscription} /> : null}
      {onFree && free ? <FreePlanCard plan={free} /> : null}
      {sub.isSuccess ? (
        <Link to="/pricing" className={buttonClass({ variant: 'secondary', size: 'sm' })} data-testid="my-plan-change">
          {onFree ? CHOOSE_PLAN : CHANGE_PLAN}
        </Link>
      ) : null}
      <h3 className={styles.subtitle}>{PAYMENTS_TITLE}</h3>
      <div className={styles.history}>
        <Table
          caption={PAYMENTS_TITLE}
          hideCaption
          columns={COLUMNS}
          rows={payments.data?.payments ?? []}
          rowKey={(p) => p.id}
          empty={payments.isLoading ? '…' : PAYMENTS_EMPTY}
          testId="payments-table"
        />
      </div>
    </section>
  );
}
