/**
 * Structure tools of issue 35 item 5 in Chromium on the real product: the eraser (mouse and
 * finger, marked while dragging, one undo step), z-order (Ctrl+] / Ctrl+[ with Shift, the context
 * menu, hit-testing follows), group/ungroup (Ctrl+G / Ctrl+Shift+G; one member selects and moves the
 * group), lock/unlock (context menu; a locked object is not moved, resized, deleted or erased), and
 * conflicts between two browsers: reorders and groups made while one is offline converge, and an
 * object deleted by one person while the other drags it leaves no ghost and no error.
 */
import { describe, expect, it } from 'vitest';
import { addObjects, newBoardOf } from './canvasHelpers.ts';
import { Board2, rect, withBoard as withBoardOf, type Point } from './canvasStructureHelpers.ts';
import { useProduct } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });
const withBoard = <T>(...args: Parameters<typeof withBoardOf<T>> extends [unknown, ...infer R] ? R : never) => withBoardOf<T>(product, ...args);

describe('eraser', () => {
  it('with the mouse: E picks it, a drag marks what it crosses, the release erases them as one undo step; locked objects stay', async () => {
    await withBoard(async (b) => {
      const { page } = b;
      await addObjects(page, [rect('a', 0, 0), rect('b', 150, 0), rect('c', 300, 0), rect('far', 0, 300), { ...rect('l', 450, 0), locked: true }]);
      await page.keyboard.press('e');
      await expect.poll(() => page.locator('[data-testid="board-canvas"]').getAttribute('data-tool')).toBe('eraser');
      const steps = await b.undoSteps();
      // Across a and b (and the gap between): both marked, nothing erased yet.
      await b.press({ x: 50, y: 50 }, { x: 200, y: 50 });
      await expect.poll(() => b.marked()).toBe(2);
      expect((await b.order()).length).toBe(5);
      // On to the locked object: not marked.
      const end = await b.screen({ x: 500, y: 50 });
      await page.mouse.move(end.x, end.y, { steps: 12 });
      await expect.poll(() => b.marked()).toBe(3);
      await page.mouse.up();
      await expect.poll(() => b.order()).toEqual(['far', 'l']);
      expect(await b.marked()).toBe(0);
      expect(await b.undoSteps()).toBe(steps + 1);
      await page.keyboard.press('Control+z');
      await expect.poll(async () => (await b.order()).sort()).toEqual(['a', 'b', 'c', 'far', 'l']);
      // Escape mid-drag erases nothing.
      await b.press({ x: 50, y: 50 }, { x: 200, y: 50 });
      await page.keyboard.press('Escape');
      await page.mouse.up();
      expect(await b.marked()).toBe(0);
      expect((await b.order()).length).toBe(5);
      // The toolbar button picks it too.
      await page.click('[data-testid="tool-select"]');
      await page.click('[data-testid="tool-eraser"]');
      await expect.poll(() => page.locator('[data-testid="board-canvas"]').getAttribute('data-tool')).toBe('eraser');
    });
  });

  it('with a finger: a swipe erases what it crosses, a whole group at once', async () => {
    await withBoard(
      async (b, context) => {
        const { page } = b;
        await addObjects(page, [rect('a', 0, 0), rect('g1', 0, 200, 0, 60, 60), rect('g2', 300, 200, 0, 60, 60), rect('keep', 300, 0)]);
        await page.evaluate(() => window.__wbCanvas!.setSelection(['g1', 'g2']));
        await page.keyboard.press('Control+g');
        await expect.poll(async () => (await b.objects()).g2.groupId).toBeTruthy();
        await page.click('[data-testid="tool-eraser"]');
        const cdp = await context.newCDPSession(page);
        const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', p?: Point) =>
          cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 0, radiusX: 1, radiusY: 1, force: 1 }] : [] });
        const from = await b.screen({ x: 50, y: 50 });
        const to = await b.screen({ x: 30, y: 230 });
        await touch('touchStart', from);
        for (let i = 1; i <= 8; i++) await touch('touchMove', { x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 });
        await touch('touchEnd');
        await expect.poll(() => b.order()).toEqual(['keep']);
      },
      { hasTouch: true },
    );
  });
});

