import { zodResolver } from '@hookform/resolvers/zod';
import { SUBSCRIPTION_STATUSES, type AdminUser, type SubscriptionView } from '@wb/contracts';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, FormFooter, SelectField, TextField } from '../../components/ui/index.ts';
import { failWith, succeed } from './alerts.ts';
import {
  useCreateSubscriptionMutation,
  useGetAdminPlansQuery,
  useGetAdminUsersQuery,
  useUpdateSubscriptionMutation,
} from './adminApi.ts';
import {
  EXTEND_DEFAULT_DAYS,
  SubscriptionCreateForm,
  SubscriptionEditForm,
  subscriptionEditValues,
  type SubscriptionCreateValues,
  type SubscriptionEditValues,
} from './forms.ts';
import { SearchBox } from './SearchBox.tsx';
import { SPEC_TEXTS } from './specTexts.ts';
import { STATUS_LABELS, TEXTS } from './texts.ts';

const T = TEXTS.subscriptions;

export type SubscriptionEditorMode =
  { kind: 'create'; user?: AdminUser } | { kind: 'edit'; subscription: SubscriptionView };

/** The plans to offer: active ones, plus the subscription's own plan even when it was deactivated. */
function usePlanOptions(keepId?: string) {
  const { data } = useGetAdminPlansQuery();
  return (data ?? []).filter((p) => p.is_active || p.id === keepId);
}

function CreateForm({ user, onClose }: { user?: AdminUser; onClose: () => void }) {
  const plans = usePlanOptions();
  // The list holds the newest matches only: a search narrows it to the one wanted.
  const [userSearch, setUserSearch] = useState('');
  const { data: users } = useGetAdminUsersQuery(userSearch, { skip: !!user });
  const [create, { isLoading }] = useCreateSubscriptionMutation();
  const { register, handleSubmit, formState } = useForm<
    SubscriptionCreateValues,
    unknown,
    SubscriptionCreateValues
  >({
    resolver: zodResolver(SubscriptionCreateForm),
    defaultValues: { user_id: user?.id ?? '', plan_id: '', days: EXTEND_DEFAULT_DAYS },
  });
  const e = formState.errors;
  const onSubmit = handleSubmit(async (body) => {
    try {
      await create(body).unwrap();
      succeed(T.saved);
      onClose();
    } catch (err) {
      failWith(SPEC_TEXTS.subscriptionSaveError, err);
    }
  });
  const people = user ? [user] : (users?.users ?? []);
  return (
    <EditorDialog title={T.editorCreate} subtitle={user?.email} onClose={onClose} loading={isLoading}>
      <form id="subscription-form" className="form" noValidate onSubmit={(ev) => void onSubmit(ev)}>
        {user ? null : (
          <SearchBox id="subscription-user-search" label={T.findUser} onSearch={setUserSearch} />
        )}
        <SelectField
          id="subscription-user"
          label={T.user}
          error={e.user_id?.message}
          disabled={!!user}
          {...register('user_id')}
        >
          {user ? null : <option value="">{T.chooseUser}</option>}
          {people.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.email})
            </option>
          ))}
        </SelectField>
        <SelectField
          id="subscription-plan"
          label={T.plan}
          error={e.plan_id?.message}
          {...register('plan_id')}
        >
          <option value="">{T.choosePlan}</option>
          {plans.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <TextField
          id="subscription-days"
          type="number"
          min={1}
          step={1}
          label={T.days}
          error={e.days?.message}
          {...register('days', { valueAsNumber: true })}
        />
      </form>
    </EditorDialog>
  );
}

function EditForm({ subscription, onClose }: { subscription: SubscriptionView; onClose: () => void }) {
  const plans = usePlanOptions(subscription.plan_id);
  const [update, { isLoading }] = useUpdateSubscriptionMutation();
  const { register, handleSubmit, formState } = useForm<
    SubscriptionEditValues,
    unknown,
    SubscriptionEditValues
  >({
    resolver: zodResolver(SubscriptionEditForm),
    defaultValues: subscriptionEditValues(subscription),
  });
  const e = formState.errors;
  const onSubmit = handleSubmit(async (body) => {
    try {
      await update({ id: subscription.id, body }).unwrap();
      succeed(T.saved);
      onClose();
    } catch (err) {
      failWith(SPEC_TEXTS.subscriptionSaveError, err);
    }
  });
  return (
    <EditorDialog
      title={T.editorEdit}
      subtitle={subscription.user_name ?? undefined}
      onClose={onClose}
      loading={isLoading}
    >
      <form id="subscription-form" className="form" noValidate onSubmit={(ev) => void onSubmit(ev)}>
        <SelectField
          id="subscription-plan"
          label={T.plan}
          error={e.plan_id?.message}
          {...register('plan_id')}
        >
          {plans.length === 0 ? <option value={subscription.plan_id}>{subscription.plan_name}</option> : null}
          {plans.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <TextField
          id="subscription-expires"
          type="datetime-local"
          label={T.expires}
          error={e.expires_at?.message}
          {...register('expires_at')}
        />
        <SelectField
          id="subscription-status"
          label={T.status}
          error={e.status?.message}
          {...register('status')}
        >
          {SUBSCRIPTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
      </form>
    </EditorDialog>
  );
}

function EditorDialog(props: {
  title: string;
  subtitle?: string;
  onClose: () => void;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog
      title={props.title}
      subtitle={props.subtitle}
      onClose={props.onClose}
      testId="subscription-editor"
      footer={<FormFooter formId="subscription-form" submitLabel={T.save} loading={props.loading} onCancel={props.onClose} submitTestId="subscription-save" />}
    >
      {props.children}
    </Dialog>
  );
}

/** Spec §2 subscription editor: create (user, plan, days ≥ 1) or edit (plan, expiry, status), §5. */
export function SubscriptionEditor({ mode, onClose }: { mode: SubscriptionEditorMode; onClose: () => void }) {
  return mode.kind === 'create' ? (
    <CreateForm user={mode.user} onClose={onClose} />
  ) : (
    <EditForm subscription={mode.subscription} onClose={onClose} />
  );
}
