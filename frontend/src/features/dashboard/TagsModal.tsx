/** Board tags (§2): pick the user's tags for a board, create, rename/recolour and delete tags. */
import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { TAG_PALETTE } from '@wb/contracts/constants';
import { notify } from '../../lib/notify.ts';
import {
  useCreateTagMutation,
  useDeleteTagMutation,
  useGetBoardTagsQuery,
  useGetTagsQuery,
  useSetBoardTagsMutation,
  useUpdateTagMutation,
} from './api.ts';
import { errorText } from './errors.ts';
import { CheckIcon, PenLineIcon, PlusIcon, TrashIcon } from 'lucide-react';
import { TAG_NAME_MAX, validTagName } from './logic.ts';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem, TagView } from './types.ts';
import { ColorChoice, Modal, ModalActions, useConfirm } from './ui.tsx';

export function TagsModal({ board, onClose }: { board: BoardListItem; onClose: () => void }) {
  const tagsQuery = useGetTagsQuery();
  const boardTags = useGetBoardTagsQuery(board.id, { refetchOnMountOrArgChange: true });
  const [selected, setSelected] = useState<string[] | null>(null);
  const [setBoardTags, saveState] = useSetBoardTagsMutation();
  const [editing, setEditing] = useState<string | null>(null);
  const tags = tagsQuery.data?.tags ?? [];
  const initial = boardTags.data?.tags.map((t) => t.id) ?? board.tags.map((t) => t.id);

  // Start from the board's tags once they are known.
  useEffect(() => {
    if (selected === null && boardTags.data) setSelected(boardTags.data.tags.map((t) => t.id));
  }, [boardTags.data, selected]);

  const current = selected ?? initial;
  const toggle = (id: string) =>
    setSelected((s) => {
      const base = s ?? initial;
      return base.includes(id) ? base.filter((x) => x !== id) : [...base, id];
    });

  const save = async () => {
    // Tags deleted meanwhile are not sent.
    const known = new Set(tags.map((t) => t.id));
    const tagIds = current.filter((id) => known.has(id));
    try {
      await setBoardTags({ id: board.id, tagIds }).unwrap();
      notify.success(SPEC.boardTagsUpdated);
      onClose();
    } catch (err) {
      notify.error(errorText(err, SPEC.boardTagsError));
    }
  };

  return (
    <Modal
      title={OWN.tagsTitle}
      subtitle={board.title}
      onClose={onClose}
      testId="tags-modal"
      footer={
        <ModalActions
          onCancel={onClose}
          onConfirm={save}
          label={OWN.save}
          disabled={saveState.isLoading}
          testId="tags-save"
        />
      }
    >
      <div className="tags-modal">
        <NewTagForm onCreated={(t) => setSelected((s) => [...(s ?? initial), t.id])} />
        <ul className="tag-list" data-testid="tag-list">
          {tagsQuery.isLoading ? <li className="tag-list__empty">…</li> : null}
          {!tagsQuery.isLoading && tags.length === 0 ? (
            <li className="tag-list__empty">{OWN.noTags}</li>
          ) : null}
          {tags.map((t) =>
            editing === t.id ? (
              <TagEditRow key={t.id} tag={t} onDone={() => setEditing(null)} />
            ) : (
              <TagRow
                key={t.id}
                tag={t}
                checked={current.includes(t.id)}
                onToggle={() => toggle(t.id)}
                onEdit={() => setEditing(t.id)}
                onDeleted={() => setSelected((s) => (s ?? initial).filter((x) => x !== t.id))}
              />
            ),
          )}
        </ul>
      </div>
    </Modal>
  );
}

