import { zodResolver } from '@hookform/resolvers/zod';
import { CURRENCIES, type PlanView } from '@wb/contracts';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { Controller, useFieldArray, useForm, type Control } from 'react-hook-form';
import { Button, Dialog, FormFooter, SelectField, Switch, TextField } from '../../components/ui/index.ts';
import { failWith, succeed } from './alerts.ts';
import { useSavePlanMutation } from './adminApi.ts';
import {
  DEFAULT_VARIANT,
  PlanForm,
  newPlanValues,
  planValues,
  type PlanFormValues,
  type PlanPayload,
} from './forms.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import styles from './plans.module.css';

const T = TEXTS.plans;

function BoolField({
  control,
  name,
  label,
  testId,
}: {
  control: Control<PlanFormValues, unknown, PlanPayload>;
  name: `variants.${number}.is_active` | 'is_active' | 'export_pdf_enabled';
  label: string;
  testId: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch checked={!!field.value} onCheckedChange={field.onChange} label={label} testId={testId} />
      )}
    />
  );
}

/**
 * Spec §2 plan editor with §5's rules: name required, at least one variant (the remove button is
 * hidden on the last), days ≥ 1, price ≥ 0 in steps of 0.01 sent ×100, RUB/USD/EUR, one canvas size.
 */
export function PlanEditor({ plan, onClose }: { plan: PlanView | null; onClose: () => void }) {
  const [save, { isLoading }] = useSavePlanMutation();
  const { register, control, handleSubmit, formState } = useForm<PlanFormValues, unknown, PlanPayload>({
    resolver: zodResolver(PlanForm),
    defaultValues: plan ? planValues(plan) : newPlanValues(),
  });
  const variants = useFieldArray({ control, name: 'variants' });
  const e = formState.errors;
  const listError = e.variants?.root?.message ?? e.variants?.message;

  const onSubmit = handleSubmit(async (body) => {
    try {
      await save({ id: plan?.id, body }).unwrap();
      succeed(T.saved);
      onClose();
    } catch (err) {
      failWith(SPEC_TEXTS.planSaveError, err);
    }
  });

  return (
    <Dialog
      title={plan ? T.editorEdit : T.editorCreate}
      onClose={onClose}
      size="lg"
      testId="plan-editor"
      footer={<FormFooter formId="plan-form" submitLabel={T.save} loading={isLoading} onCancel={onClose} submitTestId="plan-save" />}
    >
      <form id="plan-form" className={styles.form} noValidate onSubmit={(ev) => void onSubmit(ev)}>
        <TextField id="plan-name" label={T.name} error={e.name?.message} {...register('name')} />
        <TextField
          id="plan-description"
          label={T.description}
          error={e.description?.message}
          {...register('description')}
        />
        <BoolField control={control} name="is_active" label={T.isActive} testId="plan-is-active" />
        <div className={styles.row2}>
          <TextField
            id="plan-max-boards"
            type="number"
            step={1}
            min={-1}
            label={T.maxBoards}
            error={e.max_board_count?.message}
            {...register('max_board_count', { valueAsNumber: true })}
          />
          <TextField
            id="plan-canvas"
            type="number"
            step={1}
            min={100}
            label={T.canvasSize}
            error={e.canvas_size?.message}
            {...register('canvas_size', { valueAsNumber: true })}
          />
        </div>
        <BoolField control={control} name="export_pdf_enabled" label={T.exportPdf} testId="plan-pdf" />
        <fieldset className={styles.variants} data-testid="plan-variant-list">
          <legend>{T.variants}</legend>
          {variants.fields.map((v, i) => {
            const ve = e.variants?.[i];
            return (
              <div key={v.id} className={styles.variant} data-testid="plan-variant-row">
                <TextField
                  id={`variant-${i}-days`}
                  type="number"
                  min={1}
                  step={1}
                  label={T.variantDays}
                  error={ve?.days?.message}
                  {...register(`variants.${i}.days`, { valueAsNumber: true })}
                />
                <TextField
                  id={`variant-${i}-price`}
                  type="number"
                  min={0}
                  step={0.01}
                  inputMode="decimal"
                  label={T.variantPrice}
                  error={ve?.price?.message}
                  {...register(`variants.${i}.price`, { valueAsNumber: true })}
                />
                <SelectField
                  id={`variant-${i}-currency`}
                  label={T.variantCurrency}
                  error={ve?.currency?.message}
                  {...register(`variants.${i}.currency`)}
                >
                  {CURRENCIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </SelectField>
                <div className={styles.variantFoot}>
                  <BoolField
                    control={control}
                    name={`variants.${i}.is_active`}
                    label={T.variantActive}
                    testId={`variant-${i}-active`}
                  />
                  {variants.fields.length > 1 ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => variants.remove(i)}
                      aria-label={`${T.removeVariant} ${i + 1}`}
                      data-testid="variant-remove"
                    >
                      <Trash2Icon size={14} aria-hidden="true" /> {T.removeVariant}
                    </Button>
                  ) : null}
                </div>
              </div>
            );
          })}
          {listError ? (
            <p className={styles.listError} role="alert" data-testid="variants-error">
              {listError}
            </p>
          ) : null}
          <div>
            <Button
              size="sm"
              onClick={() => variants.append({ ...DEFAULT_VARIANT })}
              data-testid="variant-add"
            >
              <PlusIcon size={14} aria-hidden="true" /> {T.addVariant}
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
