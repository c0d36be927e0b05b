import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@wb/events';
import { ListCache } from '../src/list-cache.ts';
import { startHarness, type Harness } from './helpers.ts';

const body = (s: string) => Buffer.from(s);

describe('ListCache', () => {
  it('serves an answer only at the version it was built at', () => {
    const c = new ListCache(1024);
    expect(c.has('u', 'boards')).toBe(false);
    c.set('u', 'boards', '7', body('seven'));
    expect(c.has('u', 'boards')).toBe(true);
    expect(c.get('u', 'boards', '7')?.toString()).toBe('seven');
    expect(c.get('u', 'boards', '8')).toBeUndefined();
    expect(c.get('v', 'boards', '7')).toBeUndefined();
    expect(c.get('u', 'folders', '7')).toBeUndefined();
    expect([c.hits, c.misses]).toEqual([1, 3]);
  });

  it('stays within its bytes, dropping the least recently used first', () => {
    const c = new ListCache(100);
    c.set('u', 'a', '1', body('x'.repeat(25)));
    c.set('u', 'b', '1', body('x'.repeat(25)));
    c.set('u', 'c', '1', body('x'.repeat(25)));
    c.get('u', 'a', '1');
    c.set('u', 'd', '1', body('x'.repeat(25)));
    c.set('u', 'e', '1', body('x'.repeat(25)));
    expect(c.bytesKept).toBeLessThanOrEqual(100);
    expect(['a', 'b', 'c', 'd', 'e'].filter((k) => c.has('u', k))).toEqual(['a', 'c', 'd', 'e']);
    // Replacing an entry counts its bytes once.
    c.set('u', 'a', '2', body('y'.repeat(10)));
    expect(c.bytesKept).toBe(85);
    // Nothing over a quarter of the budget is kept, and a zero budget keeps nothing.
    c.set('u', 'big', '1', body('z'.repeat(26)));
    expect(c.has('u', 'big')).toBe(false);
    const off = new ListCache(0);
    off.set('u', 'a', '1', body('x'));
    expect(off.size).toBe(0);
  });
});

