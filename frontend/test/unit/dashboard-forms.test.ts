import { BOARD_TEXTS } from '@wb/contracts/constants';
import { describe, expect, it } from 'vitest';
import { BoardTitleForm, CreateBoardForm, FolderForm, TagForm } from '../../src/features/dashboard/forms.ts';

/** The first message of a failed parse, as the form shows it under its field. */
const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('dashboard forms (schemas of @wb/contracts)', () => {
  it('create board: trimmed title, the select\'s "" is no folder', () => {
    expect(CreateBoardForm.parse({ title: '  План  ', folder_id: '' })).toEqual({ title: 'План', folder_id: null });
    expect(CreateBoardForm.parse({ title: 'План', folder_id: 'f1' })).toEqual({ title: 'План', folder_id: 'f1' });
    expect(message(CreateBoardForm.safeParse({ title: '   ', folder_id: '' }))).toBe(BOARD_TEXTS.titleRequired);
    expect(message(CreateBoardForm.safeParse({ title: 'x'.repeat(201), folder_id: '' }))).toBe(BOARD_TEXTS.titleTooLong);
  });

  it('rename board: the same title rule', () => {
    expect(BoardTitleForm.parse({ title: ' Новое ' })).toEqual({ title: 'Новое' });
    expect(message(BoardTitleForm.safeParse({ title: '' }))).toBe(BOARD_TEXTS.titleRequired);
  });

  it('folder: name and colour', () => {
    expect(FolderForm.parse({ name: ' Проекты ', color: '#3B82F6' })).toEqual({ name: 'Проекты', color: '#3B82F6' });
    expect(message(FolderForm.safeParse({ name: ' ', color: '#3B82F6' }))).toBe(BOARD_TEXTS.folderNameRequired);
    expect(message(FolderForm.safeParse({ name: 'x'.repeat(101), color: '#3B82F6' }))).toBe(BOARD_TEXTS.folderNameTooLong);
    expect(message(FolderForm.safeParse({ name: 'Проекты', color: 'blue' }))).toBe(BOARD_TEXTS.colorInvalid);
  });

  it('tag: at most 50 characters after trimming', () => {
    expect(TagForm.parse({ name: ' a ', color: '#EF4444' })).toEqual({ name: 'a', color: '#EF4444' });
    expect(TagForm.safeParse({ name: 'x'.repeat(50), color: '#EF4444' }).success).toBe(true);
    expect(message(TagForm.safeParse({ name: 'x'.repeat(51), color: '#EF4444' }))).toBe(BOARD_TEXTS.tagNameTooLong);
    expect(message(TagForm.safeParse({ name: '  ', color: '#EF4444' }))).toBe(BOARD_TEXTS.tagNameRequired);
  });
});
