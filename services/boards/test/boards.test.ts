import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@wb/events';
import { eventually, outboxEvents, startHarness, type Harness, type TestUser } from './helpers.ts';

let h: Harness;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  h = await startHarness();
  alice = await h.user('Алиса');
  bob = await h.user('Боб');
});
afterAll(async () => {
  await h?.stop();
});

const create = async (u: TestUser, title: string, folder_id: string | null = null) => {
  const r = await h.api('POST', '/api/boards', { token: u.token, body: { title, folder_id } });
  expect(r.status).toBe(201);
  return r.body.board;
};

describe('boards CRUD', () => {
  it('creates, lists, reads, renames, changes background and deletes', async () => {
    const board = await create(alice, '  Первая доска  ');
    expect(board).toMatchObject({
      title: 'Первая доска',
      folder_id: null,
      owner_id: alice.id,
      owner_name: 'Алиса',
      background: 'white',
      is_link_sharing_enabled: false,
      link_role: null,
      viewer_token_hash: null,
      guest_token_hash: null,
      editor_token_hash: null,
      tags: [],
      folder_name: null,
      folder_color: null,
    });
    expect(Object.keys(board).sort()).toEqual(
      [
        'id', 'title', 'folder_id', 'owner_id', 'owner_name', 'created_at', 'updated_at', 'folder_name', 'folder_color',
        'background', 'is_link_sharing_enabled', 'link_role', 'viewer_token_hash', 'guest_token_hash', 'editor_token_hash', 'tags',
      ].sort(),
    );

    const list = await h.api('GET', '/api/boards', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.boards.map((b: any) => b.id)).toContain(board.id);
    expect(list.body.limits).toEqual({ current: list.body.boards.length, max: -1, canCreate: true });

    const one = await h.api('GET', `/api/boards/${board.id}`, { token: alice.token });
    expect(one.status).toBe(200);
    expect(one.body.board).toMatchObject({ id: board.id, userRole: 'owner', viewer_token_hash: null });
    expect(one.body.canvasLimits).toEqual({ max_width: null, max_height: null, unlimited: true, background: 'white' });
    expect(one.body.currentUser).toEqual({ id: alice.id, name: 'Алиса' });

    const patched = await h.api('PATCH', `/api/boards/${board.id}`, { token: alice.token, body: { title: 'Новое имя', background: 'grid' } });
    expect(patched.status).toBe(200);
    expect(patched.body.board).toMatchObject({ title: 'Новое имя', background: 'grid' });
    const bg = await h.api('PATCH', `/api/boards/${board.id}`, { token: alice.token, body: { background: 'dots' } });
    expect(bg.body.board).toMatchObject({ title: 'Новое имя', background: 'dots' });

    const del = await h.api('DELETE', `/api/boards/${board.id}`, { token: alice.token });
    expect(del).toEqual({ status: 200, body: { message: 'Доска удалена' } });
    expect((await h.api('GET', `/api/boards/${board.id}`, { token: alice.token })).body.code).toBe('BOARD_NOT_FOUND');

    const types = (await h.pool.query(`SELECT type FROM outbox WHERE payload->'data'->>'boardId' = $1 ORDER BY seq`, [board.id])).rows.map((r) => r.type);
    expect(types).toEqual(['board.created', 'board.updated', 'board.updated', 'board.deleted']);
  });

  it('lists newest first, filters by folder, search (Cyrillic, case-insensitive) and tags (all of them)', async () => {
    const u = await h.user('Поиск');
    const folder = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'Папка', parent_id: null } })).body.folder;
    const b1 = await create(u, 'Доска планирования', folder.id);
    const b2 = await create(u, 'Roadmap 2025');
    const b3 = await create(u, 'ДОСКА идей 100%');
    const t1 = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 'срочно', color: '#EF4444' } })).body.tag;
    const t2 = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 'дизайн' } })).body.tag;
    await h.api('PUT', `/api/tags/board/${b1.id}`, { token: u.token, body: { tagIds: [t1.id, t2.id] } });
    await h.api('PUT', `/api/tags/board/${b3.id}`, { token: u.token, body: { tagIds: [t1.id] } });

    const ids = async (q: string) => (await h.api('GET', `/api/boards${q}`, { token: u.token })).body.boards.map((b: any) => b.id);
    expect(await ids('')).toEqual([b3.id, b2.id, b1.id]);
    expect(await ids(`?search=${encodeURIComponent('доск')}`)).toEqual([b3.id, b1.id]);
    expect(await ids(`?search=${encodeURIComponent('ИДЕЙ')}`)).toEqual([b3.id]);
    expect(await ids(`?search=${encodeURIComponent('%')}`)).toEqual([b3.id]);
    expect(await ids(`?search=${encodeURIComponent('_')}`)).toEqual([]);
    // 'е' and 'ё' are one letter, both ways and in either case.
    const yo = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Ёлка и ежи', folder_id: null } })).body.board;
    const ye = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Зеленая елка', folder_id: null } })).body.board;
    for (const q of ['ёлк', 'ЕЛК', 'елк', 'ЁЛК']) expect(await ids(`?search=${encodeURIComponent(q)}`), q).toEqual([ye.id, yo.id]);
    expect(await ids(`?search=${encodeURIComponent('ёжи')}`)).toEqual([yo.id]);
    expect(await ids(`?search=${encodeURIComponent('зелёная')}`)).toEqual([ye.id]);
    for (const b of [yo, ye]) await h.api('DELETE', `/api/boards/${b.id}`, { token: u.token });
    expect(await ids(`?folder_id=${folder.id}`)).toEqual([b1.id]);
    expect(await ids('?folder_id=none')).toEqual([b3.id, b2.id]);
    expect(await ids(`?tags=${t1.id}`)).toEqual([b3.id, b1.id]);
    expect(await ids(`?tags=${t1.id},${t2.id}`)).toEqual([b1.id]);
    expect(await ids(`?tags=${t2.id}&search=roadmap`)).toEqual([]);
    expect(await ids('?tags=not-a-uuid')).toEqual([]);
    expect(await ids('?folder_id=nonsense')).toEqual([]);

    const listed = (await h.api('GET', `/api/boards?folder_id=${folder.id}`, { token: u.token })).body.boards[0];
    expect(listed).toMatchObject({ folder_name: 'Папка', folder_color: '#3B82F6' });
    expect(listed.tags.map((t: any) => t.name).sort()).toEqual(['дизайн', 'срочно']);
    // another user's boards never show up
    expect((await h.api('GET', '/api/boards', { token: bob.token })).body.boards.map((b: any) => b.id)).not.toContain(b1.id);
  });
});

