import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot, startHarness, type Harness, type TestUser } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const mk = async (u: TestUser, name: string, parent_id: string | null = null, color?: string) => {
  const r = await h.api('POST', '/api/folders', { token: u.token, body: { name, parent_id, color } });
  expect(r.status).toBe(201);
  return r.body.folder;
};

/** sort_order of each parent's children is exactly 0..n-1 and no folder is its own ancestor. */
async function assertConsistent(u: TestUser) {
  const { rows } = await h.pool.query('SELECT id, parent_id, sort_order FROM folders WHERE owner_id = $1', [u.id]);
  const byParent = new Map<string | null, number[]>();
  for (const r of rows) byParent.set(r.parent_id, [...(byParent.get(r.parent_id) ?? []), r.sort_order]);
  for (const orders of byParent.values()) expect(orders.sort((a, b) => a - b)).toEqual(orders.map((_, i) => i));
  const parent = new Map(rows.map((r) => [r.id, r.parent_id as string | null]));
  for (const r of rows) {
    const seen = new Set<string>();
    for (let p: string | null = r.id; p; p = parent.get(p) ?? null) {
      expect(seen.has(p)).toBe(false);
      seen.add(p);
    }
  }
}

const childrenOf = async (u: TestUser, parent: string | null) =>
  (await h.pool.query('SELECT id FROM folders WHERE owner_id = $1 AND parent_id IS NOT DISTINCT FROM $2 ORDER BY sort_order', [u.id, parent])).rows.map(
    (r) => r.id,
  );

