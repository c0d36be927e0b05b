import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot, startHarness, type Harness, type TestUser } from './helpers.ts';

/**
 * The authorisation matrix: every endpoint called as the owner, another user, a visitor, a bad
 * bearer, and each share role with and without a login. Refused calls must leave the DB unchanged.
 */
let h: Harness;
let owner: TestUser;
let other: TestUser;
let boardId: string;
let tokens: Record<'viewer' | 'guest' | 'editor', string>;

beforeAll(async () => {
  h = await startHarness();
  owner = await h.user('Владелец');
  other = await h.user('Чужой');
  boardId = (await h.api('POST', '/api/boards', { token: owner.token, body: { title: 'Матрица', folder_id: null } })).body.board.id;
  const b = (await h.api('POST', `/api/boards/${boardId}/multiple-links`, { token: owner.token, body: { enabledRoles: ['viewer', 'guest', 'editor'] } })).body.board;
  await h.api('PUT', `/api/boards/${boardId}/sharing`, { token: owner.token, body: { enabled: true } });
  tokens = { viewer: b.viewer_token_hash, guest: b.guest_token_hash, editor: b.editor_token_hash };
});
afterAll(async () => {
  await h?.stop();
});

type Caller = 'owner' | 'other' | 'visitor' | 'badBearer' | `${'viewer' | 'guest' | 'editor'}${'' | '+login'}`;
const CALLERS: Caller[] = ['owner', 'other', 'visitor', 'badBearer', 'viewer', 'guest', 'editor', 'viewer+login', 'guest+login', 'editor+login'];

function credentials(c: Caller): { token?: string; share?: string } {
  if (c === 'owner') return { token: owner.token };
  if (c === 'other') return { token: other.token };
  if (c === 'visitor') return {};
  if (c === 'badBearer') return { token: 'not.a.jwt' };
  const [role, login] = c.split('+') as ['viewer' | 'guest' | 'editor', string | undefined];
  return { share: tokens[role], ...(login ? { token: other.token } : {}) };
}

const camera = { position_x: 1, position_y: 2, scale_x: 1, scale_y: 1 };

type Endpoint = { name: string; method: string; path: (id: string) => string; body?: (id: string) => unknown; kind: 'read' | 'camera' | 'owner' };
const BOARD_ENDPOINTS: Endpoint[] = [
  { name: 'GET board', method: 'GET', path: (id) => `/api/boards/${id}`, kind: 'read' },
  { name: 'PATCH board', method: 'PATCH', path: (id) => `/api/boards/${id}`, body: () => ({ title: 'взлом' }), kind: 'owner' },
  { name: 'DELETE board', method: 'DELETE', path: (id) => `/api/boards/${id}`, kind: 'owner' },
  { name: 'link', method: 'POST', path: (id) => `/api/boards/${id}/link`, body: () => ({ enabled: false }), kind: 'owner' },
  { name: 'link rotate', method: 'POST', path: (id) => `/api/boards/${id}/link/rotate`, kind: 'owner' },
  { name: 'sharing', method: 'PUT', path: (id) => `/api/boards/${id}/sharing`, body: () => ({ enabled: false }), kind: 'owner' },
  { name: 'multiple-links', method: 'POST', path: (id) => `/api/boards/${id}/multiple-links`, body: () => ({ enabledRoles: [], rotate: true }), kind: 'owner' },
  { name: 'members', method: 'GET', path: (id) => `/api/boards/${id}/members`, kind: 'owner' },
  { name: 'GET camera', method: 'GET', path: (id) => `/api/boards/${id}/camera`, kind: 'camera' },
  { name: 'PUT camera', method: 'PUT', path: (id) => `/api/boards/${id}/camera`, body: () => camera, kind: 'camera' },
  { name: 'GET board tags', method: 'GET', path: (id) => `/api/tags/board/${id}`, kind: 'owner' },
  { name: 'PUT board tags', method: 'PUT', path: (id) => `/api/tags/board/${id}`, body: () => ({ tagIds: [] }), kind: 'owner' },
  { name: 'move-board', method: 'POST', path: () => '/api/folders/move-board', body: (id) => ({ board_id: id, folder_id: null }), kind: 'owner' },
];

function expected(e: Endpoint, c: Caller): { status: number; code?: string; role?: string } {
  if (c === 'owner') return { status: 200, role: 'owner' };
  if (c === 'badBearer') return { status: 401, code: 'TOKEN_INVALID' };
  if (c === 'visitor') return { status: 401, code: 'TOKEN_MISSING' };
  if (c === 'other') return { status: 403, code: 'ACCESS_DENIED' };
  const [role, login] = c.split('+');
  if (e.kind === 'read') return { status: 200, role };
  if (!login) return { status: 401, code: 'TOKEN_MISSING' }; // every other board call needs a login
  if (e.kind === 'camera') return { status: 200 };
  return { status: 403, code: 'ACCESS_DENIED' }; // a share link never lets anyone change or manage a board
}

