import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkRole } from '../src/domain/roles.ts';
import { startHarness, type Harness, type TestUser } from './helpers.ts';

let h: Harness;
let carol: TestUser;
const ids: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  carol = await h.user('Карина');
  for (let i = 0; i < 25; i++) {
    const r = await h.api('POST', '/api/boards', { token: carol.token, body: { title: `Доска ${i}`, folder_id: null } });
    ids.push(r.body.board.id);
  }
});
afterAll(async () => {
  await h?.stop();
});

describe('board list paging', () => {
  it('walks every board exactly once, newest first, following nextCursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/api/boards?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await h.api('GET', q, { token: carol.token });
      expect(r.status).toBe(200);
      expect(r.body.boards.length).toBeLessThanOrEqual(7);
      expect(r.body.limits.current).toBe(25);
      seen.push(...r.body.boards.map((b: { id: string }) => b.id));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual([...ids].reverse());
  });

  it('returns the default page without a limit and no cursor at the end', async () => {
    const r = await h.api('GET', '/api/boards', { token: carol.token });
    expect(r.body.boards).toHaveLength(25);
    expect(r.body.nextCursor).toBeNull();
  });

  it('keeps the board count (current) right through creates and deletes', async () => {
    for (const id of ids.slice(0, 2)) expect((await h.api('DELETE', `/api/boards/${id}`, { token: carol.token })).status).toBe(200);
    const r = await h.api('GET', '/api/boards?limit=1', { token: carol.token });
    expect(r.body.limits.current).toBe(23);
    const created = await h.api('POST', '/api/boards', { token: carol.token, body: { title: 'Ещё одна', folder_id: null } });
    ids.splice(0, 2, created.body.board.id);
    expect((await h.api('GET', '/api/boards?limit=1', { token: carol.token })).body.limits.current).toBe(24);
  });

  it('refuses a bad limit or cursor with VALIDATION_ERROR', async () => {
    for (const q of ['limit=0', 'limit=501', 'limit=abc', 'cursor=not-a-cursor', `cursor=${Buffer.from('1_x').toString('base64url')}`]) {
      const r = await h.api('GET', `/api/boards?${q}`, { token: carol.token });
      expect(r.status, q).toBe(400);
      expect(r.body.code, q).toBe('VALIDATION_ERROR');
      expect(r.body.error, q).toMatch(/[а-я]/i);
    }
  });

  it('builds list items in SQL exactly as the single-board answer shapes them', async () => {
    const [first] = ids;
    const tag = await h.api('POST', '/api/tags', { token: carol.token, body: { name: 'сверка', color: '#10B981' } });
    await h.api('PUT', `/api/tags/board/${first}`, { token: carol.token, body: { tagIds: [tag.body.tag.id] } });
    await h.api('PUT', `/api/boards/${first}/sharing`, { token: carol.token, body: { enabled: true } });
    await h.api('POST', `/api/boards/${first}/multiple-links`, { token: carol.token, body: { enabledRoles: ['guest', 'viewer'] } });
    const folder = await h.api('POST', '/api/folders', { token: carol.token, body: { name: 'Папка', parent_id: null, color: '#EF4444' } });
    await h.api('POST', '/api/folders/move-board', { token: carol.token, body: { board_id: first, folder_id: folder.body.folder.id } });
    const list = await h.api('GET', '/api/boards?limit=500', { token: carol.token });
    const one = await h.api('GET', `/api/boards/${first}`, { token: carol.token });
    const { userRole: _role, ...expected } = one.body.board;
    expect(list.body.boards.find((b: { id: string }) => b.id === first)).toEqual(expected);
    expect(expected).toMatchObject({ link_role: 'viewer', folder_name: 'Папка', tags: [{ name: 'сверка' }] });
  });

  it('keeps the stored list card and tags right through every kind of write (migration 008)', async () => {
    const [, second, third] = ids;
    const same = async (id: string, why: string) => {
      const list = await h.api('GET', '/api/boards?limit=500', { token: carol.token });
      const { userRole: _role, ...one } = (await h.api('GET', `/api/boards/${id}`, { token: carol.token })).body.board;
      expect(list.body.boards.find((b: { id: string }) => b.id === id), why).toEqual(one);
      return one;
    };
    const a = (await h.api('POST', '/api/tags', { token: carol.token, body: { name: 'альфа', color: '#10B981' } })).body.tag;
    const b = (await h.api('POST', '/api/tags', { token: carol.token, body: { name: 'бета', color: '#EF4444' } })).body.tag;
    await h.api('PUT', `/api/tags/board/${second}`, { token: carol.token, body: { tagIds: [a.id, b.id] } });
    await h.api('PUT', `/api/tags/board/${third}`, { token: carol.token, body: { tagIds: [b.id] } });
    expect((await same(second, 'tags assigned')).tags.map((t: { name: string }) => t.name)).toEqual(['альфа', 'бета']);
    // A rename reorders; a recolour shows on every board that carries the tag.
    await h.api('PUT', `/api/tags/${a.id}`, { token: carol.token, body: { name: 'яша', color: '#3B82F6' } });
    expect((await same(second, 'tag renamed')).tags.map((t: { name: string }) => t.name)).toEqual(['бета', 'яша']);
    await h.api('PUT', `/api/tags/${b.id}`, { token: carol.token, body: { name: 'бета', color: '#F59E0B' } });
    expect((await same(third, 'tag recoloured')).tags).toEqual([{ id: b.id, name: 'бета', color: '#F59E0B' }]);
    await h.api('DELETE', `/api/tags/${b.id}`, { token: carol.token });
    expect((await same(third, 'tag deleted')).tags).toEqual([]);
    expect((await same(second, 'tag deleted')).tags.map((t: { name: string }) => t.name)).toEqual(['яша']);
    await h.api('PUT', `/api/tags/board/${second}`, { token: carol.token, body: { tagIds: [] } });
    expect((await same(second, 'tags cleared')).tags).toEqual([]);
    // The board's own fields, the folder's name and colour, and characters JSON must escape.
    await h.api('PATCH', `/api/boards/${second}`, { token: carol.token, body: { title: 'Кавычки " и \\ обратная черта', background: 'dots' } });
    const folder = (await h.api('POST', '/api/folders', { token: carol.token, body: { name: 'Старое', parent_id: null } })).body.folder;
    await h.api('POST', '/api/folders/move-board', { token: carol.token, body: { board_id: second, folder_id: folder.id } });
    await h.api('PATCH', `/api/folders/${folder.id}`, { token: carol.token, body: { name: 'Новое "имя"', color: '#8B5CF6' } });
    await h.api('PUT', `/api/boards/${second}/sharing`, { token: carol.token, body: { enabled: true } });
    expect(await same(second, 'renamed, moved, shared')).toMatchObject({
      title: 'Кавычки " и \\ обратная черта',
      background: 'dots',
      folder_name: 'Новое "имя"',
      folder_color: '#8B5CF6',
      is_link_sharing_enabled: true,
    });
    await h.api('DELETE', `/api/folders/${folder.id}`, { token: carol.token });
    expect(await same(second, 'folder deleted')).toMatchObject({ folder_id: null, folder_name: null, folder_color: null });
  });

  it('computes link_role in SQL as the domain rule does, for every combination', async () => {
    const tokens = [null, 't'];
    for (const enabled of [false, true])
      for (const viewer of tokens)
        for (const guest of tokens)
          for (const editor of tokens) {
            const { rows } = await h.pool.query('SELECT board_link_role($1, $2, $3, $4) AS r', [enabled, viewer, guest, editor]);
            expect(rows[0].r, JSON.stringify({ enabled, viewer, guest, editor })).toBe(linkRole({ enabled, viewer, guest, editor }));
          }
  });
});