describe('z-order', () => {
  // Three overlapping squares, each with a corner of its own to click.
  const three = () => [rect('a', 0, 0, 0), rect('b', 50, 0, 1), rect('c', 25, 50, 2)];
  const onA = { x: 5, y: 5 };
  const middle = { x: 60, y: 60 };

  it('Ctrl+] / Ctrl+[ step, with Shift to the front / back; clicks hit what is on top', async () => {
    await withBoard(async (b) => {
      const { page } = b;
      await addObjects(page, three());
      await b.click(onA);
      const steps = await b.undoSteps();
      await page.keyboard.press('Control+BracketRight');
      await expect.poll(() => b.order()).toEqual(['b', 'a', 'c']);
      expect(await b.undoSteps()).toBe(steps + 1);
      await page.keyboard.press('Control+BracketRight');
      await expect.poll(() => b.order()).toEqual(['b', 'c', 'a']);
      await page.keyboard.press('Control+BracketLeft');
      await expect.poll(() => b.order()).toEqual(['b', 'a', 'c']);
      await page.keyboard.press('Control+Shift+BracketLeft');
      await expect.poll(() => b.order()).toEqual(['a', 'b', 'c']);
      await page.keyboard.press('Control+Shift+BracketRight');
      await expect.poll(() => b.order()).toEqual(['b', 'c', 'a']);
      await page.keyboard.press('Escape');
      await b.click(middle);
      expect(await b.selection()).toEqual(['a']);
      await page.keyboard.press('Control+z');
      await expect.poll(() => b.order()).toEqual(['a', 'b', 'c']);
    });
  });

  it('from the context menu with the mouse', async () => {
    await withBoard(async (b) => {
      const { page } = b;
      await addObjects(page, three());
      await b.menu(onA, 'На передний план (Ctrl+Shift+])');
      await expect.poll(() => b.order()).toEqual(['b', 'c', 'a']);
      await b.menu(onA, 'Переместить назад (Ctrl+[)');
      await expect.poll(() => b.order()).toEqual(['b', 'a', 'c']);
      await b.menu({ x: 75, y: 145 }, 'На задний план (Ctrl+Shift+[)');
      await expect.poll(() => b.order()).toEqual(['c', 'b', 'a']);
      await b.menu({ x: 75, y: 145 }, 'Переместить вперёд (Ctrl+])');
      await expect.poll(() => b.order()).toEqual(['b', 'c', 'a']);
      await page.keyboard.press('Escape');
      await b.click(middle);
      expect(await b.selection()).toEqual(['a']);
    });
  });
});

describe('structure commands by touch', () => {
  it('a long press opens the context menu: bring to front and lock with a finger', async () => {
    await withBoard(
      async (b, context) => {
        const { page } = b;
        await addObjects(page, [rect('a', 0, 0, 0), rect('b', 50, 0, 1)]);
        const cdp = await context.newCDPSession(page);
        const menu = page.locator('[data-testid="canvas-context-menu"]');
        const longPress = async (board: Point, item: string) => {
          const p = await b.screen(board);
          const point = [{ x: p.x, y: p.y, id: 0, radiusX: 1, radiusY: 1, force: 1 }];
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point });
          // The finger stays down until the menu shows (the browser's long-press gesture).
          await menu.waitFor();
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
          const entry = menu.getByRole('menuitem', { name: item });
          const box = (await entry.boundingBox())!;
          await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
          await menu.waitFor({ state: 'detached' });
        };
        await longPress({ x: 5, y: 5 }, 'На передний план (Ctrl+Shift+])');
        await expect.poll(() => b.order()).toEqual(['b', 'a']);
        await longPress({ x: 5, y: 5 }, 'Заблокировать');
        await expect.poll(async () => (await b.objects()).a.locked).toBe(true);
      },
      { hasTouch: true },
    );
  });
});

