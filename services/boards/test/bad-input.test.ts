import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot, startHarness, type Harness, type TestUser } from './helpers.ts';

/** Bad input of every kind: always a 4xx with a code (never a 500), and the database unchanged. */
let h: Harness;
let u: TestUser;
let other: TestUser;
let board: string;
let folder: string;
let child: string;
let foreignFolder: string;
let tag: string;

beforeAll(async () => {
  h = await startHarness();
  u = await h.user();
  other = await h.user();
  board = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b', folder_id: null } })).body.board.id;
  folder = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'f', parent_id: null } })).body.folder.id;
  child = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'c', parent_id: folder } })).body.folder.id;
  foreignFolder = (await h.api('POST', '/api/folders', { token: other.token, body: { name: 'x', parent_id: null } })).body.folder.id;
  tag = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 't' } })).body.tag.id;
});
afterAll(async () => {
  await h?.stop();
});

describe('bad input', () => {
  it('is refused with a 4xx code and changes nothing', async () => {
    const unknown = crypto.randomUUID();
    const cases: { m: string; p: string; body?: unknown; raw?: string; status: number; code: string }[] = [
      // unknown and wrong-shape ids
      { m: 'PATCH', p: `/api/boards/${unknown}`, body: { title: 'x' }, status: 404, code: 'BOARD_NOT_FOUND' },
      { m: 'PATCH', p: '/api/boards/abc', body: { title: 'x' }, status: 404, code: 'BOARD_NOT_FOUND' },
      { m: 'DELETE', p: "/api/boards/'%20OR%201=1", status: 404, code: 'BOARD_NOT_FOUND' },
      { m: 'PATCH', p: `/api/folders/${unknown}`, body: { name: 'x' }, status: 404, code: 'FOLDER_NOT_FOUND' },
      { m: 'DELETE', p: '/api/folders/zzz', status: 404, code: 'FOLDER_NOT_FOUND' },
      { m: 'PUT', p: '/api/tags/zzz', body: { name: 'x' }, status: 404, code: 'TAG_NOT_FOUND' },
      { m: 'POST', p: '/api/boards', body: { title: 'x', folder_id: 'nope' }, status: 404, code: 'FOLDER_NOT_FOUND' },
      { m: 'POST', p: '/api/boards', body: { title: 'x', folder_id: unknown }, status: 404, code: 'FOLDER_NOT_FOUND' },
      { m: 'POST', p: '/api/folders/move-board', body: { board_id: 'nope', folder_id: null }, status: 404, code: 'BOARD_NOT_FOUND' },
      { m: 'POST', p: '/api/folders/move-board', body: { board_id: board, folder_id: 'nope' }, status: 404, code: 'FOLDER_NOT_FOUND' },
      { m: 'POST', p: '/api/folders', body: { name: 'x', parent_id: 'nope' }, status: 404, code: 'FOLDER_NOT_FOUND' },
      // space-only and over-long names
      { m: 'POST', p: '/api/boards', body: { title: '   ', folder_id: null }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/boards', body: { title: 'x'.repeat(201), folder_id: null }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/boards', body: { folder_id: null }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PATCH', p: `/api/boards/${board}`, body: { title: ' \t ' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PATCH', p: `/api/boards/${board}`, body: {}, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PATCH', p: `/api/boards/${board}`, body: { background: 'stripes' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/folders', body: { name: '   ', parent_id: null }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/folders', body: { name: 'ok', parent_id: null, color: 'blue' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PATCH', p: `/api/folders/${folder}`, body: { name: '  ' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PATCH', p: `/api/folders/${folder}`, body: {}, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/tags', body: { name: 'x'.repeat(51) }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: '/api/tags', body: { name: ' ' }, status: 400, code: 'VALIDATION_ERROR' },
      // tree rules
      { m: 'PATCH', p: `/api/folders/${folder}`, body: { parent_id: child }, status: 400, code: 'CYCLIC_DEPENDENCY' },
      { m: 'PATCH', p: `/api/folders/${folder}`, body: { parent_id: folder }, status: 400, code: 'CYCLIC_DEPENDENCY' },
      { m: 'PATCH', p: `/api/folders/${folder}`, body: { parent_id: foreignFolder }, status: 404, code: 'FOLDER_NOT_FOUND' },
      {
        m: 'POST',
        p: '/api/folders/move-to-position',
        body: { folder_id: child, parent_id: null, target_folder_id: folder, position: 'inside' },
        status: 400,
        code: 'VALIDATION_ERROR',
      },
      { m: 'POST', p: '/api/folders/move-board', body: { board_id: board, folder_id: foreignFolder }, status: 404, code: 'FOLDER_NOT_FOUND' },
      // sharing and camera bodies
      { m: 'POST', p: `/api/boards/${board}/link`, body: { enabled: 'yes' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PUT', p: `/api/boards/${board}/sharing`, body: {}, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: `/api/boards/${board}/multiple-links`, body: { enabledRoles: ['owner'] }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: `/api/boards/${board}/multiple-links`, body: { enabledRoles: ['viewer', 'viewer'] }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'POST', p: `/api/boards/${board}/multiple-links`, body: { enabledRoles: 'viewer' }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PUT', p: `/api/boards/${board}/camera`, body: { position_x: 0, position_y: 0, scale_x: 0, scale_y: 1 }, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'PUT', p: `/api/tags/board/${board}`, body: { tagIds: [tag, 'bad'] }, status: 404, code: 'TAG_NOT_FOUND' },
      // malformed bodies and queries
      { m: 'POST', p: '/api/boards', raw: '{"title":', status: 400, code: 'INVALID_JSON' },
      { m: 'POST', p: '/api/boards', raw: '"just a string"', status: 400, code: 'INVALID_JSON' },
      { m: 'POST', p: '/api/boards', raw: JSON.stringify({ title: 'x'.repeat(200_000) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },
      { m: 'GET', p: `/api/boards?search=${'a'.repeat(201)}`, status: 400, code: 'VALIDATION_ERROR' },
      { m: 'GET', p: '/api/boards?search=a&search=b', status: 400, code: 'VALIDATION_ERROR' },
      { m: 'GET', p: '/api/nowhere', status: 404, code: 'NOT_FOUND' },
    ];
    const before = await snapshot(h.pool);
    for (const c of cases) {
      const r = await h.api(c.m, c.p, { token: u.token, body: c.body, raw: c.raw });
      expect({ m: c.m, p: c.p.slice(0, 80), status: r.status, code: r.body?.code }).toEqual({ m: c.m, p: c.p.slice(0, 80), status: c.status, code: c.code });
      expect(typeof r.body.error).toBe('string');
    }
    expect(await snapshot(h.pool)).toBe(before);
  });

  it('validation messages are Russian', async () => {
    const r = await h.api('POST', '/api/boards', { token: u.token, body: { title: '  ', folder_id: null } });
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Название доски не может быть пустым', fields: { title: 'Название доски не может быть пустым' } });
    const f = await h.api('POST', '/api/folders', { token: u.token, body: { name: ' ' } });
    expect(f.body.error).toBe('Название папки не может быть пустым');
    const p = await h.api('POST', '/api/folders/move-to-position', {
      token: u.token,
      body: { folder_id: child, parent_id: null, target_folder_id: folder, position: 'middle' },
    });
    expect(p.body.error).toBe('Позиция должна быть before или after');
  });
});