describe('limits from the entitlements projection', () => {
  it('refuses over the limit, also under parallel creates, and lifts it when limits are off', async () => {
    const u = await h.user('Лимит');
    await create(u, 'one');
    const ev = newEvent(
      'entitlements.changed',
      { userId: u.id, planName: 'Free', maxBoards: 3, maxCanvasWidth: 8000, maxCanvasHeight: 8000, exportPdf: false, limitsEnabled: true },
      'billing',
    );
    await h.transport.publish(ev);
    await eventually(async () => {
      const r = await h.api('GET', '/api/boards', { token: u.token });
      expect(r.body.limits).toEqual({ current: 1, max: 3, canCreate: true });
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.api('POST', '/api/boards', { token: u.token, body: { title: `p${i}`, folder_id: null } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r).toMatchObject({ status: 403, body: { code: 'BOARD_LIMIT_REACHED', error: 'Достигнут лимит досок. Обновите план для создания новых досок.' } });
    }
    const after = await h.api('GET', '/api/boards', { token: u.token });
    expect(after.body.limits).toEqual({ current: 3, max: 3, canCreate: false });

    // canvas limits come from the owner's plan
    const id = after.body.boards[0].id;
    expect((await h.api('GET', `/api/boards/${id}`, { token: u.token })).body.canvasLimits).toEqual({
      max_width: 8000,
      max_height: 8000,
      unlimited: false,
      background: 'white',
    });

    // an older event redelivered late does not win over the newer one
    const off = newEvent('entitlements.changed', { ...ev.data, limitsEnabled: false }, 'billing');
    await h.transport.publish(off);
    await eventually(async () => {
      expect((await h.api('GET', '/api/boards', { token: u.token })).body.limits).toEqual({ current: 3, max: -1, canCreate: true });
    });
    await h.transport.publish({ ...ev, id: crypto.randomUUID() });
    // Sentinel: a later event for someone else, through the same consumer, handled after the stale one.
    const other = await h.user('Другой');
    await h.transport.publish(newEvent('entitlements.changed', { ...ev.data, userId: other.id, maxBoards: 7 }, 'billing'));
    await eventually(async () => {
      expect((await h.api('GET', '/api/boards', { token: other.token })).body.limits.max).toBe(7);
    });
    expect((await h.api('GET', '/api/boards', { token: u.token })).body.limits.max).toBe(-1);
    expect((await h.api('POST', '/api/boards', { token: u.token, body: { title: 'four', folder_id: null } })).status).toBe(201);
  });
});

describe('sharing', () => {
  it('multiple links: tokens, roles, rotation and disabling invalidate at once, with sharing_changed events', async () => {
    const b = await create(alice, 'Общая');
    const r1 = await h.api('POST', `/api/boards/${b.id}/multiple-links`, { token: alice.token, body: { enabledRoles: ['viewer', 'guest', 'editor'] } });
    expect(r1.status).toBe(200);
    const s1 = r1.body.board;
    expect(s1.is_link_sharing_enabled).toBe(false); // the master switch is separate
    for (const k of ['viewer_token_hash', 'guest_token_hash', 'editor_token_hash']) expect(s1[k]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: s1.viewer_token_hash })).body.code).toBe('INVALID_SHARE_TOKEN');

    const on = await h.api('PUT', `/api/boards/${b.id}/sharing`, { token: alice.token, body: { enabled: true } });
    expect(on.body.board).toMatchObject({ is_link_sharing_enabled: true, link_role: 'editor' });

    for (const [role, tok] of [['viewer', s1.viewer_token_hash], ['guest', s1.guest_token_hash], ['editor', s1.editor_token_hash]]) {
      const r = await h.api('GET', `/api/boards/${b.id}`, { share: tok });
      expect(r.status).toBe(200);
      expect(r.body.board.userRole).toBe(role);
      expect(r.body.board).not.toHaveProperty('viewer_token_hash');
      expect(r.body.board).not.toHaveProperty('editor_token_hash');
      expect(r.body.currentUser).toBeNull();
    }
    // with a login and a token, the stronger role wins
    expect((await h.api('GET', `/api/boards/${b.id}`, { token: bob.token, share: s1.guest_token_hash })).body.board.userRole).toBe('guest');
    expect((await h.api('GET', `/api/boards/${b.id}`, { token: alice.token, share: s1.guest_token_hash })).body.board.userRole).toBe('owner');
    expect((await h.api('GET', `/api/boards/${b.id}`, { token: bob.token, share: s1.guest_token_hash })).body.currentUser).toEqual({ id: bob.id, name: 'Боб' });

    // rotate the listed ones, drop guest
    const r2 = await h.api('POST', `/api/boards/${b.id}/multiple-links`, { token: alice.token, body: { enabledRoles: ['viewer', 'editor'], rotate: true } });
    const s2 = r2.body.board;
    expect(s2.guest_token_hash).toBeNull();
    expect(s2.viewer_token_hash).not.toBe(s1.viewer_token_hash);
    for (const old of [s1.viewer_token_hash, s1.guest_token_hash, s1.editor_token_hash]) {
      expect(await h.api('GET', `/api/boards/${b.id}`, { share: old })).toMatchObject({
        status: 403,
        body: { code: 'INVALID_SHARE_TOKEN', error: 'Недействительная ссылка доступа' },
      });
    }
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: s2.viewer_token_hash })).status).toBe(200);
    // a token only opens the board it belongs to
    const other = await create(alice, 'Другая');
    expect((await h.api('GET', `/api/boards/${other.id}`, { share: s2.viewer_token_hash })).body.code).toBe('INVALID_SHARE_TOKEN');

    // sharing off: every token fails; on again: the same links work
    await h.api('PUT', `/api/boards/${b.id}/sharing`, { token: alice.token, body: { enabled: false } });
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: s2.editor_token_hash })).body.code).toBe('INVALID_SHARE_TOKEN');
    await h.api('PUT', `/api/boards/${b.id}/sharing`, { token: alice.token, body: { enabled: true } });
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: s2.editor_token_hash })).status).toBe(200);

    const events = (await outboxEvents(h.pool, 'board.sharing_changed')).filter((e) => e.data.boardId === b.id);
    expect(events.map((e) => e.data)).toEqual([
      { boardId: b.id, enabled: false, enabledRoles: ['viewer', 'guest', 'editor'], revokedRoles: [] },
      { boardId: b.id, enabled: true, enabledRoles: ['viewer', 'guest', 'editor'], revokedRoles: [] },
      { boardId: b.id, enabled: true, enabledRoles: ['viewer', 'editor'], revokedRoles: ['viewer', 'guest', 'editor'] },
      { boardId: b.id, enabled: false, enabledRoles: ['viewer', 'editor'], revokedRoles: ['viewer', 'editor'] },
      { boardId: b.id, enabled: true, enabledRoles: ['viewer', 'editor'], revokedRoles: [] },
    ]);
  });

  it('single link = viewer link: enable, rotate, disable; publicUrl', async () => {
    const b = await create(alice, 'Ссылка');
    const on = await h.api('POST', `/api/boards/${b.id}/link`, { token: alice.token, body: { enabled: true } });
    expect(on.status).toBe(200);
    const t1 = on.body.board.viewer_token_hash;
    expect(on.body.publicUrl).toBe(`/board/${b.id}?token=${t1}`);
    expect(on.body.board).toMatchObject({ is_link_sharing_enabled: true, link_role: 'viewer' });
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: t1 })).body.board.userRole).toBe('viewer');

    const rot = await h.api('POST', `/api/boards/${b.id}/link/rotate`, { token: alice.token });
    const t2 = rot.body.board.viewer_token_hash;
    expect(t2).not.toBe(t1);
    expect(rot.body.publicUrl).toBe(`/board/${b.id}?token=${t2}`);
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: t1 })).body.code).toBe('INVALID_SHARE_TOKEN');
    const last = (await outboxEvents(h.pool, 'board.sharing_changed')).filter((e) => e.data.boardId === b.id).at(-1);
    expect(last.data.revokedRoles).toEqual(['viewer']);

    const off = await h.api('POST', `/api/boards/${b.id}/link`, { token: alice.token, body: { enabled: false } });
    expect(off.body).toMatchObject({ publicUrl: null, board: { is_link_sharing_enabled: false, viewer_token_hash: null } });
    expect((await h.api('GET', `/api/boards/${b.id}`, { share: t2 })).body.code).toBe('INVALID_SHARE_TOKEN');
  });

  it('members: the owner', async () => {
    const b = await create(alice, 'Участники');
    expect((await h.api('GET', `/api/boards/${b.id}/members`, { token: alice.token })).body).toEqual({
      members: [{ id: alice.id, name: 'Алиса', role: 'owner' }],
    });
  });
});

