import { zodResolver } from '@hookform/resolvers/zod';
import type { AdminUser } from '@wb/contracts';
import { useForm } from 'react-hook-form';
import { Dialog, FormFooter, TextField } from '../../components/ui/index.ts';
import { failWith, succeed } from './alerts.ts';
import { useUpdateUserMutation } from './adminApi.ts';
import { UserForm, type UserFormValues } from './forms.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';

const T = TEXTS.users;

/** Spec §2 user editor (§5: name and email required). */
export function UserEditor({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [update, { isLoading }] = useUpdateUserMutation();
  const { register, handleSubmit, formState } = useForm<UserFormValues, unknown, UserFormValues>({
    resolver: zodResolver(UserForm),
    defaultValues: { name: user.name, email: user.email },
  });
  const e = formState.errors;
  const onSubmit = handleSubmit(async (body) => {
    try {
      await update({ id: user.id, body }).unwrap();
      succeed(T.saved);
      onClose();
    } catch (err) {
      failWith(SPEC_TEXTS.userSaveError, err);
    }
  });
  return (
    <Dialog
      title={T.editorTitle}
      subtitle={user.email}
      onClose={onClose}
      testId="user-editor"
      footer={<FormFooter formId="user-form" submitLabel={T.save} loading={isLoading} onCancel={onClose} submitTestId="user-save" />}
    >
      <form id="user-form" className="form" noValidate onSubmit={(ev) => void onSubmit(ev)}>
        <TextField id="user-name" label={T.name} error={e.name?.message} {...register('name')} />
        <TextField
          id="user-email"
          type="email"
          label={T.email}
          error={e.email?.message}
          {...register('email')}
        />
      </form>
    </Dialog>
  );
}
