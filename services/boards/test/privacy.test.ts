import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestUser } from './helpers.ts';

/** What a link holder learns about the owner through GET /api/boards/{id}: only what the board page needs. */
let h: Harness;
let owner: TestUser;
let signedInHolder: TestUser;
let boardId: string;
const links: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  owner = await h.user('Владелец');
  signedInHolder = await h.user('Гость');
  const folder = (await h.api('POST', '/api/folders', { token: owner.token, body: { name: 'Личное: зарплаты', parent_id: null } })).body.folder.id;
  boardId = (await h.api('POST', '/api/boards', { token: owner.token, body: { title: 'Общая доска', folder_id: folder } })).body.board.id;
  const tag = (await h.api('POST', '/api/tags', { token: owner.token, body: { name: 'секретный-тег' } })).body.tag.id;
  await h.api('PUT', `/api/tags/board/${boardId}`, { token: owner.token, body: { tagIds: [tag] } });
  const b = (await h.api('POST', `/api/boards/${boardId}/multiple-links`, { token: owner.token, body: { enabledRoles: ['viewer', 'guest', 'editor'] } })).body.board;
  await h.api('PUT', `/api/boards/${boardId}/sharing`, { token: owner.token, body: { enabled: true } });
  links.viewer = b.viewer_token_hash;
  links.guest = b.guest_token_hash;
  links.editor = b.editor_token_hash;
});
afterAll(async () => {
  await h?.stop();
});

describe('GET /api/boards/{id} for link holders', () => {
  for (const role of ['viewer', 'guest', 'editor'] as const) {
    for (const signedIn of [false, true]) {
      it(`gives a ${signedIn ? 'signed-in' : 'anonymous'} ${role} link holder the board page's fields only`, async () => {
        const r = await h.api('GET', `/api/boards/${boardId}`, { share: links[role], token: signedIn ? signedInHolder.token : undefined });
        expect(r.status).toBe(200);
        expect(r.body.board).toEqual({
          id: boardId,
          title: 'Общая доска',
          background: 'white',
          is_link_sharing_enabled: true,
          link_role: 'editor',
          userRole: role,
        });
        const text = JSON.stringify(r.body);
        expect(text).not.toContain('Личное');
        expect(text).not.toContain('секретный-тег');
        expect(text).not.toContain(owner.id);
        for (const t of Object.values(links)) expect(text).not.toContain(t);
      });
    }
  }

  it('still gives the owner the full dashboard item', async () => {
    const r = await h.api('GET', `/api/boards/${boardId}`, { token: owner.token });
    expect(r.body.board).toMatchObject({
      owner_id: owner.id,
      folder_name: 'Личное: зарплаты',
      tags: [expect.objectContaining({ name: 'секретный-тег' })],
      editor_token_hash: links.editor,
      userRole: 'owner',
    });
  });

  it('marks answers that carry share tokens no-store', async () => {
    for (const [method, path, body] of [
      ['GET', `/api/boards/${boardId}`, undefined],
      ['GET', '/api/boards', undefined],
      ['POST', `/api/boards/${boardId}/multiple-links`, { enabledRoles: ['viewer', 'guest', 'editor'] }],
    ] as const) {
      const res = await fetch(h.base + path, {
        method,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
    }
  });
});
