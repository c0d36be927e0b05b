/** Board tags (§2): pick the user's tags for a board, create, rename/recolour and delete tags. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { LIMITS, TAG_PALETTE } from '@wb/contracts/constants';
import type { z } from 'zod';
import { Button, Dialog, FormFooter, IconButton, TextField, useConfirm } from '../../components/ui/index.ts';
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
import { ColorChoice } from './ColorChoice.tsx';
import { TagForm, type TagFormValues } from './forms.ts';
import { OWN, SPEC } from './texts.ts';
import type { BoardListItem, TagView } from './types.ts';
import shared from './shared.module.css';
import styles from './TagsModal.module.css';
import { tagChipStyle } from './tagColors.ts';

type TagFormOutput = z.output<typeof TagForm>;

/** The tag forms: react-hook-form over the contract's tag schema; invalid (an empty trimmed name) disables saving. */
function useTagForm(defaults: TagFormValues) {
  return useForm<TagFormValues, unknown, TagFormOutput>({
    resolver: zodResolver(TagForm),
    mode: 'onChange',
    defaultValues: defaults,
  });
}

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
    <Dialog
      title={OWN.tagsTitle}
      subtitle={board.title}
      onClose={onClose}
      testId="tags-modal"
      footer={
        <FormFooter
          onCancel={onClose}
          onSubmit={() => void save()}
          submitLabel={OWN.save}
          disabled={saveState.isLoading}
          submitTestId="tags-save"
          size="sm"
        />
      }
    >
      <div className={styles.tagsModal}>
        <NewTagForm onCreated={(t) => setSelected((s) => [...(s ?? initial), t.id])} />
        <ul className={styles.tagList} data-testid="tag-list">
          {tagsQuery.isLoading ? <li className={styles.tagListEmpty}>…</li> : null}
          {!tagsQuery.isLoading && tags.length === 0 ? (
            <li className={styles.tagListEmpty}>{OWN.noTags}</li>
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
    </Dialog>
  );
}

function NewTagForm({ onCreated }: { onCreated: (t: TagView) => void }) {
  const { register, handleSubmit, formState, control, reset } = useTagForm({ name: '', color: TAG_PALETTE[0] });
  const [create, { isLoading }] = useCreateTagMutation();
  const onSubmit = handleSubmit(async (values) => {
    try {
      const { tag } = await create(values).unwrap();
      notify.success(SPEC.tagCreated);
      // The colour stays for the next tag; the name starts over (and shows no "empty" message).
      reset({ name: '', color: values.color });
      onCreated(tag);
    } catch (err) {
      notify.error(errorText(err, SPEC.createTagError));
    }
  });
  return (
    <form className={styles.newTag} onSubmit={onSubmit} noValidate data-testid="new-tag-form">
      {/* The visible caption; the input's own (hidden) label carries the same name for screen readers. */}
      <span className={styles.caption} aria-hidden="true">
        {OWN.newTag}
      </span>
      <div className={styles.newTagRow}>
        <TextField
          id="new-tag-name"
          label={OWN.newTag}
          hideLabel
          compact
          placeholder={OWN.tagNamePlaceholder}
          maxLength={LIMITS.tagNameMax}
          autoComplete="off"
          data-testid="new-tag-name"
          error={formState.errors.name?.message}
          {...register('name')}
        />
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={!formState.isValid || isLoading}
          data-testid="new-tag-submit"
        >
          <PlusIcon size={15} />
          {OWN.addTag}
        </Button>
      </div>
      <Controller
        control={control}
        name="color"
        render={({ field }) => <ColorChoice value={field.value} onChange={field.onChange} testId="new-tag-color" />}
      />
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
    const yes = await confirm({ title: OWN.deleteTagTitle(tag.name), message: SPEC.deleteTagConfirm, confirmLabel: OWN.delete });
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
    <li className={styles.tagRow} data-testid="tag-row" data-tag-name={tag.name}>
      <label className={styles.tagRowLabel}>
        <input
          type="checkbox"
          className={shared.checkbox}
          checked={checked}
          onChange={onToggle}
          data-testid="tag-checkbox"
        />
        <span className={styles.tagChip} style={tagChipStyle(tag.color)}>
          {tag.name}
        </span>
      </label>
      <IconButton label={OWN.editTag} tooltip size="sm" onClick={onEdit} data-testid="tag-edit">
        <PenLineIcon size={15} />
      </IconButton>
      <IconButton
        label={OWN.deleteTag}
        tooltip
        size="sm"
        tone="danger"
        onClick={onDelete}
        disabled={isLoading}
        data-testid="tag-delete"
      >
        <TrashIcon size={15} />
      </IconButton>
    </li>
  );
}

function TagEditRow({ tag, onDone }: { tag: TagView; onDone: () => void }) {
  const { register, handleSubmit, formState, control } = useTagForm({ name: tag.name, color: tag.color.toUpperCase() });
  const [update, { isLoading }] = useUpdateTagMutation();
  const onSubmit = handleSubmit(async ({ name, color }) => {
    if (name === tag.name && color.toUpperCase() === tag.color.toUpperCase()) return onDone();
    try {
      await update({ id: tag.id, name, color }).unwrap();
      notify.success(SPEC.tagUpdated);
      onDone();
    } catch (err) {
      notify.error(errorText(err, SPEC.updateTagError));
    }
  });
  return (
    <li className={`${styles.tagRow} ${styles.tagRowEditing}`} data-testid="tag-edit-row">
      <form className={styles.tagEdit} onSubmit={onSubmit} noValidate>
        <div className={styles.newTagRow}>
          <TextField
            id={`tag-edit-name-${tag.id}`}
            label={OWN.editTag}
            hideLabel
            compact
            maxLength={LIMITS.tagNameMax}
            autoComplete="off"
            autoFocus
            data-testid="tag-edit-name"
            error={formState.errors.name?.message}
            {...register('name')}
          />
          <Button variant="ghost" size="sm" onClick={onDone}>
            {OWN.cancel}
          </Button>
          <Button
            type="submit"
            variant="primary"
            size="sm"
            disabled={!formState.isValid || isLoading}
            data-testid="tag-edit-save"
          >
            <CheckIcon size={15} />
            {OWN.save}
          </Button>
        </div>
        <Controller
          control={control}
          name="color"
          render={({ field }) => <ColorChoice value={field.value} onChange={field.onChange} />}
        />
      </form>
    </li>
  );
}
