import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@wb/testkit';
import { startEmbedded, type EmbeddedHandle } from '../embedded/embedded.ts';
import { call } from './clients.ts';

/**
 * Every public endpoint, through the gateway, fed malformed JSON, wrong-typed fields, oversized
 * bodies and unknown ids: always a 4xx with `{error, code}`, never a 500, and nothing changes.
 */
const ID = '00000000-0000-4000-8000-000000000000';
const ENDPOINTS: Array<[string, string]> = [
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/refresh'],
  ['POST', '/api/auth/logout'],
  ['PATCH', '/api/auth/profile'],
  ['PATCH', '/api/auth/change-password'],
  ['PATCH', '/api/auth/change-email'],
  ['PATCH', '/api/auth/settings'],
  ['PUT', '/api/auth/user/favorite-emojis'],
  ['POST', '/api/boards'],
  ['PATCH', '/api/boards/:board'],
  ['POST', '/api/boards/:board/link'],
  ['PUT', '/api/boards/:board/sharing'],
  ['POST', '/api/boards/:board/multiple-links'],
  ['PUT', '/api/boards/:board/camera'],
  ['POST', '/api/folders'],
  ['PATCH', '/api/folders/:folder'],
  ['POST', '/api/folders/move-board'],
  ['POST', '/api/folders/move-to-position'],
  ['POST', '/api/folders/reorder'],
  ['POST', '/api/tags'],
  ['PUT', '/api/tags/:tag'],
  ['PUT', '/api/tags/board/:board'],
  ['POST', '/yjs/force-save'],
  ['POST', '/yjs/reactions'],
];
const WRONG_TYPES: unknown[] = [
  {},
  [],
  'text',
  42,
  null,
  { email: 5, password: ['x'], name: { a: 1 }, title: 7, folder_id: 'x', enabled: 'yes', enabledRoles: 'viewer' },
  { name: ' ', color: 'red', parent_id: 12, position: 'middle', folder_ids: 'a', tagIds: [1], boardId: 3, objectId: {}, emoji: 9 },
  { position_x: 'a', position_y: null, scale_x: 1e308, scale_y: -1, settings: 'x', favorites: [1, 2], refreshToken: 123 },
];

describe('bad input through the gateway', () => {
  let handle: EmbeddedHandle;
  let token: string;
  const ids: Record<string, string> = {};
  const fill = (p: string) => p.replace(':board', ids.board!).replace(':folder', ids.folder!).replace(':tag', ids.tag!);

  beforeAll(async () => {
    handle = await startEmbedded({ port: 0, dataDir: await tempDir('bad-input'), logLevel: 'silent', env: { AUTH_RATE_LIMIT_PER_MIN: '0' } });
    const reg = await call(handle.url, 'POST', '/api/auth/register', { body: { email: 'strict@example.com', password: 'Secret-123', name: 'Строгая' } });
    token = reg.body.accessToken;
    ids.board = (await call(handle.url, 'POST', '/api/boards', { token, body: { title: 'Доска', folder_id: null } })).body.board.id;
    ids.folder = (await call(handle.url, 'POST', '/api/folders', { token, body: { name: 'Папка', parent_id: null, color: '#3B82F6' } })).body.folder.id;
    ids.tag = (await call(handle.url, 'POST', '/api/tags', { token, body: { name: 'тег', color: '#EF4444' } })).body.tag.id;
    // The new account's plan reaches auth and boards by event, and so does the board count of the
    // profile: the snapshot below must not race them (it did in CI: limits.max -1, then 3; and
    // boards_count 0, then 1).
    for (const started = Date.now(); ; ) {
      const profile = (await call(handle.url, 'GET', '/api/auth/profile', { token })).body;
      const boards = (await call(handle.url, 'GET', '/api/boards', { token })).body;
      if (profile.user?.plan_name && profile.user.boards_count === 1 && boards.limits?.max !== -1) break;
      if (Date.now() - started > 20_000) throw new Error('the plan or the board count never arrived');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    await handle?.stop();
  });

  const snapshot = async () => ({
    profile: (await call(handle.url, 'GET', '/api/auth/profile', { token })).body,
    boards: (await call(handle.url, 'GET', '/api/boards', { token })).body,
    folders: (await call(handle.url, 'GET', '/api/folders', { token })).body,
    tags: (await call(handle.url, 'GET', '/api/tags', { token })).body,
  });

  const expectClientError = (res: { status: number; headers: Headers; text: string }, what: string) => {
    expect(res.status, what).toBeGreaterThanOrEqual(400);
    expect(res.status, what).toBeLessThan(500);
    const body = JSON.parse(res.text);
    expect(typeof body.error, what).toBe('string');
    expect(body.error.length, what).toBeGreaterThan(0);
    expect(typeof body.code, what).toBe('string');
  };

  const raw = async (method: string, path: string, body: string, contentType = 'application/json') => {
    const withBody = method !== 'GET' && method !== 'HEAD';
    const res = await fetch(handle.url + path, {
      method,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      body: withBody ? body : undefined,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  it('answers malformed JSON, wrong types, oversized bodies and unknown ids with 4xx {error, code}, changing nothing', async () => {
    const before = await snapshot();
    for (const [method, template] of ENDPOINTS) {
      const path = fill(template);
      expectClientError(await raw(method, path, '{"title": "unterminated'), `${method} ${path} malformed JSON`);
      expectClientError(await raw(method, path, '{"a":1}'.padEnd(3 * 1024 * 1024, ' ')), `${method} ${path} 3 MiB body`);
      expectClientError(await raw(method, path, JSON.stringify({ pad: 'x'.repeat(200 * 1024) })), `${method} ${path} 200 KiB body`);
      for (const body of WRONG_TYPES) {
        const res = await raw(method, path, JSON.stringify(body));
        // Logout accepts `{}` (it ends the bearer's session); everything else here is refused. Either
        // way the answer is never a server error.
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expectClientError(res, `${method} ${path} ${JSON.stringify(body)}`);
      }
      if (template.includes(':')) {
        for (const bad of [ID, 'not-a-uuid', '%00', 'x'.repeat(300)]) {
          const p = template.replace(/:(board|folder|tag)/, encodeURIComponent(bad));
          const res = await raw(method, p, '{}');
          expectClientError(res, `${method} ${p}`);
        }
      }
    }
    // Logout with an empty body ends the session of the bearer token: sign in again before comparing.
    token = (await call(handle.url, 'POST', '/api/auth/login', { body: { email: 'strict@example.com', password: 'Secret-123' } })).body.accessToken;
    expect(await snapshot()).toEqual(before);
  });

  it('answers unknown routes and methods with 404 {error, code}', async () => {
    for (const [method, path] of [
      ['GET', '/api/unknown'],
      ['DELETE', '/api/auth/login'],
      ['POST', '/api/boards/x/y/z'],
      ['GET', '/api/folders/a/b'],
      ['PUT', '/yjs/nothing'],
    ] as const) {
      const res = await raw(method, path, '{}');
      expect(res.status, `${method} ${path}`).toBe(404);
      expectClientError(res, `${method} ${path}`);
    }
  });
});
