import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BoardAccessAnswer,
  BoardAnswer,
  BoardPageAnswer,
  BoardsListAnswer,
  FolderAnswer,
  FoldersAnswer,
  LinkHolderBoardView,
  TagAnswer,
  TagsAnswer,
} from '@wb/contracts';
import { startHarness, type Harness, type TestUser } from './helpers.ts';

/**
 * The live answers of the boards service parse with the answer schemas of @wb/contracts, whose
 * inferred types the SPA reads: a field renamed, dropped or added on one side fails here.
 */
let h: Harness;
let owner: TestUser;
let boardId: string;
let folderId: string;
let tagId: string;
let viewerLink: string;

/** Parses, and on failure shows zod's issues rather than a bare `false`. */
function expectShape(schema: z.ZodType, body: unknown): void {
  const r = schema.safeParse(body);
  expect(r.success ? [] : r.error.issues).toEqual([]);
}

beforeAll(async () => {
  h = await startHarness();
  owner = await h.user('Владелец');
  const folder = await h.api('POST', '/api/folders', { token: owner.token, body: { name: 'Проекты', parent_id: null } });
  expectShape(FolderAnswer, folder.body);
  folderId = folder.body.folder.id;
  await h.api('POST', '/api/folders', { token: owner.token, body: { name: 'Вложенная', parent_id: folderId } });
  const created = await h.api('POST', '/api/boards', { token: owner.token, body: { title: 'Доска', folder_id: folderId } });
  expect(created.status).toBe(201);
  expectShape(BoardAnswer, created.body);
  boardId = created.body.board.id;
  const tag = await h.api('POST', '/api/tags', { token: owner.token, body: { name: 'срочно' } });
  expectShape(TagAnswer, tag.body);
  tagId = tag.body.tag.id;
  const tagged = await h.api('PUT', `/api/tags/board/${boardId}`, { token: owner.token, body: { tagIds: [tagId] } });
  expectShape(TagsAnswer, tagged.body);
  const shared = await h.api('PUT', `/api/boards/${boardId}/sharing`, { token: owner.token, body: { enabled: true } });
  expectShape(BoardAnswer, shared.body);
  viewerLink = shared.body.board.viewer_token_hash;
});
afterAll(async () => {
  await h?.stop();
});

describe('answers of the boards service parse with their contract schemas', () => {
  it('GET /api/boards (a board with folder and tag, limits, cursor)', async () => {
    const r = await h.api('GET', '/api/boards', { token: owner.token });
    expect(r.status).toBe(200);
    expect(r.body.boards).toHaveLength(1);
    expect(r.body.boards[0].tags).toEqual([{ id: tagId, name: 'срочно', color: expect.any(String) }]);
    expectShape(BoardsListAnswer, r.body);
  });

  it('GET /api/boards with a next page carries a string cursor', async () => {
    await h.api('POST', '/api/boards', { token: owner.token, body: { title: 'Вторая' } });
    const r = await h.api('GET', '/api/boards?limit=1', { token: owner.token });
    expect(typeof r.body.nextCursor).toBe('string');
    expectShape(BoardsListAnswer, r.body);
  });

  it('GET /api/boards/{id}: the owner gets the full item, a link holder only the link-holder view', async () => {
    const mine = await h.api('GET', `/api/boards/${boardId}`, { token: owner.token });
    expectShape(BoardPageAnswer, mine.body);
    expect(mine.body.board.owner_id).toBe(owner.id);

    const theirs = await h.api('GET', `/api/boards/${boardId}`, { share: viewerLink });
    expectShape(BoardPageAnswer, theirs.body);
    // Strict: a field that leaks to link holders fails the parse.
    expectShape(LinkHolderBoardView, theirs.body.board);
    expect(theirs.body.currentUser).toBeNull();
  });

  it('PATCH /api/boards/{id} and the multiple-links answer', async () => {
    expectShape(BoardAnswer, (await h.api('PATCH', `/api/boards/${boardId}`, { token: owner.token, body: { background: 'grid' } })).body);
    const links = await h.api('POST', `/api/boards/${boardId}/multiple-links`, { token: owner.token, body: { enabledRoles: ['viewer', 'editor'] } });
    expectShape(BoardAnswer, links.body);
    expect(links.body.board.link_role).toBe('editor');
  });

  it('folders: the tree (with children), a move and a reorder', async () => {
    const tree = await h.api('GET', '/api/folders', { token: owner.token });
    expect(tree.body.folders[0].children).toHaveLength(1);
    expectShape(FoldersAnswer, tree.body);
    expectShape(BoardAnswer, (await h.api('POST', '/api/folders/move-board', { token: owner.token, body: { board_id: boardId, folder_id: null } })).body);
    const reordered = await h.api('POST', '/api/folders/reorder', { token: owner.token, body: { parent_id: null, folder_ids: [folderId] } });
    expectShape(FoldersAnswer, reordered.body);
  });

  it('tags: the list and a board\'s tags', async () => {
    expectShape(TagsAnswer, (await h.api('GET', '/api/tags', { token: owner.token })).body);
    expectShape(TagsAnswer, (await h.api('GET', `/api/tags/board/${boardId}`, { token: owner.token })).body);
  });

  it('the internal access answer, for a board and for nothing', async () => {
    const yes = await h.api('POST', `/internal/boards/${boardId}/access`, { body: { userId: owner.id } });
    expect(yes.body.role).toBe('owner');
    expectShape(BoardAccessAnswer, yes.body);
    const no = await h.api('POST', '/internal/boards/not-a-board/access', { body: { userId: owner.id } });
    expect(no.body).toEqual({ role: 'none', board: null });
    expectShape(BoardAccessAnswer, no.body);
  });
});
