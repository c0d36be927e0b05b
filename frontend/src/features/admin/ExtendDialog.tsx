import { zodResolver } from '@hookform/resolvers/zod';
import type { SubscriptionView } from '@wb/contracts';
import { useForm } from 'react-hook-form';
import { Dialog, FormFooter, TextField } from '../../components/ui/index.ts';
import { failPlain, succeed } from './alerts.ts';
import { useExtendSubscriptionMutation } from './adminApi.ts';
import { EXTEND_DEFAULT_DAYS, ExtendForm, type ExtendValues } from './forms.ts';
import { TEXTS } from './texts.ts';

const T = TEXTS.subscriptions;

/** §5 / §9: the extend prompt asks for days, 30 by default; a failure says 'Ошибка:' and the message. */
export function ExtendDialog({
  subscription,
  onClose,
}: {
  subscription: SubscriptionView;
  onClose: () => void;
}) {
  const [extend, { isLoading }] = useExtendSubscriptionMutation();
  const { register, handleSubmit, formState } = useForm<ExtendValues, unknown, ExtendValues>({
    resolver: zodResolver(ExtendForm),
    defaultValues: { days: EXTEND_DEFAULT_DAYS },
  });
  const onSubmit = handleSubmit(async ({ days }) => {
    try {
      await extend({ id: subscription.id, days }).unwrap();
      succeed(T.extended);
      onClose();
    } catch (err) {
      failPlain(err);
    }
  });
  return (
    <Dialog
      title={T.extendTitle}
      subtitle={`${subscription.user_name ?? TEXTS.unknownUser} · ${subscription.plan_name}`}
      size="sm"
      onClose={onClose}
      testId="extend-dialog"
      footer={<FormFooter formId="extend-form" submitLabel={T.extend} loading={isLoading} onCancel={onClose} submitTestId="extend-save" />}
    >
      <form id="extend-form" className="form" noValidate onSubmit={(ev) => void onSubmit(ev)}>
        <TextField
          id="extend-days"
          type="number"
          min={1}
          step={1}
          label={T.days}
          error={formState.errors.days?.message}
          {...register('days', { valueAsNumber: true })}
        />
      </form>
    </Dialog>
  );
}
