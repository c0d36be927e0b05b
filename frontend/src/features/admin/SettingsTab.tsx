import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_GRACE_DAYS, type SystemConfigView } from '@wb/contracts';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Switch, TextField } from '../../components/ui/index.ts';
import { failPlain, logFailure, succeed } from './alerts.ts';
import { useGetConfigQuery, useSaveConfigMutation } from './adminApi.ts';
import { ConfigForm, type ConfigPayload, type ConfigValues } from './forms.ts';
import { TEXTS } from './texts.ts';
import a from './admin.module.css';

const T = TEXTS.settings;
/** §9: grace days shown by default (before the config arrives): 3. */
const SHOWN_BEFORE_LOAD: ConfigValues = {
  billing_enabled: false,
  limits_enabled: false,
  grace_days: DEFAULT_GRACE_DAYS,
};

/**
 * Spec §2 Настройки: billing and limits switches and the grace period, all three sent at once on
 * each change (PUT /admin/config). The number is sent when it is committed (Enter or leaving the
 * field), not at every keystroke: typing 10 would otherwise send 1 first and end graces at once.
 */
export function SettingsTab() {
  const { data: config, error } = useGetConfigQuery(undefined, { refetchOnMountOrArgChange: true });
  const [save, { isLoading }] = useSaveConfigMutation();
  const { control, register, handleSubmit, reset, formState, getValues } = useForm<
    ConfigValues,
    unknown,
    ConfigPayload
  >({
    resolver: zodResolver(ConfigForm),
    defaultValues: config ?? SHOWN_BEFORE_LOAD,
  });
  useEffect(() => {
    if (config) reset(config);
  }, [config, reset]);
  useEffect(() => {
    if (error) logFailure('config', error);
  }, [error]);

  const send = handleSubmit(async (values) => {
    if (config && sameConfig({ ...config, ...values }, config)) return;
    try {
      const saved = await save(values).unwrap();
      reset(saved);
      succeed(T.saved);
    } catch (err) {
      if (config) reset(config);
      failPlain(err);
    }
  });

  return (
    <form className={a.settings} noValidate onSubmit={(ev) => void send(ev)} data-testid="admin-settings">
      {(['billing_enabled', 'limits_enabled'] as const).map((name) => (
        <Controller
          key={name}
          control={control}
          name={name}
          render={({ field }) => (
            <Switch
              checked={field.value}
              disabled={!config || isLoading}
              label={name === 'billing_enabled' ? T.billing : T.limits}
              testId={`config-${name}`}
              onCheckedChange={(v) => {
                field.onChange(v);
                void send();
              }}
            />
          )}
        />
      ))}
      <TextField
        id="config-grace-days"
        type="number"
        min={0}
        max={365}
        step={1}
        label={T.graceDays}
        disabled={!config}
        error={formState.errors.grace_days?.message}
        {...register('grace_days', {
          valueAsNumber: true,
          onBlur: () => {
            if (config && getValues('grace_days') !== config.grace_days) void send();
          },
        })}
      />
    </form>
  );
}

function sameConfig(a: ConfigValues, b: SystemConfigView): boolean {
  return (
    a.billing_enabled === b.billing_enabled &&
    a.limits_enabled === b.limits_enabled &&
    a.grace_days === b.grace_days
  );
}
