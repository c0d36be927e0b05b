/** Create/rename board and create/rename folder modals. */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LIMITS, BOARD_LIMITS } from '@wb/contracts';
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
import { ColorChoice, Modal } from './ui.tsx';

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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    try {
      const { board } = await create({ title: title.trim(), folder_id: folderId || null }).unwrap();
      notify.success(SPEC.boardCreated);
      onCreated?.(board);
      onClose();
    } catch (err) {
      notify.error(errorText(err, SPEC.createBoardError));
    }
  };

  return (
    <Modal title={OWN.createBoardTitle} onClose={onClose} testId="create-board-modal" size="sm">
      <form className="form" onSubmit={submit} id="create-board-form">
        {!canCreate ? (
          <div className="notice notice--warning dash-notice">
            <span>{SPEC.boardLimit}</span>
            <Link to="/pricing" className="link-btn">
              {SPEC.upgrade}
            </Link>
          </div>
        ) : null}
        <label className="field">
          <span className="field__label">{OWN.boardTitleLabel}</span>
          <input
            className="input"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder={OWN.boardTitlePlaceholder}
            maxLength={BOARD_LIMITS.titleMax}
            data-testid="board-title-input"
            data-autofocus
            autoFocus
          />
        </label>
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
        <div className="dash-modal__actions">
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
            {OWN.cancel}
          </button>
          <button
            type="submit"
            className="btn btn--primary btn--sm"
            disabled={disabled}
            data-testid="create-board-submit"
          >
            {OWN.create}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function allIds(nodes: FolderNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

export function RenameBoardModal({ board, onClose }: { board: BoardListItem; onClose: () => void }) {
  const [title, setTitle] = useState(board.title);
  const [rename, { isLoading }] = useRenameBoardMutation();
  const disabled = title.trim() === '' || isLoading;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    if (title.trim() === board.title) return onClose();
    try {
      await rename({ id: board.id, title: title.trim() }).unwrap();
      notify.success(SPEC.boardUpdated);
      onClose();
    } catch (err) {
      notify.error(errorText(err, SPEC.updateBoardError));
    }
  };
  return (
    <Modal title={OWN.renameBoardTitle} onClose={onClose} testId="rename-board-modal" size="sm">
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span className="field__label">{OWN.boardTitleLabel}</span>
          <input
            className="input"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={BOARD_LIMITS.titleMax}
            data-testid="board-title-input"
            autoFocus
            onFocus={(e) => e.currentTarget.select()}
          />
        </label>
        <div className="dash-modal__actions">
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
            {OWN.cancel}
          </button>
          <button
            type="submit"
            className="btn btn--primary btn--sm"
            disabled={disabled}
            data-testid="rename-board-submit"
          >
            {OWN.save}
          </button>
        </div>
      </form>
    </Modal>
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

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    try {
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
    } catch (err) {
      notify.error(errorText(err, state.mode === 'create' ? SPEC.createFolderError : SPEC.updateFolderError));
    }
  };

  return (
    <Modal
      title={title}
      subtitle={
        state.mode === 'create' && state.parent ? `${OWN.inFolder} «${state.parent.name}»` : undefined
      }
      onClose={onClose}
      testId="folder-modal"
      size="md"
    >
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span className="field__label">{OWN.folderNameLabel}</span>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={BOARD_LIMITS.folderNameMax}
            data-testid="folder-name-input"
            autoFocus
          />
        </label>
        <div className="field">
          <span className="field__label">{OWN.folderColorLabel}</span>
          <ColorChoice value={color} onChange={setColor} testId="folder-color" />
        </div>
        <div className="dash-modal__actions">
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
            {OWN.cancel}
          </button>
          <button
            type="submit"
            className="btn btn--primary btn--sm"
            disabled={disabled}
            data-testid="folder-submit"
          >
            {state.mode === 'create' ? OWN.create : OWN.save}
          </button>
        </div>
      </form>
    </Modal>
  );
}