describe('camera', () => {
  it('per user, for logged-in users with access; token-only is 401', async () => {
    const b = await create(alice, 'Камера');
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: alice.token })).body).toEqual({ data: null });
    const pos = { position_x: -120.5, position_y: 40, scale_x: 1.5, scale_y: 1.5 };
    expect((await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: pos })).body).toEqual({ data: pos });
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: alice.token })).body).toEqual({ data: pos });

    const linked = (await h.api('POST', `/api/boards/${b.id}/link`, { token: alice.token, body: { enabled: true } })).body.board;
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { share: linked.viewer_token_hash })).status).toBe(401);
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: bob.token, share: linked.viewer_token_hash })).body).toEqual({ data: null });
    const bobPos = { position_x: 1, position_y: 2, scale_x: 0.1, scale_y: 5 };
    expect((await h.api('PUT', `/api/boards/${b.id}/camera`, { token: bob.token, share: linked.viewer_token_hash, body: bobPos })).status).toBe(200);
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: alice.token })).body).toEqual({ data: pos });
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: bob.token })).body.code).toBe('ACCESS_DENIED');

    for (const bad of [
      { ...pos, scale_x: 0.05 },
      { ...pos, scale_y: 6 },
      { ...pos, position_x: 'x' },
      { position_x: 1, position_y: 2, scale_x: 1 },
      { ...pos, position_y: null },
    ]) {
      const r = await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, body: bad });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
    const inf = await h.api('PUT', `/api/boards/${b.id}/camera`, { token: alice.token, raw: '{"position_x":1e999,"position_y":0,"scale_x":1,"scale_y":1}' });
    expect(inf.status).toBe(400);
    expect((await h.api('GET', `/api/boards/${b.id}/camera`, { token: alice.token })).body).toEqual({ data: pos });
  });
});