function NewTagForm({ onCreated }: { onCreated: (t: TagView) => void }) {
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>(TAG_PALETTE[0]);
  const [create, { isLoading }] = useCreateTagMutation();
  const ok = validTagName(name) && !isLoading;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ok) return;
    try {
      const { tag } = await create({ name: name.trim(), color }).unwrap();
      notify.success(SPEC.tagCreated);
      setName('');
      onCreated(tag);
    } catch (err) {
      notify.error(errorText(err, SPEC.createTagError));
    }
  };
  return (
    <form className="new-tag" onSubmit={submit} data-testid="new-tag-form">
      <span className="field__label">{OWN.newTag}</span>
      <div className="new-tag__row">
        <input
          className="input input--sm"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={OWN.tagNamePlaceholder}
          maxLength={TAG_NAME_MAX}
          data-testid="new-tag-name"
        />
        <button
          type="submit"
          className="btn btn--primary btn--sm"
          disabled={!ok}
          data-testid="new-tag-submit"
        >
          <PlusIcon size={15} />
          {OWN.addTag}
        </button>
      </div>
      <ColorChoice value={color} onChange={setColor} testId="new-tag-color" />
    </form>
  );
}

function TagRow({
  tag,
  checked,
  onToggle,
  onEdit,
  onDeleted,
}: {
  tag: TagView;
  checked: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const confirm = useConfirm();
  const [remove, { isLoading }] = useDeleteTagMutation();
  const onDelete = async () => {
    const yes = await confirm({ title: OWN.deleteTagTitle(tag.name), message: SPEC.deleteTagConfirm });
    if (!yes) return;
    try {
      await remove(tag.id).unwrap();
      notify.success(SPEC.tagDeleted);
      onDeleted();
    } catch (err) {
      notify.error(errorText(err, SPEC.deleteTagError));
    }
  };
  return (
    <li className={`tag-row${checked ? ' tag-row--on' : ''}`} data-testid="tag-row" data-tag-name={tag.name}>
      <label className="tag-row__label">
        <input
          type="checkbox"
          className="checkbox"
          checked={checked}
          onChange={onToggle}
          data-testid="tag-checkbox"
        />
        <span className="tag-chip" style={{ '--tag-color': tag.color } as CSSProperties}>
          {tag.name}
        </span>
      </label>
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        onClick={onEdit}
        aria-label={OWN.editTag}
        title={OWN.editTag}
        data-testid="tag-edit"
      >
        <PenLineIcon size={15} />
      </button>
      <button
        type="button"
        className="icon-btn icon-btn--sm icon-btn--danger"
        onClick={onDelete}
        disabled={isLoading}
        aria-label={OWN.deleteTag}
        title={OWN.deleteTag}
        data-testid="tag-delete"
      >
        <TrashIcon size={15} />
      </button>
    </li>
  );
}

function TagEditRow({ tag, onDone }: { tag: TagView; onDone: () => void }) {
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color.toUpperCase());
  const [update, { isLoading }] = useUpdateTagMutation();
  const ok = validTagName(name) && !isLoading;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ok) return;
    if (name.trim() === tag.name && color === tag.color.toUpperCase()) return onDone();
    try {
      await update({ id: tag.id, name: name.trim(), color }).unwrap();
      notify.success(SPEC.tagUpdated);
      onDone();
    } catch (err) {
      notify.error(errorText(err, SPEC.updateTagError));
    }
  };
  return (
    <li className="tag-row tag-row--editing" data-testid="tag-edit-row">
      <form className="tag-edit" onSubmit={submit}>
        <div className="new-tag__row">
          <input
            className="input input--sm"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={TAG_NAME_MAX}
            autoFocus
            data-testid="tag-edit-name"
          />
          <button type="button" className="btn btn--ghost btn--sm" onClick={onDone}>
            {OWN.cancel}
          </button>
          <button
            type="submit"
            className="btn btn--primary btn--sm"
            disabled={!ok}
            data-testid="tag-edit-save"
          >
            <CheckIcon size={15} />
            {OWN.save}
          </button>
        </div>
        <ColorChoice value={color} onChange={setColor} />
      </form>
    </li>
  );
}