describe('groups', () => {
  it('Ctrl+G groups, one member selects and moves the group, Ctrl+Shift+G ungroups; a tap selects the group', async () => {
    await withBoard(
      async (b) => {
        const { page } = b;
        await addObjects(page, [rect('a', 0, 0), rect('b', 150, 0), rect('c', 300, 0)]);
        await b.click({ x: 50, y: 50 });
        await b.click({ x: 200, y: 50 }, ['Shift']);
        await page.keyboard.press('Control+g');
        await expect.poll(async () => (await b.objects()).a.groupId).toBeTruthy();
        const o = await b.objects();
        expect(o.b.groupId).toBe(o.a.groupId);
        expect(o.c.groupId).toBeUndefined();
        await page.keyboard.press('Escape');
        await b.click({ x: 50, y: 50 });
        expect(await b.selection()).toEqual(['a', 'b']);
        // A tap (touch) on the other member selects the group too.
        await page.keyboard.press('Escape');
        const tap = await b.screen({ x: 200, y: 50 });
        await page.touchscreen.tap(tap.x, tap.y);
        await expect.poll(() => b.selection()).toEqual(['a', 'b']);
        // Dragging one member moves both, as one undo step.
        const steps = await b.undoSteps();
        await b.drag({ x: 50, y: 50 }, { x: 50, y: 150 });
        await expect.poll(async () => Object.values(await b.objects()).map((x) => x.y)).toEqual([100, 100, 0]);
        expect(await b.undoSteps()).toBe(steps + 1);
        // Shift+click on a member drops the whole group from the selection.
        await b.click({ x: 300, y: 50 }, ['Shift']);
        await b.click({ x: 200, y: 150 }, ['Shift']);
        expect(await b.selection()).toEqual(['c']);
        await b.click({ x: 50, y: 150 });
        await page.keyboard.press('Control+Shift+g');
        await expect.poll(async () => (await b.objects()).a.groupId).toBeUndefined();
        expect((await b.objects()).b.groupId).toBeUndefined();
        await page.keyboard.press('Escape');
        await b.click({ x: 50, y: 150 });
        expect(await b.selection()).toEqual(['a']);
      },
      { hasTouch: true },
    );
  });
});

describe('lock', () => {
  it('a locked object is not moved, resized, deleted or erased until unlocked from the context menu', async () => {
    await withBoard(async (b) => {
      const { page } = b;
      await addObjects(page, [rect('a', 0, 0), rect('b', 150, 0)]);
      await b.menu({ x: 50, y: 50 }, 'Заблокировать');
      await expect.poll(async () => (await b.objects()).a.locked).toBe(true);
      await page.locator('[data-testid="lock-marker"]:visible').first().waitFor();
      // Selected, but no resize handles.
      expect(await page.evaluate(() => window.__wbCanvas!.transformer.enabledAnchors().length)).toBe(0);
      await b.drag({ x: 50, y: 50 }, { x: 50, y: 250 });
      await page.keyboard.press('Delete');
      await page.keyboard.press('e');
      await b.drag({ x: 50, y: 50 }, { x: 200, y: 50 });
      await expect.poll(() => b.order()).toEqual(['a']);
      expect((await b.objects()).a.y).toBe(0);
      await page.keyboard.press('1');
      await b.menu({ x: 50, y: 50 }, 'Разблокировать');
      await expect.poll(async () => (await b.objects()).a.locked).toBeUndefined();
      await expect.poll(() => page.locator('[data-testid="lock-marker"]:visible').count()).toBe(0);
      await b.drag({ x: 50, y: 50 }, { x: 50, y: 250 });
      await expect.poll(async () => (await b.objects()).a.y).toBe(200);
    });
  });
});

