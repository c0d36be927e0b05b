import { zodResolver } from '@hookform/resolvers/zod';
import { DeleteAccountRequest } from '@wb/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { getErrorCode, getErrorMessage } from '../../api/errors.ts';
import { useAppDispatch } from '../../app/store.ts';
import { Button, Dialog, DialogMessage, PasswordField } from '../../components/ui/index.ts';
import { notify } from '../../lib/notify.ts';
import { useDeleteAccountMutation } from '../auth/authApi.ts';
import { accountDeleted } from '../auth/session.ts';

/** The spec is silent on account deletion (issue 32 item 13): our texts, docs/decisions.md. */
export const DELETE_ACCOUNT_TEXTS = {
  title: 'Удаление аккаунта',
  description:
    'Удаляются все ваши доски с их содержимым и изображениями, ссылки доступа к ним, подписка и все входы на других устройствах. Отменить это нельзя.',
  open: 'Удалить аккаунт',
  dialogTitle: 'Удалить аккаунт навсегда?',
  // The subtitle is one line (Dialog truncates it); the explanation goes into the body.
  dialogSubtitle: 'Отменить это нельзя.',
  dialogText: 'Доски, изображения, ссылки и подписка будут удалены без возможности восстановления. Введите пароль, чтобы подтвердить.',
  password: 'Пароль',
  cancel: 'Отмена',
  confirm: 'Удалить навсегда',
  failed: 'Не удалось удалить аккаунт',
} as const;

/** Settings card "Удаление аккаунта": a danger button that opens the confirmation with the password. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <section className="card settings__card" aria-labelledby="delete-account-title" data-testid="delete-account">
      <header className="card__header">
        <h2 id="delete-account-title">{DELETE_ACCOUNT_TEXTS.title}</h2>
        <p>{DELETE_ACCOUNT_TEXTS.description}</p>
      </header>
      <div className="form__actions">
        <Button variant="danger" onClick={() => setOpen(true)} data-testid="delete-account-open">
          {DELETE_ACCOUNT_TEXTS.open}
        </Button>
      </div>
      {open ? <DeleteAccountDialog onClose={() => setOpen(false)} /> : null}
    </section>
  );
}

/**
 * An alertdialog (no dismissal by an outside click); focus starts in the password field, and the
 * destructive button is only reachable with a password the schema accepts.
 */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const { register, handleSubmit, formState, setError } = useForm<DeleteAccountRequest>({
    resolver: zodResolver(DeleteAccountRequest),
    defaultValues: { password: '' },
  });
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation();

  const onSubmit = handleSubmit(async (body) => {
    try {
      await deleteAccount(body).unwrap();
    } catch (err) {
      if (getErrorCode(err) === 'INVALID_CURRENT_PASSWORD') {
        setError('password', { type: 'server', message: getErrorMessage(err, DELETE_ACCOUNT_TEXTS.failed) });
      } else {
        notify.error(getErrorMessage(err, DELETE_ACCOUNT_TEXTS.failed));
      }
      return;
    }
    await accountDeleted(dispatch);
  });

  return (
    <Dialog
      alert
      size="sm"
      title={DELETE_ACCOUNT_TEXTS.dialogTitle}
      subtitle={DELETE_ACCOUNT_TEXTS.dialogSubtitle}
      onClose={onClose}
      testId="delete-account-dialog"
      footer={
        <>
          <Button variant="ghost" size="sm" onClick={onClose} data-testid="delete-account-cancel">
            {DELETE_ACCOUNT_TEXTS.cancel}
          </Button>
          <Button
            variant="danger"
            size="sm"
            type="submit"
            form="delete-account-form"
            loading={isLoading}
            data-testid="delete-account-confirm"
          >
            {DELETE_ACCOUNT_TEXTS.confirm}
          </Button>
        </>
      }
    >
      <form id="delete-account-form" className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <DialogMessage>{DELETE_ACCOUNT_TEXTS.dialogText}</DialogMessage>
        <PasswordField
          id="delete-account-password"
          label={DELETE_ACCOUNT_TEXTS.password}
          error={formState.errors.password?.message}
          autoComplete="current-password"
          {...register('password')}
        />
      </form>
    </Dialog>
  );
}