describe('internal access call', () => {
  it('answers the stronger role of user and token', async () => {
    const b = await create(alice, 'Realtime');
    const s = (await h.api('POST', `/api/boards/${b.id}/multiple-links`, { token: alice.token, body: { enabledRoles: ['guest', 'editor'] } })).body.board;
    await h.api('PUT', `/api/boards/${b.id}/sharing`, { token: alice.token, body: { enabled: true } });
    const ask = (body: unknown, id = b.id) => h.api('POST', `/internal/boards/${id}/access`, { body });
    const board = { id: b.id, owner_id: alice.id, title: 'Realtime', background: 'white' };
    expect((await ask({ userId: alice.id })).body).toEqual({ role: 'owner', board });
    expect((await ask({ userId: bob.id })).body).toEqual({ role: 'none', board });
    expect((await ask({ userId: bob.id, shareToken: s.guest_token_hash })).body).toEqual({ role: 'guest', board });
    expect((await ask({ shareToken: s.editor_token_hash })).body).toEqual({ role: 'editor', board });
    expect((await ask({ userId: alice.id, shareToken: s.guest_token_hash })).body).toEqual({ role: 'owner', board });
    expect((await ask({ shareToken: 'nope' })).body).toEqual({ role: 'none', board });
    expect((await ask({})).body).toEqual({ role: 'none', board });
    expect((await ask({ userId: alice.id }, crypto.randomUUID())).body).toEqual({ role: 'none', board: null });
    expect((await ask({ userId: alice.id }, 'bad')).body).toEqual({ role: 'none', board: null });
    expect((await ask({ userId: 5 })).status).toBe(400);
  });
});