describe('conflicts between two people', () => {
  // Diagonal squares: each overlaps its neighbours and has a corner of its own.
  const diag = () => [rect('a', 0, 0, 0, 100, 80), rect('b', 60, 40, 1, 100, 80), rect('c', 120, 80, 2, 100, 80), rect('d', 180, 120, 3, 100, 80)];
  const own: Record<string, Point> = { a: { x: 10, y: 10 }, b: { x: 140, y: 50 }, c: { x: 200, y: 90 }, d: { x: 260, y: 180 } };

  it('reorders and groups made while one is offline converge; a grouped member deleted meanwhile leaves no group', async () => {
    const board = await newBoardOf(product.url, 'structure2', 'Двое');
    await withBoard(
      async (one, oneContext) => {
        await addObjects(one.page, diag());
        await withBoard(
          async (two) => {
            await expect.poll(() => two.order(), { timeout: 30_000 }).toEqual(['a', 'b', 'c', 'd']);
            await oneContext.setOffline(true);
            await expect.poll(() => one.page.locator('[data-testid="sync-status"]').getAttribute('data-phase')).toBe('offline');
            // Offline: a to the front, b and c grouped.
            await one.click(own.a);
            await one.page.keyboard.press('Control+Shift+BracketRight');
            await one.click(own.b);
            await one.click(own.c, ['Shift']);
            await one.page.keyboard.press('Control+g');
            await expect.poll(() => one.order()).toEqual(['b', 'c', 'd', 'a']);
            // Online, meanwhile: d to the back, c forward, b deleted.
            await two.click(own.d);
            await two.page.keyboard.press('Control+Shift+BracketLeft');
            await two.click(own.c);
            await two.page.keyboard.press('Control+BracketRight');
            await two.click(own.b);
            await two.page.keyboard.press('Delete');
            await expect.poll(() => two.order()).toEqual(['d', 'a', 'c']);

            await oneContext.setOffline(false);
            const state = async (p: Board2) => ({ order: await p.order(), groups: Object.values(await p.objects()).map((o) => [o.id, o.groupId ?? null]) });
            // a went to the front (one), d to the back (two), b is gone, c's forward step had nothing to pass.
            for (const p of [one, two]) await expect.poll(() => p.order(), { timeout: 30_000 }).toEqual(['d', 'c', 'a']);
            await expect.poll(async () => JSON.stringify(await state(one)) === JSON.stringify(await state(two)), { timeout: 30_000 }).toBe(true);
            // c's group lost its other member: clicking c selects c alone, on both.
            for (const p of [one, two]) {
              await p.page.keyboard.press('Escape');
              await p.click(own.c);
              expect(await p.selection()).toEqual(['c']);
            }
          },
          { board },
        );
      },
      { board },
    );
  });

  it('an object deleted by one while the other drags it: no ghost and no error', async () => {
    const board = await newBoardOf(product.url, 'structure3', 'Удаление');
    await withBoard(
      async (one) => {
        await addObjects(one.page, [rect('x', 0, 0), rect('y', 300, 0)]);
        await withBoard(
          async (two) => {
            await expect.poll(() => two.order(), { timeout: 30_000 }).toEqual(['x', 'y']);
            await one.press({ x: 50, y: 50 }, { x: 50, y: 150 });
            await two.click({ x: 50, y: 50 });
            await two.page.keyboard.press('Delete');
            // The dragged preview disappears while the button is still down.
            await expect.poll(() => one.page.evaluate(() => window.__wbCanvas!.store.entries.has('x')), { timeout: 30_000 }).toBe(false);
            const p = await one.screen({ x: 80, y: 200 });
            await one.page.mouse.move(p.x, p.y, { steps: 4 });
            expect(await one.page.evaluate(() => window.__wbCanvas!.store.entries.has('x'))).toBe(false);
            await one.page.mouse.up();
            expect(await one.order()).toEqual(['y']);
            expect(await one.selection()).toEqual([]);
            // Nothing comes back to the other person either (a move of a deleted object writes nothing).
            await one.click({ x: 350, y: 50 });
            await one.page.keyboard.press('Control+BracketRight');
            await one.drag({ x: 350, y: 50 }, { x: 350, y: 90 });
            await expect.poll(async () => (await two.objects()).y?.y, { timeout: 30_000 }).toBe(40);
            expect(await two.order()).toEqual(['y']);
          },
          { board },
        );
      },
      { board },
    );
  });
});

