import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
