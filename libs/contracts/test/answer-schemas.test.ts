import { describe, expect, it } from 'vitest';
import {
  AuthAnswer,
  BoardAccessAnswer,
  BoardPageAnswer,
  BoardsListAnswer,
  FoldersAnswer,
  LinkHolderBoardView,
  RefreshAnswer,
  TagsAnswer,
  UserAnswer,
  type BoardListItem,
} from '../src/index.ts';

// Answers as the services give them (taken from live runs of services/*/test); the services' own
// tests (answer-shapes.test.ts) parse the live answers too.
const user = {
  id: '0b7e3c1e-7f6a-4c55-9f43-5d7c1d1f2a10',
  name: 'Иван Петров',
  email: 'ivan@example.com',
  isAdmin: false,
  plan_name: null,
  boards_count: 3,
  created_at: '2026-11-23T20:01:02.345Z',
  settings: {},
  emailVerified: false,
};
const tokens = { accessToken: 'eyJhbGciOiJFUzI1NiJ9.e30.sig', refreshToken: 'Qm9hcmRzQXJlTmljZV9hbmRfcmVmcmVzaF90b2tlbg' };

const item: BoardListItem = {
  id: '5a1f6d7e-1c2b-4c3d-8e9f-0a1b2c3d4e5f',
  title: 'Доска',
  folder_id: '6b2f6d7e-1c2b-4c3d-8e9f-0a1b2c3d4e5f',
  owner_id: user.id,
  owner_name: 'Иван Петров',
  created_at: '2026-11-23T20:01:02.345Z',
  updated_at: '2026-11-23T20:05:00.000Z',
  folder_name: 'Проекты',
  folder_color: '#3B82F6',
  background: 'white',
  is_link_sharing_enabled: true,
  link_role: 'viewer',
  viewer_token_hash: 'dmlld2VyLXRva2Vu',
  guest_token_hash: null,
  editor_token_hash: null,
  tags: [{ id: '7c3f6d7e-1c2b-4c3d-8e9f-0a1b2c3d4e5f', name: 'срочно', color: '#EF4444' }],
};
const linkHolder = {
  id: item.id,
  title: item.title,
  background: 'white',
  is_link_sharing_enabled: true,
  link_role: 'viewer',
  userRole: 'viewer',
};
const canvasLimits = { max_width: null, max_height: null, unlimited: true, background: 'white' };

describe('answer schemas accept the services\' answers', () => {
  it('auth: register/login, refresh, verify/profile', () => {
    expect(AuthAnswer.parse({ user, ...tokens })).toEqual({ user, ...tokens });
    expect(RefreshAnswer.parse(tokens)).toEqual(tokens);
    expect(UserAnswer.parse({ user: { ...user, isAdmin: true, plan_name: 'Pro', settings: { theme: 'dark' } } }).user.plan_name).toBe('Pro');
  });

  it('the board list, last page and with a cursor', () => {
    const limits = { current: 1, max: -1, canCreate: true };
    expect(BoardsListAnswer.parse({ boards: [item], limits, nextCursor: null }).boards[0]).toEqual(item);
    expect(BoardsListAnswer.parse({ boards: [], limits, nextCursor: 'MTc2Mzk' }).nextCursor).toBe('MTc2Mzk');
  });

  it('the board page for the owner and for a link holder', () => {
    expect(BoardPageAnswer.parse({ board: { ...item, userRole: 'owner' }, canvasLimits, currentUser: { id: user.id, name: user.name } }).board).toEqual({
      ...item,
      userRole: 'owner',
    });
    expect(BoardPageAnswer.parse({ board: linkHolder, canvasLimits, currentUser: null }).board).toEqual(linkHolder);
  });

  it('folders (nested), tags and the internal access answer', () => {
    const child = { id: 'c', name: 'Вложенная', parent_id: 'p', color: '#3B82F6', sort_order: 0, board_count: 0, children: [] };
    const tree = { folders: [{ id: 'p', name: 'Проекты', parent_id: null, color: '#3B82F6', sort_order: 0, board_count: 1, children: [child] }] };
    expect(FoldersAnswer.parse(tree)).toEqual(tree);
    expect(TagsAnswer.parse({ tags: item.tags })).toEqual({ tags: item.tags });
    expect(BoardAccessAnswer.parse({ role: 'none', board: null })).toEqual({ role: 'none', board: null });
    const access = { role: 'editor', board: { id: item.id, owner_id: user.id, title: 'Доска', background: 'grid' } };
    expect(BoardAccessAnswer.parse(access)).toEqual(access);
  });
});

describe('answer schemas refuse what the SPA could not read', () => {
  it('a board list item without a field, or with a background the SPA cannot draw', () => {
    const { tags: _dropped, ...noTags } = item;
    expect(BoardsListAnswer.safeParse({ boards: [noTags], limits: { current: 0, max: 3, canCreate: true }, nextCursor: null }).success).toBe(false);
    expect(BoardsListAnswer.safeParse({ boards: [{ ...item, background: 'pink' }], limits: { current: 0, max: 3, canCreate: true }, nextCursor: null }).success).toBe(false);
  });

  it('a link-holder view that leaks an owner field', () => {
    expect(LinkHolderBoardView.safeParse({ ...linkHolder, owner_id: user.id }).success).toBe(false);
    expect(LinkHolderBoardView.safeParse({ ...linkHolder, viewer_token_hash: 'x' }).success).toBe(false);
  });

  it('a nested folder with a wrong field, an unknown access role, an auth answer without a token', () => {
    const bad = { folders: [{ id: 'p', name: 'П', parent_id: null, color: '#3B82F6', sort_order: 0, board_count: 0, children: [{ id: 'c' }] }] };
    expect(FoldersAnswer.safeParse(bad).success).toBe(false);
    expect(BoardAccessAnswer.safeParse({ role: 'admin', board: null }).success).toBe(false);
    expect(AuthAnswer.safeParse({ user, accessToken: tokens.accessToken }).success).toBe(false);
  });
});

describe('name limits count characters, not UTF-16 units', () => {
  it('a tag of 50 emoji is allowed, 51 is not; a board title likewise at its limit', async () => {
    const { CreateTagRequest, CreateBoardRequest, BOARD_LIMITS, LIMITS } = await import('../src/index.ts');
    const emoji = (n: number) => '😀'.repeat(n);
    expect(CreateTagRequest.safeParse({ name: emoji(LIMITS.tagNameMax) }).success).toBe(true);
    expect(CreateTagRequest.safeParse({ name: emoji(LIMITS.tagNameMax + 1) }).success).toBe(false);
    expect(CreateBoardRequest.safeParse({ title: emoji(BOARD_LIMITS.titleMax) }).success).toBe(true);
    expect(CreateBoardRequest.safeParse({ title: emoji(BOARD_LIMITS.titleMax + 1) }).success).toBe(false);
  });
});