describe('dashboard answers kept between loads', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a write through one replica shows at once in the repeated loads of another', async () => {
    const u = await h.user('Две реплики');
    const other = await h.replica();
    const list = async () => (await other.api('GET', '/api/boards', { token: u.token })).body;
    const tree = async () => (await other.api('GET', '/api/folders', { token: u.token })).body.folders;
    const board = (await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Первая', folder_id: null } })).body.board;
    expect((await list()).boards.map((b: { title: string }) => b.title)).toEqual(['Первая']);
    expect((await list()).boards.map((b: { title: string }) => b.title)).toEqual(['Первая']);
    expect(await tree()).toEqual([]);
    expect(await tree()).toEqual([]);

    await h.api('PATCH', `/api/boards/${board.id}`, { token: u.token, body: { title: 'Переименована' } });
    expect((await list()).boards.map((b: { title: string }) => b.title)).toEqual(['Переименована']);
    const folder = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'Папка', parent_id: null } })).body.folder;
    expect((await tree()).map((f: { name: string }) => f.name)).toEqual(['Папка']);
    await h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: board.id, folder_id: folder.id } });
    expect((await tree())[0].board_count).toBe(1);
    expect((await list()).boards[0].folder_name).toBe('Папка');
    const tag = (await h.api('POST', '/api/tags', { token: u.token, body: { name: 'метка' } })).body.tag;
    await h.api('PUT', `/api/tags/board/${board.id}`, { token: u.token, body: { tagIds: [tag.id] } });
    expect((await list()).boards[0].tags.map((t: { name: string }) => t.name)).toEqual(['метка']);
    await h.api('PUT', `/api/tags/${tag.id}`, { token: u.token, body: { name: 'новая метка' } });
    expect((await list()).boards[0].tags.map((t: { name: string }) => t.name)).toEqual(['новая метка']);
    await h.api('DELETE', `/api/boards/${board.id}`, { token: u.token });
    expect(await list()).toMatchObject({ boards: [], limits: { current: 0 } });
    expect((await tree())[0].board_count).toBe(0);
  });

  it('keeps each filter’s answer apart: all boards, boards without a folder, one folder', async () => {
    // Found by the dashboard's browser test: the key was JSON of the filter, where an undefined
    // folder (all boards) and a null one (without a folder) are both written as null.
    const u = await h.user('Фильтры');
    const titles = async (q: string) =>
      (await h.api('GET', `/api/boards${q}`, { token: u.token })).body.boards.map((b: { title: string }) => b.title).sort();
    const folder = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'Проекты', parent_id: null } })).body.folder;
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Альфа', folder_id: null } });
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Бета', folder_id: folder.id } });
    for (let round = 0; round < 2; round++) {
      expect(await titles('')).toEqual(['Альфа', 'Бета']);
      expect(await titles('?folder_id=none')).toEqual(['Альфа']);
      expect(await titles(`?folder_id=${folder.id}`)).toEqual(['Бета']);
      expect(await titles('?search=')).toEqual(['Альфа', 'Бета']);
    }
  });

  it('one owner’s concurrent writes and reads all answer (no deadlock, no 500)', async () => {
    const u = await h.user('Спешащий');
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const folder = (await h.api('POST', '/api/folders', { token: u.token, body: { name: `Папка ${round}`, parent_id: null } })).body.folder;
      const child = (await h.api('POST', '/api/folders', { token: u.token, body: { name: 'Вложенная', parent_id: folder.id } })).body.folder;
      const boards = await Promise.all(
        [0, 1, 2].map(async (i) => (await h.api('POST', '/api/boards', { token: u.token, body: { title: `Д ${i}`, folder_id: folder.id } })).body.board),
      );
      const tag = (await h.api('POST', '/api/tags', { token: u.token, body: { name: `тег ${round}` } })).body.tag;
      await h.api('PUT', `/api/tags/board/${boards[0].id}`, { token: u.token, body: { tagIds: [tag.id] } });
      // A folder deletion (moves its subfolder up, its boards to the root) against edits of its boards and tags.
      const answers = await Promise.all([
        h.api('DELETE', `/api/folders/${folder.id}`, { token: u.token }),
        ...boards.map((b) => h.api('PATCH', `/api/boards/${b.id}`, { token: u.token, body: { title: `Новое ${round}` } })),
        h.api('PUT', `/api/tags/${tag.id}`, { token: u.token, body: { name: `тег ${round}!` } }),
        h.api('POST', '/api/folders/move-board', { token: u.token, body: { board_id: boards[1].id, folder_id: child.id } }),
        h.api('GET', '/api/boards', { token: u.token }),
        h.api('GET', '/api/folders', { token: u.token }),
      ]);
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('an owner renamed or a plan changed by an event shows in the repeated load', async () => {
    const u = await h.user('Прежнее имя');
    await h.api('POST', '/api/boards', { token: u.token, body: { title: 'Доска', folder_id: null } });
    const list = async () => (await h.api('GET', '/api/boards', { token: u.token })).body;
    expect((await list()).boards[0].owner_name).toBe('Прежнее имя');
    expect((await list()).limits.max).toBe(-1);
    await h.transport.publish(
      newEvent(
        'entitlements.changed',
        { userId: u.id, planName: 'Free', maxBoards: 3, maxCanvasWidth: 8000, maxCanvasHeight: 8000, exportPdf: false, limitsEnabled: true },
        'billing',
      ),
    );
    await expect.poll(async () => (await list()).limits, { timeout: 5000 }).toEqual({ current: 1, max: 3, canCreate: true });
    await h.transport.publish(newEvent('user.updated', { userId: u.id, email: 'x@example.com', name: 'Новое имя' }, 'auth'));
    await expect.poll(async () => (await list()).boards[0].owner_name, { timeout: 5000 }).toBe('Новое имя');
  });
});
