/**
 * Create/rename board and create/rename folder dialogs: react-hook-form over the contract schemas in
 * forms.ts (loaded with these dialogs, not with the page). Submit stays disabled while the form is
 * invalid (spec §5: an empty trimmed name); a field's message shows once it was edited.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEventHandler, ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { BOARD_LIMITS, LIMITS } from '@wb/contracts/constants';
import { Dialog, FormFooter, SelectField, TextField } from '../../components/ui/index.ts';
import { notify } from '../../lib/notify.ts';
import {
  useCreateBoardMutation,
  useCreateFolderMutation,
  useRenameBoardMutation,
  useUpdateFolderMutation,
} from './api.ts';
import { ColorChoice } from './ColorChoice.tsx';
import { errorText } from './errors.ts';
import {
  BoardTitleForm,
  CreateBoardForm,
  FolderForm,
  type BoardTitleFormValues,
  type CreateBoardFormValues,
  type FolderFormValues,
} from './forms.ts';
import { visibleRows } from './logic.ts';
import styles from './modals.module.css';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem, FolderNode } from './types.ts';
import type { z } from 'zod';

/** Runs a submit; a failed call becomes an error toast with the call's message or `fallback`. */
const withErrorToast =
  <T,>(fallback: string, run: (values: T) => Promise<void>) =>
  async (values: T) => {
    try {
      await run(values);
    } catch (err) {
      notify.error(errorText(err, fallback));
    }
  };

export function CreateBoardModal({
  onClose,
  canCreate,
  folders,
  defaultFolderId,
  onCreated,
}: {
  onClose: () => void;
  canCreate: boolean;
  folders: FolderNode[];
  defaultFolderId: string | null;
  onCreated?: (b: BoardListItem) => void;
}) {
  const { register, handleSubmit, formState } = useForm<
    CreateBoardFormValues,
    unknown,
    z.output<typeof CreateBoardForm>
  >({
    resolver: zodResolver(CreateBoardForm),
    mode: 'onChange',
    defaultValues: { title: '', folder_id: defaultFolderId ?? '' },
  });
  const [create, { isLoading }] = useCreateBoardMutation();
  const allRows = visibleRows(folders, new Set(allIds(folders)));

  const onSubmit = handleSubmit(
    withErrorToast(SPEC.createBoardError, async (values) => {
      const { board } = await create(values).unwrap();
      notify.success(SPEC.boardCreated);
      onCreated?.(board);
      onClose();
    }),
  );

  return (
    <FormModal
      title={OWN.createBoardTitle}
      onClose={onClose}
      testId="create-board-modal"
      size="sm"
      formId="create-board-form"
      onSubmit={onSubmit}
      disabled={!canCreate || !formState.isValid || isLoading}
      submitLabel={OWN.create}
      submitTestId="create-board-submit"
    >
      {!canCreate ? (
        <div className={`notice notice--warning ${styles.notice}`}>
          <span>{SPEC.boardLimit}</span>
          <Link to="/pricing" className={styles.linkButton}>
            {SPEC.upgrade}
          </Link>
        </div>
      ) : null}
      <TextField
        id="board-title"
        label={OWN.boardTitleLabel}
        placeholder={OWN.boardTitlePlaceholder}
        maxLength={BOARD_LIMITS.titleMax}
        autoComplete="off"
        data-testid="board-title-input"
        data-autofocus
        error={formState.errors.title?.message}
        {...register('title')}
      />
      <SelectField id="board-folder" label={OWN.folderField} data-testid="board-folder-select" {...register('folder_id')}>
        <option value="">{SPEC.noFolder}</option>
        {allRows.map(({ node, depth }) => (
          <option key={node.id} value={node.id}>
            {`${'\u00A0\u00A0\u00A0'.repeat(depth)}${node.name}`}
          </option>
        ))}
      </SelectField>
    </FormModal>
  );
}