describe('consumed events', () => {
  it('user.registered / user.updated feed owner names', async () => {
    const u = await h.user('Старое имя');
    const b = await create(u, 'Имя');
    await h.transport.publish(newEvent('user.updated', { userId: u.id, email: 'x@example.com', name: 'Новое имя' }, 'auth'));
    await eventually(async () => {
      const r = await h.pool.query('SELECT name FROM users WHERE id = $1', [u.id]);
      expect(r.rows[0].name).toBe('Новое имя');
    });
    const stranger = crypto.randomUUID();
    await h.transport.publish(newEvent('user.registered', { userId: stranger, email: 's@example.com', name: 'Незнакомец', createdAt: new Date().toISOString() }, 'auth'));
    await eventually(async () => {
      expect((await h.pool.query('SELECT name FROM users WHERE id = $1', [stranger])).rows[0]?.name).toBe('Незнакомец');
    });
    expect(b.owner_name).toBe('Старое имя');
  });

  it('user.deleted removes boards, folders, tags and cameras and emits board.deleted per board', async () => {
    const u = await h.user('Удаляемый');
    const f = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'F', parent_id: null } })).body.folder;
    const b1 = await create(u, 'b1', f.id);
    const b2 = await create(u, 'b2');
    const t = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 'tag' } })).body.tag;
    await h.api('PUT', `/api/tags/board/${b1.id}`, { token: u.token, body: { tagIds: [t.id] } });
    await h.api('PUT', `/api/boards/${b2.id}/camera`, { token: u.token, body: { position_x: 0, position_y: 0, scale_x: 1, scale_y: 1 } });
    // u's camera on somebody else's board goes too
    const ab = await create(alice, 'чужая');
    const tok = (await h.api('POST', `/api/boards/${ab.id}/link`, { token: alice.token, body: { enabled: true } })).body.board.viewer_token_hash;
    await h.api('PUT', `/api/boards/${ab.id}/camera`, { token: u.token, share: tok, body: { position_x: 0, position_y: 0, scale_x: 1, scale_y: 1 } });

    const ev = newEvent('user.deleted', { userId: u.id }, 'auth');
    await h.transport.publish(ev);
    await h.transport.publish(ev); // a duplicate delivery is harmless
    await eventually(async () => {
      const counts = await h.pool.query(
        `SELECT (SELECT count(*) FROM boards WHERE owner_id = $1)::int AS boards, (SELECT count(*) FROM folders WHERE owner_id = $1)::int AS folders,
                (SELECT count(*) FROM tags WHERE owner_id = $1)::int AS tags, (SELECT count(*) FROM camera_positions WHERE user_id = $1)::int AS cams,
                (SELECT count(*) FROM board_counts WHERE owner_id = $1)::int AS counter, (SELECT count(*) FROM users WHERE id = $1)::int AS name`,
        [u.id],
      );
      expect(counts.rows[0]).toEqual({ boards: 0, folders: 0, tags: 0, cams: 0, counter: 0, name: 0 });
    });
    const deleted = (await outboxEvents(h.pool, 'board.deleted')).filter((e) => e.data.ownerId === u.id).map((e) => e.data.boardId);
    expect(deleted.sort()).toEqual([b1.id, b2.id].sort());
    expect((await h.api('GET', `/api/boards/${ab.id}`, { token: alice.token })).status).toBe(200);
  });
});
