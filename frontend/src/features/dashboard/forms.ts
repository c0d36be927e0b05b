/**
 * Schemas of the dashboard's forms, built from the request schemas of @wb/contracts so the dialogs
 * check exactly what the boards service checks (trimmed, non-empty, length, colour), with its Russian
 * texts. Only the form's own shape is added: the folder select's '' means "no folder".
 * This module pulls zod in: the dialogs that use it are loaded on first use, not with the page.
 */
import { CreateBoardRequest, CreateFolderRequest, CreateTagRequest } from '@wb/contracts';
import { z } from 'zod';

/** Create board: title and the folder picked in the select ('' = no folder → null). */
export const CreateBoardForm = CreateBoardRequest.extend({
  folder_id: z.string().transform((v) => v || null),
});
export type CreateBoardFormValues = z.input<typeof CreateBoardForm>;

/** Rename board: the title alone. */
export const BoardTitleForm = CreateBoardRequest.pick({ title: true });
export type BoardTitleFormValues = z.input<typeof BoardTitleForm>;

/** Create or rename a folder: name and colour (where it sits is not part of the form). */
export const FolderForm = CreateFolderRequest.pick({ name: true }).extend({
  color: CreateFolderRequest.shape.color.unwrap(),
});
export type FolderFormValues = z.input<typeof FolderForm>;

/** Create or edit a tag: name and colour. */
export const TagForm = CreateTagRequest.pick({ name: true }).extend({
  color: CreateTagRequest.shape.color.unwrap(),
});
export type TagFormValues = z.input<typeof TagForm>;