function allIds(nodes: FolderNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

export function RenameBoardModal({ board, onClose }: { board: BoardListItem; onClose: () => void }) {
  const { register, handleSubmit, formState } = useForm<
    BoardTitleFormValues,
    unknown,
    z.output<typeof BoardTitleForm>
  >({ resolver: zodResolver(BoardTitleForm), mode: 'onChange', defaultValues: { title: board.title } });
  const [rename, { isLoading }] = useRenameBoardMutation();

  const onSubmit = handleSubmit(
    withErrorToast(SPEC.updateBoardError, async ({ title }) => {
      if (title === board.title) return onClose();
      await rename({ id: board.id, title }).unwrap();
      notify.success(SPEC.boardUpdated);
      onClose();
    }),
  );
  return (
    <FormModal
      title={OWN.renameBoardTitle}
      onClose={onClose}
      testId="rename-board-modal"
      size="sm"
      onSubmit={onSubmit}
      disabled={!formState.isValid || isLoading}
      submitLabel={OWN.save}
      submitTestId="rename-board-submit"
    >
      <TextField
        id="board-title"
        label={OWN.boardTitleLabel}
        maxLength={BOARD_LIMITS.titleMax}
        autoComplete="off"
        data-testid="board-title-input"
        data-autofocus
        onFocus={(e) => e.currentTarget.select()}
        error={formState.errors.title?.message}
        {...register('title')}
      />
    </FormModal>
  );
}

export type FolderModalState =
  { mode: 'create'; parent: FolderNode | null } | { mode: 'rename'; folder: FolderNode };

export function FolderModal({
  state,
  onClose,
  onCreated,
}: {
  state: FolderModalState;
  onClose: () => void;
  onCreated?: (f: FolderNode, parent: FolderNode | null) => void;
}) {
  const initial = state.mode === 'rename' ? state.folder : null;
  const { register, handleSubmit, formState, control } = useForm<
    FolderFormValues,
    unknown,
    z.output<typeof FolderForm>
  >({
    resolver: zodResolver(FolderForm),
    mode: 'onChange',
    defaultValues: {
      name: initial?.name ?? '',
      color: (initial?.color ?? LIMITS.defaultFolderColor).toUpperCase(),
    },
  });
  const [create, createState] = useCreateFolderMutation();
  const [update, updateState] = useUpdateFolderMutation();
  const busy = createState.isLoading || updateState.isLoading;

  const title =
    state.mode === 'rename'
      ? OWN.renameFolderTitle
      : state.parent
        ? OWN.createSubfolderTitle
        : OWN.createFolderTitle;

  const onSubmit = handleSubmit(
    withErrorToast(
      state.mode === 'create' ? SPEC.createFolderError : SPEC.updateFolderError,
      async ({ name, color }) => {
        if (state.mode === 'create') {
          const { folder } = await create({ name, parent_id: state.parent?.id ?? null, color }).unwrap();
          notify.success(SPEC.folderCreated);
          onCreated?.(folder, state.parent);
        } else {
          // Only what changed is sent; nothing changed closes the dialog without a call.
          const patch: { id: string; name?: string; color?: string } = { id: state.folder.id };
          if (name !== state.folder.name) patch.name = name;
          if (color.toUpperCase() !== state.folder.color.toUpperCase()) patch.color = color;
          if (patch.name === undefined && patch.color === undefined) return onClose();
          await update(patch).unwrap();
          notify.success(SPEC.folderUpdated);
        }
        onClose();
      },
    ),
  );

  return (
    <FormModal
      title={title}
      subtitle={
        state.mode === 'create' && state.parent ? `${OWN.inFolder} «${state.parent.name}»` : undefined
      }
      onClose={onClose}
      testId="folder-modal"
      size="md"
      onSubmit={onSubmit}
      disabled={!formState.isValid || busy}
      submitLabel={state.mode === 'create' ? OWN.create : OWN.save}
      submitTestId="folder-submit"
    >
      <TextField
        id="folder-name"
        label={OWN.folderNameLabel}
        maxLength={BOARD_LIMITS.folderNameMax}
        autoComplete="off"
        data-testid="folder-name-input"
        data-autofocus
        error={formState.errors.name?.message}
        {...register('name')}
      />
      <div className={styles.field}>
        <span className={styles.label}>{OWN.folderColorLabel}</span>
        <Controller
          control={control}
          name="color"
          render={({ field }) => <ColorChoice value={field.value} onChange={field.onChange} testId="folder-color" />}
        />
      </div>
    </FormModal>
  );
}

// ---------- the shared skeleton ----------

interface FormModalProps {
  title: string;
  subtitle?: string;
  size: 'sm' | 'md';
  testId: string;
  formId?: string;
  onClose: () => void;
  /** handleSubmit of the dialog's form (it validates; failures of the call become toasts). */
  onSubmit: FormEventHandler<HTMLFormElement>;
  disabled: boolean;
  submitLabel: string;
  submitTestId: string;
  children: ReactNode;
}

/** A dialog holding one form that ends with Cancel and a primary submit button. */
function FormModal({
  title,
  subtitle,
  size,
  testId,
  formId,
  onClose,
  onSubmit,
  disabled,
  submitLabel,
  submitTestId,
  children,
}: FormModalProps) {
  return (
    <Dialog title={title} subtitle={subtitle} onClose={onClose} testId={testId} size={size}>
      <form className={styles.form} onSubmit={onSubmit} id={formId} noValidate>
        {children}
        <div className={styles.actions}>
          <FormFooter onCancel={onClose} submitLabel={submitLabel} disabled={disabled} submitTestId={submitTestId} size="sm" />
        </div>
      </form>
    </Dialog>
  );
}