describe('folders', () => {
  it('creates a tree with defaults, board counts and colours', async () => {
    const u = await h.user();
    const a = await mk(u, '  Работа ');
    expect(a).toEqual({ id: a.id, name: 'Работа', parent_id: null, color: '#3B82F6', sort_order: 0, board_count: 0, children: [] });
    const b = await mk(u, 'Личное', null, '#abc');
    expect(b).toMatchObject({ color: '#AABBCC', sort_order: 1 });
    const a1 = await mk(u, 'Проекты', a.id, '#10b981');
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'x', folder_id: a1.id } });
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'y', folder_id: a1.id } });
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'z', folder_id: a.id } });
    const tree = (await h.api('GET', '/api/folders', { token: u.token })).body.folders;
    expect(tree.map((f: any) => f.name)).toEqual(['Работа', 'Личное']);
    expect(tree[0]).toMatchObject({ board_count: 1, children: [{ id: a1.id, name: 'Проекты', parent_id: a.id, color: '#10B981', board_count: 2, children: [] }] });

    const renamed = await h.api('PATCH', `/api/folders/${b.id}`, { token: u.token, body: { name: 'Дом', color: '#EF4444' } });
    expect(renamed.body.folder).toMatchObject({ name: 'Дом', color: '#EF4444' });
    // another user sees none of it
    const other = await h.user();
    expect((await h.api('GET', '/api/folders', { token: other.token })).body.folders).toEqual([]);
  });

  it('moves folders under a new parent, refuses cycles with CYCLIC_DEPENDENCY and changes nothing', async () => {
    const u = await h.user();
    const a = await mk(u, 'A');
    const b = await mk(u, 'B', a.id);
    const c = await mk(u, 'C', b.id);
    const d = await mk(u, 'D');
    const before = await snapshot(h.pool);
    for (const [id, parent] of [
      [a.id, a.id],
      [a.id, b.id],
      [a.id, c.id],
      [b.id, c.id],
    ]) {
      const r = await h.api('PATCH', `/api/folders/${id}`, { token: u.token, body: { parent_id: parent } });
      expect(r).toMatchObject({ status: 400, body: { code: 'CYCLIC_DEPENDENCY', error: 'Нельзя переместить папку в её дочернюю папку' } });
    }
    const viaPosition = await h.api('POST', '/api/folders/move-to-position', {
      token: u.token,
      body: { folder_id: a.id, parent_id: b.id, target_folder_id: c.id, position: 'before' },
    });
    expect(viaPosition.body.code).toBe('CYCLIC_DEPENDENCY');
    expect(await snapshot(h.pool)).toBe(before);

    const moved = await h.api('PATCH', `/api/folders/${c.id}`, { token: u.token, body: { parent_id: d.id } });
    expect(moved.body.folder).toMatchObject({ parent_id: d.id, sort_order: 0 });
    const up = await h.api('PATCH', `/api/folders/${b.id}`, { token: u.token, body: { parent_id: null } });
    expect(up.body.folder).toMatchObject({ parent_id: null, sort_order: 2 });
    await assertConsistent(u);
  });

  it('move-to-position and reorder keep sort_order dense', async () => {
    const u = await h.user();
    const [a, b, c, d] = [await mk(u, 'a'), await mk(u, 'b'), await mk(u, 'c'), await mk(u, 'd')];
    const p = await mk(u, 'p');
    const [p1, p2] = [await mk(u, 'p1', p.id), await mk(u, 'p2', p.id)];

    let r = await h.api('POST', '/api/folders/move-to-position', {
      token: u.token,
      body: { folder_id: d.id, parent_id: null, target_folder_id: a.id, position: 'before' },
    });
    expect(r.status).toBe(200);
    expect(r.body.folders.map((f: any) => f.name)).toEqual(['d', 'a', 'b', 'c', 'p']);
    expect(r.body.folders.map((f: any) => f.sort_order)).toEqual([0, 1, 2, 3, 4]);

    // across parents: b goes inside p after p1
    r = await h.api('POST', '/api/folders/move-to-position', {
      token: u.token,
      body: { folder_id: b.id, parent_id: p.id, target_folder_id: p1.id, position: 'after' },
    });
    expect(r.status).toBe(200);
    expect(await childrenOf(u, p.id)).toEqual([p1.id, b.id, p2.id]);
    expect(await childrenOf(u, null)).toEqual([d.id, a.id, c.id, p.id]);
    await assertConsistent(u);

    r = await h.api('POST', '/api/folders/reorder', { token: u.token, body: { parent_id: null, folder_ids: [p.id, c.id, a.id, d.id] } });
    expect(r.status).toBe(200);
    expect(await childrenOf(u, null)).toEqual([p.id, c.id, a.id, d.id]);
    // a partial list puts the listed first, the rest keep their order
    await h.api('POST', '/api/folders/reorder', { token: u.token, body: { parent_id: p.id, folder_ids: [p2.id] } });
    expect(await childrenOf(u, p.id)).toEqual([p2.id, p1.id, b.id]);
    await assertConsistent(u);

    // refusals
    const before = await snapshot(h.pool);
    const bad = [
      { body: { folder_id: a.id, parent_id: null, target_folder_id: c.id, position: 'inside' }, code: 'VALIDATION_ERROR' },
      { body: { folder_id: a.id, parent_id: null, target_folder_id: a.id, position: 'after' }, code: 'VALIDATION_ERROR' },
      { body: { folder_id: a.id, parent_id: null, target_folder_id: p1.id, position: 'after' }, code: 'VALIDATION_ERROR' },
      { body: { folder_id: a.id, parent_id: null, target_folder_id: crypto.randomUUID(), position: 'after' }, code: 'FOLDER_NOT_FOUND' },
      { body: { folder_id: 'x', parent_id: null, target_folder_id: c.id, position: 'after' }, code: 'FOLDER_NOT_FOUND' },
    ];
    for (const x of bad) {
      const res = await h.api('POST', '/api/folders/move-to-position', { token: u.token, body: x.body });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.code).toBe(x.code);
    }
    for (const [body, code] of [
      [{ parent_id: null, folder_ids: [p1.id] }, 'VALIDATION_ERROR'],
      [{ parent_id: null, folder_ids: [a.id, a.id] }, 'VALIDATION_ERROR'],
      [{ parent_id: null, folder_ids: [crypto.randomUUID()] }, 'FOLDER_NOT_FOUND'],
      [{ parent_id: crypto.randomUUID(), folder_ids: [] }, 'FOLDER_NOT_FOUND'],
      [{ parent_id: null, folder_ids: 'a' }, 'VALIDATION_ERROR'],
    ] as const) {
      const res = await h.api('POST', '/api/folders/reorder', { token: u.token, body });
      expect(res.body.code).toBe(code);
    }
    expect(await snapshot(h.pool)).toBe(before);
  });

  it('20 concurrent reorders and moves end consistent, and never build a cycle', async () => {
    const u = await h.user();
    const roots: { id: string }[] = [];
    for (let i = 0; i < 6; i++) roots.push(await mk(u, `r${i}`));
    const kids = [await mk(u, 'k0', roots[0].id), await mk(u, 'k1', roots[1].id)];
    const all = [...roots, ...kids];
    const ops = Array.from({ length: 20 }, (_, i) => {
      const pick = (k: number) => all[(i * 7 + k * 3) % all.length];
      switch (i % 4) {
        case 0:
          return h.api('POST', '/api/folders/reorder', {
            token: u.token,
            body: { parent_id: null, folder_ids: [...roots].sort(() => (i % 3) - 1).map((f) => f.id) },
          });
        case 1:
          return h.api('POST', '/api/folders/move-to-position', {
            token: u.token,
            body: { folder_id: pick(0).id, parent_id: null, target_folder_id: roots[i % roots.length].id, position: i % 8 === 1 ? 'before' : 'after' },
          });
        case 2: {
          // pairs that would form a cycle if both won: a under b (i = 2, 10, 18) and b under a (i = 6, 14)
          const [child, parent] = Math.floor(i / 4) % 2 === 0 ? [roots[0], roots[1]] : [roots[1], roots[0]];
          return h.api('PATCH', `/api/folders/${child.id}`, { token: u.token, body: { parent_id: parent.id } });
        }
        default:
          return h.api('PATCH', `/api/folders/${pick(1).id}`, { token: u.token, body: { parent_id: pick(2).id } });
      }
    });
    const results = await Promise.all(ops);
    for (const r of results) {
      expect(r.status).toBeLessThan(500);
      if (r.status !== 200) expect(['CYCLIC_DEPENDENCY', 'VALIDATION_ERROR', 'FOLDER_NOT_FOUND']).toContain(r.body.code);
    }
    await assertConsistent(u);
    const tree = (await h.api('GET', '/api/folders', { token: u.token })).body.folders;
    const count = (nodes: any[]): number => nodes.reduce((n, f) => n + 1 + count(f.children), 0);
    expect(count(tree)).toBe(all.length);
  });

  it('a under b and b under a at the same moment, many rounds and both routes: one move wins, never a cycle', async () => {
    const u = await h.user();
    const a = await mk(u, 'a');
    const b = await mk(u, 'b');
    // move-to-position places a folder next to a child of its new parent: each has one.
    const inside = new Map([
      [a.id, await mk(u, 'a1', a.id)],
      [b.id, await mk(u, 'b1', b.id)],
    ]);
    const toRoot = async () => {
      for (const f of [a, b]) expect((await h.api('PATCH', `/api/folders/${f.id}`, { token: u.token, body: { parent_id: null } })).status).toBe(200);
    };
    // PATCH and move-to-position check the cycle the same way; each round races both directions.
    const move = (child: { id: string }, parent: { id: string }, viaPosition: boolean) =>
      viaPosition
        ? h.api('POST', '/api/folders/move-to-position', {
            token: u.token,
            body: { folder_id: child.id, parent_id: parent.id, target_folder_id: inside.get(parent.id)!.id, position: 'after' },
          })
        : h.api('PATCH', `/api/folders/${child.id}`, { token: u.token, body: { parent_id: parent.id } });
    let wins = { ab: 0, ba: 0 };
    for (let round = 0; round < 30; round++) {
      await toRoot();
      const via = round % 3 === 2;
      const pair = round % 2 === 0 ? [move(a, b, via), move(b, a, via)] : [move(b, a, via), move(a, b, via)];
      const [first, second] = await Promise.all(pair);
      const [ab, ba] = round % 2 === 0 ? [first, second] : [second, first];
      // Exactly one wins; the loser is refused as a cycle, checked against the winner's committed move.
      expect([ab.status, ba.status].sort(), `round ${round}`).toEqual([200, 400]);
      expect((ab.status === 400 ? ab : ba).body.code).toBe('CYCLIC_DEPENDENCY');
      wins = { ab: wins.ab + (ab.status === 200 ? 1 : 0), ba: wins.ba + (ba.status === 200 ? 1 : 0) };
      await assertConsistent(u);
    }
    // Both directions really competed: each won some rounds.
    expect(wins.ab).toBeGreaterThan(0);
    expect(wins.ba).toBeGreaterThan(0);
  });

  it('deleting a folder moves its boards to the root and its subfolders up to its parent, in its place', async () => {
    const u = await h.user();
    const before = await mk(u, 'Before');
    const a = await mk(u, 'A');
    const keep = await mk(u, 'Keep');
    const b = await mk(u, 'B', a.id);
    const b2 = await mk(u, 'B2', a.id);
    const c = await mk(u, 'C', b.id);
    const mkBoard = async (folder_id: string | null) =>
      (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b', folder_id } })).body.board.id;
    const inA = await mkBoard(a.id);
    const inB = await mkBoard(b.id);
    const inC = await mkBoard(c.id);
    const inKeep = await mkBoard(keep.id);
    const r = await h.api('DELETE', `/api/folders/${a.id}`, { token: u.token });
    expect(r).toEqual({ status: 200, body: { message: 'Папка удалена' } });
    await assertConsistent(u);
    // A's children take A's slot among the root folders; their own subtrees and boards stay as they were.
    expect(await childrenOf(u, null)).toEqual([before.id, b.id, b2.id, keep.id]);
    expect(await childrenOf(u, b.id)).toEqual([c.id]);
    const tree = (await h.api('GET', '/api/folders', { token: u.token })).body.folders;
    expect(tree.map((f: any) => [f.name, f.board_count])).toEqual([['Before', 0], ['B', 1], ['B2', 0], ['Keep', 1]]);
    expect(tree[1].children.map((f: any) => [f.name, f.board_count])).toEqual([['C', 1]]);
    const root = (await h.api('GET', '/api/boards?folder_id=none', { token: u.token })).body.boards.map((x: any) => x.id);
    expect(root).toEqual([inA]);
    expect((await h.api('GET', `/api/boards/${inB}`, { token: u.token })).body.board.folder_id).toBe(b.id);
    expect((await h.api('GET', `/api/boards/${inC}`, { token: u.token })).body.board.folder_id).toBe(c.id);
    expect((await h.api('GET', `/api/boards/${inKeep}`, { token: u.token })).body.board.folder_id).toBe(keep.id);
    const updates = (await h.pool.query(`SELECT payload FROM outbox WHERE type = 'board.updated'`)).rows.map((x) => x.payload.data);
    expect(updates.filter((d) => d.boardId === inA).at(-1).folderId).toBeNull();
    expect((await h.api('DELETE', `/api/folders/${a.id}`, { token: u.token })).body.code).toBe('FOLDER_NOT_FOUND');
    // A nested folder's children move up to its own parent, not to the root.
    expect((await h.api('DELETE', `/api/folders/${b.id}`, { token: u.token })).status).toBe(200);
    expect(await childrenOf(u, null)).toEqual([before.id, c.id, b2.id, keep.id]);
    await assertConsistent(u);
  });

  it('board_count is kept by triggers through creates, moves, deletes and folder deletion', async () => {
    const u = await h.user();
    const a = await mk(u, 'A');
    const b = await mk(u, 'B', a.id);
    const c = await mk(u, 'C');
    const kept = async () =>
      (
        await h.pool.query(
          `SELECT f.id, f.board_count AS kept, (SELECT count(*)::int FROM boards x WHERE x.folder_id = f.id) AS real
             FROM folders f WHERE f.owner_id = $1`,
          [u.id],
        )
      ).rows;
    const check = async () => {
      for (const r of await kept()) expect(r.kept, r.id).toBe(r.real);
    };
    const made: string[] = [];
    for (const folder of [a.id, a.id, b.id, null, c.id]) {
      made.push((await h.api('POST', '/api/boards', { token: u.token, body: { title: 'x', folder_id: folder } })).body.board.id);
    }
    await check();
    await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: made[0], folder_id: b.id } });
    await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: made[3], folder_id: c.id } });
    await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: made[4], folder_id: null } });
    await h.api('PATCH', `/api/boards/${made[1]}`, { token: u.token, body: { title: 'renamed' } });
    await check();
    await h.api('DELETE', `/api/boards/${made[2]}`, { token: u.token });
    await check();
    // Set-wise changes: a folder's boards go to the root, its subfolder moves up.
    await h.api('DELETE', `/api/folders/${a.id}`, { token: u.token });
    await check();
    const tree = (await h.api('GET', '/api/folders', { token: u.token })).body.folders;
    expect(tree.map((f: any) => [f.name, f.board_count])).toEqual([['B', 1], ['C', 1]]);
    await Promise.all(made.map((id) => h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: id, folder_id: c.id } })));
    await check();
  });

  it('move-board: into own folder, to root; someone else’s folder is FOLDER_NOT_FOUND', async () => {
    const u = await h.user();
    const other = await h.user();
    const f = await mk(u, 'mine');
    const foreign = await mk(other, 'theirs');
    const board = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b', folder_id: null } })).body.board;
    const r = await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: board.id, folder_id: f.id } });
    expect(r.status).toBe(200);
    expect(r.body.board).toMatchObject({ id: board.id, folder_id: f.id, folder_name: 'mine' });
    const before = await snapshot(h.pool);
    expect((await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: board.id, folder_id: foreign.id } })).body.code).toBe(
      'FOLDER_NOT_FOUND',
    );
    expect((await h.api('POST', '/api/boards', { token: u.token, body: { title: 'b', folder_id: foreign.id } })).body.code).toBe('FOLDER_NOT_FOUND');
    expect((await h.api('POST', '/api/folders', { token: u.token, body: { name: 'sub', parent_id: foreign.id } })).body.code).toBe('FOLDER_NOT_FOUND');
    expect((await h.api('PATCH', `/api/folders/${foreign.id}`, { token: u.token, body: { name: 'x' } })).body.code).toBe('FOLDER_NOT_FOUND');
    expect((await h.api('DELETE', `/api/folders/${foreign.id}`, { token: u.token })).body.code).toBe('FOLDER_NOT_FOUND');
    expect((await h.api('POST', '/api/folders/move-board', { token: other.token, body: { board_id: board.id, folder_id: foreign.id } })).body.code).toBe(
      'ACCESS_DENIED',
    );
    expect(await snapshot(h.pool)).toBe(before);
    const root = await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: board.id, folder_id: null } });
    expect(root.body.board.folder_id).toBeNull();
  });
});