describe('roles', () => {
  it('a lock or a group hides nothing and grants nothing: viewers see and export them, change nothing; guests still select nothing', async () => {
    const board = await newBoardOf(product.url, 'structure4', 'Роли');
    const auth = { Authorization: `Bearer ${board.tokens.accessToken}`, 'Content-Type': 'application/json' };
    await fetch(`${product.url}/api/boards/${board.id}/sharing`, { method: 'PUT', headers: auth, body: JSON.stringify({ enabled: true }) });
    const links = (await (
      await fetch(`${product.url}/api/boards/${board.id}/multiple-links`, { method: 'POST', headers: auth, body: JSON.stringify({ enabledRoles: ['viewer', 'guest'] }) })
    ).json()) as { board: { viewer_token_hash: string; guest_token_hash: string } };
    const objects = [{ ...rect('locked', 0, 0), locked: true }, { ...rect('g1', 150, 0), groupId: 'grp' }, { ...rect('g2', 300, 0), groupId: 'grp' }];
    await withBoard(
      async (owner) => {
        await addObjects(owner.page, objects);
        // The export draws locked and grouped objects like any other.
        await expect
          .poll(async () => {
            const res = await fetch(`${product.url}/api/export/svg`, {
              method: 'POST',
              headers: auth,
              body: JSON.stringify({ boardId: board.id, area: { x: -50, y: -50, width: 500, height: 200 } }),
            });
            const svg = res.ok ? await res.text() : '';
            return ['locked', 'g1', 'g2'].every((id) => svg.includes(`data-id="${id}"`));
          }, { timeout: 30_000 })
          .toBe(true);

        for (const role of ['viewer', 'guest'] as const) {
          const context = await product.browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 860 }, locale: 'ru-RU', serviceWorkers: 'block' });
          try {
            const page = await context.newPage();
            page.setDefaultTimeout(15_000);
            const v = new Board2(page);
            await page.goto(`/board/${board.id}?token=${role === 'viewer' ? links.board.viewer_token_hash : links.board.guest_token_hash}`);
            await page.waitForFunction(() => window.__wbCanvas?.store.objectCount === 3, undefined, { timeout: 45_000 });
            const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
            Object.assign(v, { origin: { x: box.x, y: box.y } });
            await page.evaluate(() => window.__wbCanvas!.setCamera({ x: 400, y: 300, scale: 1 }));
            expect(await page.locator('[data-testid="tool-eraser"]').isDisabled()).toBe(true);
            await page.keyboard.press('e');
            expect(await page.locator('[data-testid="board-canvas"]').getAttribute('data-tool')).not.toBe('eraser');
            await v.click({ x: 200, y: 50 });
            // A viewer selects the group as anyone does; a guest selects nothing, grouped or not.
            expect(await v.selection()).toEqual(role === 'viewer' ? ['g1', 'g2'] : []);
            for (const key of ['Control+g', 'Control+Shift+g', 'Control+BracketRight', 'Control+Shift+BracketLeft', 'Delete']) await page.keyboard.press(key);
            // A hostile client's write (unlock, ungroup) is refused by the server: the owner never sees it.
            await page.evaluate(() => {
              const doc = window.__wbCanvas!.doc;
              const objs = doc.getMap('objects');
              doc.transact(() => {
                (objs.get('locked') as { delete(k: string): void }).delete('locked');
                (objs.get('g1') as { delete(k: string): void }).delete('groupId');
              });
            });
            // Sentinel: a cursor sent after that write on the same socket reaches the owner, so the write was judged.
            const mark = role === 'viewer' ? 4321 : 4322;
            await page.evaluate((x) => window.__wbBoard!.provider.awareness.setLocalStateField('cursor', { x, y: 1 }), mark);
            await owner.page.waitForFunction(
              (x) => [...window.__wbBoard!.provider.awareness.getStates().values()].some((st) => (st as { cursor?: { x: number } }).cursor?.x === x),
              mark,
              { timeout: 30_000 },
            );
            const o = await owner.objects();
            expect([o.locked?.locked, o.g1?.groupId, o.g2?.groupId]).toEqual([true, 'grp', 'grp']);
          } finally {
            await context.close();
          }
        }
      },
      { board },
    );
  });
});

