/** Create/rename board and create/rename folder modals. */
import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LIMITS, BOARD_LIMITS } from '@wb/contracts/constants';
import { notify } from '../../lib/notify.ts';
import {
  useCreateBoardMutation,
  useCreateFolderMutation,
  useRenameBoardMutation,
  useUpdateFolderMutation,
} from './api.ts';
import { errorText } from './errors.ts';
import { visibleRows } from './logic.ts';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem, FolderNode } from './types.ts';
import { ColorChoice, Modal, ModalActions } from './ui.tsx';

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
  const [title, setTitle] = useState('');
  const [folderId, setFolderId] = useState<string>(defaultFolderId ?? '');
  const [create, { isLoading }] = useCreateBoardMutation();
  const allRows = visibleRows(folders, new Set(allIds(folders)));
  const disabled = !canCreate || title.trim() === '' || isLoading;

  const submit = async () => {
    const { board } = await create({ title: title.trim(), folder_id: folderId || null }).unwrap();
    notify.success(SPEC.boardCreated);
    onCreated?.(board);
    onClose();
  };

  return (
    <FormModal
      title={OWN.createBoardTitle}
      onClose={onClose}
      testId="create-board-modal"
      size="sm"
      formId="create-board-form"
      onSubmit={submit}
      errorFallback={SPEC.createBoardError}
      disabled={disabled}
      submitLabel={OWN.create}
      submitTestId="create-board-submit"
    >
      {!canCreate ? (
        <div className="notice notice--warning dash-notice">
          <span>{SPEC.boardLimit}</span>
          <Link to="/pricing" className="link-btn">
            {SPEC.upgrade}
          </Link>
        </div>
      ) : null}
      <NameField
        label={OWN.boardTitleLabel}
        value={title}
        onChange={setTitle}
        placeholder={OWN.boardTitlePlaceholder}
        maxLength={BOARD_LIMITS.titleMax}
        data-testid="board-title-input"
        data-autofocus
      />
      <label className="field">
        <span className="field__label">{OWN.folderField}</span>
        <select
          className="input"
          value={folderId}
          onChange={(e) => setFolderId(e.target.value)}
          data-testid="board-folder-select"
        >
          <option value="">{SPEC.noFolder}</option>
          {allRows.map(({ node, depth }) => (
            <option key={node.id} value={node.id}>
              {`${'\u00A0\u00A0\u00A0'.repeat(depth)}${node.name}`}
            </option>
          ))}
        </select>
      </label>
    </FormModal>
  );
}

function allIds(nodes: FolderNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

export function RenameBoardModal({ board, onClose }: { board: BoardListItem; onClose: () => void }) {
  const [title, setTitle] = useState(board.title);
  const [rename, { isLoading }] = useRenameBoardMutation();
  const disabled = title.trim() === '' || isLoading;
  const submit = async () => {
    if (title.trim() === board.title) return onClose();
    await rename({ id: board.id, title: title.trim() }).unwrap();
    notify.success(SPEC.boardUpdated);
    onClose();
  };
  return (
    <FormModal
      title={OWN.renameBoardTitle}
      onClose={onClose}
      testId="rename-board-modal"
      size="sm"
      onSubmit={submit}
      errorFallback={SPEC.updateBoardError}
      disabled={disabled}
      submitLabel={OWN.save}
      submitTestId="rename-board-submit"
    >
      <NameField
        label={OWN.boardTitleLabel}
        value={title}
        onChange={setTitle}
        maxLength={BOARD_LIMITS.titleMax}
        data-testid="board-title-input"
        onFocus={(e) => e.currentTarget.select()}
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
  const [name, setName] = useState(initial?.name ?? '');
  const [color, setColor] = useState((initial?.color ?? LIMITS.defaultFolderColor).toUpperCase());
  const [create, createState] = useCreateFolderMutation();
  const [update, updateState] = useUpdateFolderMutation();
  const busy = createState.isLoading || updateState.isLoading;
  const disabled = name.trim() === '' || busy;

  const title =
    state.mode === 'rename'
      ? OWN.renameFolderTitle
      : state.parent
        ? OWN.createSubfolderTitle
        : OWN.createFolderTitle;

  const submit = async () => {
    if (state.mode === 'create') {
      const { folder } = await create({
        name: name.trim(),
        parent_id: state.parent?.id ?? null,
        color,
      }).unwrap();
      notify.success(SPEC.folderCreated);
      onCreated?.(folder, state.parent);
    } else {
      const patch: { id: string; name?: string; color?: string } = { id: state.folder.id };
      if (name.trim() !== state.folder.name) patch.name = name.trim();
      if (color.toUpperCase() !== state.folder.color.toUpperCase()) patch.color = color;
      if (patch.name === undefined && patch.color === undefined) return onClose();
      await update(patch).unwrap();
      notify.success(SPEC.folderUpdated);
    }
    onClose();
  };

  return (
    <FormModal
      title={title}
      subtitle={
        state.mode === 'create' && state.parent ? `${OWN.inFolder} «${state.parent.name}»` : undefined
      }
      onClose={onClose}
      testId="folder-modal"
      size="md"
      onSubmit={submit}
      errorFallback={state.mode === 'create' ? SPEC.createFolderError : SPEC.updateFolderError}
      disabled={disabled}
      submitLabel={state.mode === 'create' ? OWN.create : OWN.save}
      submitTestId="folder-submit"
    >
      <NameField
        label={OWN.folderNameLabel}
        value={name}
        onChange={setName}
        maxLength={BOARD_LIMITS.folderNameMax}
        data-testid="folder-name-input"
      />
      <div className="field">
        <span className="field__label">{OWN.folderColorLabel}</span>
        <ColorChoice value={color} onChange={setColor} testId="folder-color" />
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
  /** Runs when the form is submitted and not `disabled`; a throw becomes an error toast. */
  onSubmit: () => Promise<void>;
  errorFallback: string;
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
  errorFallback,
  disabled,
  submitLabel,
  submitTestId,
  children,
}: FormModalProps) {
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    try {
      await onSubmit();
    } catch (err) {
      notify.error(errorText(err, errorFallback));
    }
  };
  return (
    <Modal title={title} subtitle={subtitle} onClose={onClose} testId={testId} size={size}>
      <form className="form" onSubmit={submit} id={formId}>
        {children}
        <div className="dash-modal__actions">
          <ModalActions onCancel={onClose} label={submitLabel} disabled={disabled} testId={submitTestId} />
        </div>
      </form>
    </Modal>
  );
}

type NameFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'className'> & {
  label: string;
  onChange: (value: string) => void;
  'data-testid': string;
  'data-autofocus'?: boolean;
};

/** The labelled, autofocused name/title input of a dialog. */
function NameField({ label, onChange, ...input }: NameFieldProps) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input {...input} className="input" onChange={(e) => onChange(e.target.value)} autoFocus />
    </label>
  );
}