describe('authorisation matrix: board endpoints', () => {
  for (const e of BOARD_ENDPOINTS) {
    it(e.name, async () => {
      for (const c of CALLERS) {
        if (c === 'owner') continue;
        const before = await snapshot(h.pool);
        const r = await h.api(e.method, e.path(boardId), { ...credentials(c), body: e.body?.(boardId) });
        const want = expected(e, c);
        expect({ caller: c, status: r.status, code: r.body.code }).toEqual({ caller: c, status: want.status, code: want.code });
        if (want.role && e.kind === 'read') expect(r.body.board.userRole).toBe(want.role);
        if (e.kind === 'read' && r.status === 200) expect(r.body.board.viewer_token_hash).toBeUndefined();
        if (r.status !== 200 || e.method === 'GET') expect(await snapshot(h.pool)).toBe(before);
      }
      // the owner, on a board of its own so the shared one keeps its links
      const own = (await h.api('POST', '/api/boards', { token: owner.token, body: { title: 'своя', folder_id: null } })).body.board.id;
      const r = await h.api(e.method, e.path(own), { token: owner.token, body: e.body?.(own) });
      expect({ caller: 'owner', status: r.status, code: r.body.code }).toEqual({ caller: 'owner', status: 200, code: undefined });
    });
  }

  it('unknown and wrong-shape board ids', async () => {
    for (const e of BOARD_ENDPOINTS) {
      for (const id of [crypto.randomUUID(), 'not-a-uuid', '1']) {
        const r = await h.api(e.method, e.path(id), { token: owner.token, body: e.body?.(id) });
        expect({ e: e.name, id, status: r.status, code: r.body.code }).toEqual({ e: e.name, id, status: 404, code: 'BOARD_NOT_FOUND' });
      }
    }
  });
});

describe('authorisation matrix: account-scoped endpoints', () => {
  const ACCOUNT: { method: string; path: string; body?: unknown }[] = [
    { method: 'GET', path: '/api/boards' },
    { method: 'POST', path: '/api/boards', body: { title: 't', folder_id: null } },
    { method: 'GET', path: '/api/folders' },
    { method: 'POST', path: '/api/folders', body: { name: 'f', parent_id: null } },
    { method: 'PATCH', path: `/api/folders/${crypto.randomUUID()}`, body: { name: 'x' } },
    { method: 'DELETE', path: `/api/folders/${crypto.randomUUID()}` },
    { method: 'POST', path: '/api/folders/move-to-position', body: { folder_id: 'a', parent_id: null, target_folder_id: 'b', position: 'after' } },
    { method: 'POST', path: '/api/folders/reorder', body: { parent_id: null, folder_ids: [] } },
    { method: 'GET', path: '/api/tags' },
    { method: 'POST', path: '/api/tags', body: { name: 't' } },
    { method: 'PUT', path: `/api/tags/${crypto.randomUUID()}`, body: { name: 't' } },
    { method: 'DELETE', path: `/api/tags/${crypto.randomUUID()}` },
  ];

  it('visitors, bad bearers and token-only callers get 401; a share token never stands in for a login', async () => {
    const before = await snapshot(h.pool);
    for (const a of ACCOUNT) {
      for (const c of ['visitor', 'badBearer', 'viewer', 'guest', 'editor'] as Caller[]) {
        const r = await h.api(a.method, a.path, { ...credentials(c), body: a.body });
        expect({ path: a.path, c, status: r.status, code: r.body.code }).toEqual({
          path: a.path,
          c,
          status: 401,
          code: c === 'badBearer' ? 'TOKEN_INVALID' : 'TOKEN_MISSING',
        });
      }
    }
    expect(await snapshot(h.pool)).toBe(before);
  });

  it('another user sees only their own (empty) world', async () => {
    const u = await h.user();
    expect((await h.api('GET', '/api/boards', { token: u.token })).body).toEqual({ boards: [], limits: { current: 0, max: -1, canCreate: true }, nextCursor: null });
    expect((await h.api('GET', '/api/folders', { token: u.token })).body).toEqual({ folders: [] });
    expect((await h.api('GET', '/api/tags', { token: u.token })).body).toEqual({ tags: [] });
  });

  it('a tampered access token (sub swapped) is 401 TOKEN_INVALID', async () => {
    const [h1, p1] = owner.token.split('.');
    const forged = `${h1}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p1, 'base64url').toString()), sub: other.id })).toString('base64url')}.${owner.token.split('.')[2]}`;
    const r = await h.api('GET', `/api/boards/${boardId}`, { token: forged });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('TOKEN_INVALID');
  });
});
