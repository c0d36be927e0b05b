import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_PALETTE } from '@wb/contracts';
import { snapshot, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('tags', () => {
  it('create, list, update, delete (removed from every board)', async () => {
    const u = await h.user();
    const t = await h.api('POST', '/api/tags', { token: u.token, body: { name: '  Срочно ', color: TAG_PALETTE[1] } });
    expect(t).toMatchObject({ status: 201, body: { tag: { name: 'Срочно', color: '#EF4444' } } });
    const custom = await h.api('POST', '/api/tags', { token: u.token, body: { name: 'свой', color: '#123abc' } });
    expect(custom.body.tag.color).toBe('#123ABC');
    const dflt = await h.api('POST', '/api/tags', { token: u.token, body: { name: 'без цвета' } });
    expect(dflt.body.tag.color).toBe(TAG_PALETTE[0]);
    expect((await h.api('POST', '/api/tags', { token: u.token, body: { name: 'срочно' } })).body.code).toBe('TAG_ALREADY_EXISTS');
    expect((await h.api('POST', '/api/tags', { token: u.token, body: { name: 'x'.repeat(50) } })).status).toBe(201);

    const list = await h.api('GET', '/api/tags', { token: u.token });
    expect(list.body.tags.map((x: any) => x.name)).toEqual(['x'.repeat(50), 'без цвета', 'свой', 'Срочно']);

    const upd = await h.api('PUT', `/api/tags/${t.body.tag.id}`, { token: u.token, body: { name: 'Очень срочно', color: '#10B981' } });
    expect(upd.body.tag).toEqual({ id: t.body.tag.id, name: 'Очень срочно', color: '#10B981' });

    const b1 = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b1', folder_id: null } })).body.board;
    const b2 = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b2', folder_id: null } })).body.board;
    const set = await h.api('PUT', `/api/tags/board/${b1.id}`, { token: u.token, body: { tagIds: [t.body.tag.id, custom.body.tag.id, t.body.tag.id] } });
    expect(set.body.tags.map((x: any) => x.id).sort()).toEqual([t.body.tag.id, custom.body.tag.id].sort());
    await h.api('PUT', `/api/tags/board/${b2.id}`, { token: u.token, body: { tagIds: [t.body.tag.id] } });
    expect((await h.api('GET', `/api/tags/board/${b2.id}`, { token: u.token })).body.tags).toEqual([upd.body.tag]);

    expect((await h.api('DELETE', `/api/tags/${t.body.tag.id}`, { token: u.token })).body).toEqual({ message: 'Тег удален' });
    expect((await h.api('GET', `/api/tags/board/${b1.id}`, { token: u.token })).body.tags.map((x: any) => x.id)).toEqual([custom.body.tag.id]);
    expect((await h.api('GET', `/api/tags/board/${b2.id}`, { token: u.token })).body.tags).toEqual([]);
    const boards = (await h.api('GET', '/api/boards', { token: u.token })).body.boards;
    expect(boards.flatMap((b: any) => b.tags.map((x: any) => x.id))).not.toContain(t.body.tag.id);

    // clearing
    expect((await h.api('PUT', `/api/tags/board/${b1.id}`, { token: u.token, body: { tagIds: [] } })).body.tags).toEqual([]);
  });

  it('only the caller’s tags on the caller’s board; bad names and colours refused without change', async () => {
    const u = await h.user();
    const other = await h.user();
    const mine = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 'мой' } })).body.tag;
    const theirs = (await h.api('POST', '/api/tags', { token: other.token, body: { name: 'чужой' } })).body.tag;
    const board = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b', folder_id: null } })).body.board;
    const theirBoard = (await h.api('POST', '/api/boards', { token: other.token, body: { title: 'b', folder_id: null } })).body.board;
    await h.api('PUT', `/api/tags/board/${board.id}`, { token: u.token, body: { tagIds: [mine.id] } });
    const before = await snapshot(h.pool);

    const cases: [string, string, unknown, number, string][] = [
      ['PUT', `/api/tags/board/${board.id}`, { tagIds: [theirs.id] }, 404, 'TAG_NOT_FOUND'],
      ['PUT', `/api/tags/board/${board.id}`, { tagIds: [mine.id, 'nope'] }, 404, 'TAG_NOT_FOUND'],
      ['PUT', `/api/tags/board/${board.id}`, { tagIds: [crypto.randomUUID()] }, 404, 'TAG_NOT_FOUND'],
      ['PUT', `/api/tags/board/${board.id}`, { tagIds: 'x' }, 400, 'VALIDATION_ERROR'],
      ['PUT', `/api/tags/board/${theirBoard.id}`, { tagIds: [mine.id] }, 403, 'ACCESS_DENIED'],
      ['PUT', `/api/tags/board/${crypto.randomUUID()}`, { tagIds: [mine.id] }, 404, 'BOARD_NOT_FOUND'],
      ['PUT', `/api/tags/${theirs.id}`, { name: 'взлом' }, 404, 'TAG_NOT_FOUND'],
      ['DELETE', `/api/tags/${theirs.id}`, undefined, 404, 'TAG_NOT_FOUND'],
      ['DELETE', '/api/tags/123', undefined, 404, 'TAG_NOT_FOUND'],
      ['POST', '/api/tags', { name: 'x'.repeat(51) }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/tags', { name: '    ' }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/tags', { name: 'ok', color: 'red' }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/tags', { name: 'ok', color: '#12345' }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/tags', {}, 400, 'VALIDATION_ERROR'],
      ['PUT', `/api/tags/${mine.id}`, { name: ' ' }, 400, 'VALIDATION_ERROR'],
      ['PUT', `/api/tags/${mine.id}`, {}, 400, 'VALIDATION_ERROR'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await h.api(method, path, { token: u.token, body });
      expect({ method, path, status: r.status, code: r.body.code }).toEqual({ method, path, status, code });
    }
    const long = await h.api('POST', '/api/tags', { token: u.token, body: { name: 'я'.repeat(51) } });
    expect(long.body.error).toBe('Название тега должно содержать не более 50 символов');
    expect((await h.api('POST', '/api/tags', { token: u.token, body: { name: '   ' } })).body.error).toBe('Название тега не может быть пустым');
    expect(await snapshot(h.pool)).toBe(before);
  });
});
