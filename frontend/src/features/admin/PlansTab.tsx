import type { PlanView } from '@wb/contracts';
import { PencilIcon, PlusIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, ConfirmDialog } from '../../components/ui/index.ts';
import { formatPrice } from '../billing/format.ts';
import { failWith, logFailure, succeed } from './alerts.ts';
import { useDeactivatePlanMutation, useGetAdminPlansQuery } from './adminApi.ts';
import { PlanEditor } from './PlanEditor.tsx';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import a from './admin.module.css';
import styles from './plans.module.css';

const T = TEXTS.plans;

function PlanCard({
  plan,
  onEdit,
  onDeactivate,
}: {
  plan: PlanView;
  onEdit: () => void;
  onDeactivate: () => void;
}) {
  const l = plan.limits_json;
  return (
    <li className={styles.card} data-testid="admin-plan" data-plan={plan.name}>
      <div className={styles.head}>
        <h3>{plan.name}</h3>
        <span className={`${a.badge} ${plan.is_active ? a.green : a.grey}`} data-testid="plan-active">
          {plan.is_active ? SPEC_TEXTS.planActive : SPEC_TEXTS.planInactive}
        </span>
      </div>
      {plan.description ? <p className={styles.desc}>{plan.description}</p> : null}
      <ul className={styles.list} aria-label={T.variants} data-testid="plan-variants">
        {plan.variants.map((v) => (
          <li key={v.id} className={v.is_active ? undefined : a.muted}>
            {v.days} дн. · {formatPrice(v.price_minor, v.currency)} · {v.currency}
          </li>
        ))}
      </ul>
      <p className={styles.desc}>
        {T.boards(l.max_board_count)} · {T.canvas(l.max_canvas_extent_w, l.max_canvas_extent_h)} ·{' '}
        {T.pdf(l.export_pdf_enabled)}
      </p>
      <div className={styles.buttons}>
        <Button size="sm" onClick={onEdit} data-testid="plan-edit">
          <PencilIcon size={14} aria-hidden="true" /> {T.edit}
        </Button>
        {plan.is_active ? (
          <Button size="sm" variant="danger" onClick={onDeactivate} data-testid="plan-deactivate">
            {T.deactivate}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Spec §2 Планы: plan cards with edit and deactivate, and 'Создать план'. */
export function PlansTab() {
  const { data: plans, error } = useGetAdminPlansQuery(undefined, { refetchOnMountOrArgChange: true });
  const [editing, setEditing] = useState<PlanView | 'new' | null>(null);
  const [deactivating, setDeactivating] = useState<PlanView | null>(null);
  const [deactivate] = useDeactivatePlanMutation();
  useEffect(() => {
    if (error) logFailure('plans', error);
  }, [error]);

  return (
    <div>
      <div className={`${a.toolbar} ${a.toolbarEnd}`}>
        <Button variant="primary" onClick={() => setEditing('new')} data-testid="plan-create">
          <PlusIcon size={16} aria-hidden="true" /> {SPEC_TEXTS.createPlan}
        </Button>
      </div>
      {plans && plans.length > 0 ? (
        <ul className={styles.grid} data-testid="admin-plans">
          {plans.map((p) => (
            <PlanCard
              key={p.id}
              plan={p}
              onEdit={() => setEditing(p)}
              onDeactivate={() => setDeactivating(p)}
            />
          ))}
        </ul>
      ) : plans ? (
        <p className={a.empty}>{T.empty}</p>
      ) : null}
      {editing ? (
        <PlanEditor plan={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deactivating ? (
        <ConfirmDialog
          title={T.deactivateTitle}
          message={SPEC_TEXTS.confirmDeactivatePlan}
          confirmLabel={T.deactivate}
          danger
          testId="confirm-deactivate"
          confirmTestId="confirm-deactivate-ok"
          onClose={() => setDeactivating(null)}
          onConfirm={async () => {
            try {
              await deactivate(deactivating.id).unwrap();
              succeed(T.deactivated);
            } catch (err) {
              failWith(SPEC_TEXTS.planDeleteError, err);
            }
          }}
        />
      ) : null}
    </div>
  );
}
