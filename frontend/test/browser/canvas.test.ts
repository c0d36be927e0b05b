/**
 * The canvas (issue 10) in Chromium on the real product: every tool with pointer and keyboard,
 * arrows, selection and group resize, undo/redo, the clipboard (objects, images, other boards),
 * templates and the JSON import, two browsers on one board, and hostile input.
 * Tests read the document through the page's `window.__wbCanvas` hook (the mounted engine).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pngHeader } from '@wb/testkit';
import { addObjects, newBoardOf, openCanvas, sticky, type Board, type Obj } from './canvasHelpers.ts';
import { rendered } from './boardPageHelpers.ts';
import { openPage, useProduct, withPage, type PageSession } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

/** A board of a fresh account (a free plan allows only a few boards per account). */
const newBoard = (title = 'Холст'): Promise<Board> => newBoardOf(product.url, 'canvas', title);

type ArrowObj = { id: string; fromId: string; toId: string; style: string; strokeWidth: number };

/** Drives the canvas like a user; coordinates are relative to the stage's top-left corner. */
class Canvas {
  private origin = { x: 0, y: 0 };
  constructor(readonly page: Page) {}

  async open(board: Board): Promise<this> {
    this.origin = await openCanvas(this.page, board);
    return this;
  }

  /** Screen position of a board point (the page hook knows the camera). */
  async screenOf(board: { x: number; y: number }): Promise<{ x: number; y: number }> {
    const p = await this.page.evaluate((b) => window.__wbCanvas!.toScreen(b), board);
    return { x: this.origin.x + p.x, y: this.origin.y + p.y };
  }

  at(x: number, y: number): [number, number] {
    return [this.origin.x + x, this.origin.y + y];
  }

  async drag(from: [number, number], to: [number, number], steps = 4): Promise<void> {
    const m = this.page.mouse;
    await m.move(...this.at(...from));
    await m.down();
    await m.move(...this.at(...to), { steps });
    await m.up();
  }

  async click(x: number, y: number, modifiers: Array<'Shift'> = []): Promise<void> {
    for (const k of modifiers) await this.page.keyboard.down(k);
    await this.page.mouse.click(...this.at(x, y));
    for (const k of modifiers) await this.page.keyboard.up(k);
  }

  async tool(name: string): Promise<void> {
    await this.page.click(`[data-testid="tool-${name}"]`);
  }

  objects(): Promise<Obj[]> {
    return this.page.evaluate(() =>
      window.__wbCanvas!.store.allObjects().sort((a, b) => a.zIndex - b.zIndex) as unknown as Obj[],
    );
  }

  arrows(): Promise<ArrowObj[]> {
    return this.page.evaluate(() => window.__wbCanvas!.store.allArrows() as unknown as ArrowObj[]);
  }

  async waitCount(n: number): Promise<void> {
    await this.page.waitForFunction((k) => window.__wbCanvas!.store.objectCount === k, n);
  }

  add(objects: Obj[]): Promise<void> {
    return addObjects(this.page, objects);
  }

  selection(): Promise<string[]> {
    return this.page.evaluate(() => [...window.__wbCanvas!.selection]);
  }

  /** A pixel of the stage in CSS coordinates, composited from every layer. */
  async pixel(x: number, y: number): Promise<[number, number, number, number]> {
    return this.page.evaluate(
      ([px, py]) => {
        const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
        const out = document.createElement('canvas');
        const w = canvases[0].width;
        const h = canvases[0].height;
        out.width = w;
        out.height = h;
        const ctx = out.getContext('2d')!;
        for (const c of canvases) ctx.drawImage(c, 0, 0);
        const ratio = w / canvases[0].clientWidth;
        return [...ctx.getImageData(Math.round(px * ratio), Math.round(py * ratio), 1, 1).data] as [number, number, number, number];
      },
      [x, y],
    );
  }
}

const rect = (id: string, x: number, y: number, w = 80, h = 60): Obj => ({
  id,
  type: 'rectangle',
  x,
  y,
  width: w,
  height: h,
  fill: '#ffffff',
  stroke: '#000000',
  strokeWidth: 2,
  rotation: 0,
  zIndex: 0,
});

async function withCanvas<T>(fn: (c: Canvas, s: PageSession) => Promise<T>): Promise<T> {
  const id = await newBoard();
  return withPage(product, async (s) => {
    const c = await new Canvas(s.page).open(id);
    const result = await fn(c, s);
    expect(s.errors).toEqual([]);
    return result;
  });
}

/** A PNG made by the browser itself (w×h, one colour), as bytes. */
async function pngBytes(page: Page, w: number, h: number, color: string): Promise<Buffer> {
  const b64 = await page.evaluate(
    ([cw, ch, col]) => {
      const c = document.createElement('canvas');
      c.width = cw as number;
      c.height = ch as number;
      const ctx = c.getContext('2d')!;
      ctx.fillStyle = col as string;
      ctx.fillRect(0, 0, c.width, c.height);
      return c.toDataURL('image/png').split(',')[1];
    },
    [w, h, color] as const,
  );
  return Buffer.from(b64, 'base64');
}

describe('tools', () => {
  it('draws every object type with the pointer and the keyboard', async () => {
    await withCanvas(async (c, s) => {
      const { page } = c;
      await c.tool('rectangle');
      await c.drag([100, 150], [200, 230]);
      await c.tool('ellipse');
      await c.drag([250, 150], [330, 210]);
      await c.tool('line');
      await c.drag([380, 150], [480, 200]);
      await page.keyboard.press('3'); // pen
      await c.drag([100, 300], [220, 360], 8);
      await page.keyboard.press('4'); // highlighter
      await c.drag([260, 300], [380, 330], 8);
      await page.keyboard.press('5'); // sticky
      await c.click(520, 300);
      await page.waitForSelector('[data-testid="text-editor"]');
      expect(await page.textContent('[data-testid="text-editor-counter"]')).toBe('12/4096 символов');
      await page.keyboard.type('Задача');
      expect(await page.textContent('[data-testid="text-editor-counter"]')).toBe('6/4096 символов');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector('[data-testid="text-editor"]', { state: 'detached' });
      // §4: after a sticky is saved the tool returns to select.
      expect(await page.getAttribute('[data-testid="board-canvas"]', 'data-tool')).toBe('select');
      await c.tool('text');
      await c.click(700, 300);
      await page.waitForSelector('[data-testid="text-editor"]');
      expect(await page.inputValue('[data-testid="text-editor-input"]')).toBe('Новый текст');
      await page.keyboard.type('Заголовок');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector('[data-testid="text-editor"]', { state: 'detached' });
      // What is drawn is on screen: the rectangle's left edge is dark, the sticky yellow.
      const edge = await c.pixel(100, 190);
      expect(edge[0]).toBeLessThan(120);
      const stickyPx = await c.pixel(580, 400);
      expect(stickyPx.slice(0, 3)).toEqual([255, 242, 179]);
      // 6: image through the file picker (image/* only).
      await page.keyboard.press('6');
      expect(await page.getAttribute('[data-testid="board-canvas"]', 'data-tool')).toBe('image');
      expect(await page.getAttribute('[data-testid="image-input"]', 'accept')).toBe('image/*');
      await page.setInputFiles('[data-testid="image-input"]', {
        name: 'a.png',
        mimeType: 'image/png',
        buffer: await pngBytes(page, 800, 300, '#ff0000'),
      });
      await c.waitCount(8);
      const objects = await c.objects();
      expect(objects.map((o) => o.type)).toEqual(['rectangle', 'ellipse', 'line', 'path', 'highlighter', 'sticky', 'text', 'image']);
      const [r, e, l, p, h, st, t, img] = objects;
      expect([r.width, r.height]).toEqual([100, 80]);
      expect([e.radiusX, e.radiusY]).toEqual([40, 30]);
      expect((l.points as number[]).length).toBe(4);
      expect((p.points as number[]).length).toBeGreaterThan(4);
      expect(h.strokeWidth).toBe(8); // max(8, 2×4)
      expect(st).toMatchObject({ text: 'Задача', width: 120, height: 120, backgroundColor: '#FFF2B3' });
      expect(t).toMatchObject({ text: 'Заголовок' });
      // Fitted into 400×300 keeping the ratio.
      expect([img.width, img.height]).toEqual([400, 150]);
      // The image is drawn once loaded (red), not the grey placeholder.
      const centre = await c.screenOf({ x: (img.x as number) + 200, y: (img.y as number) + 75 });
      await page.waitForFunction(() => window.__wbCanvas!.stats.staticDraws > 0);
      await expect
        .poll(async () => (await c.pixel(centre.x - c.at(0, 0)[0], centre.y - c.at(0, 0)[1])).slice(0, 3))
        .toEqual([255, 0, 0]);
      expect(s.errors).toEqual([]);
    });
  });

  it('a press outside closes the editor even when it comes the moment the editor appears', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.keyboard.press('5');
      // Press the canvas from inside the page as soon as the editor is in the DOM, before any timer
      // or paint: CI once pressed in that gap, and the editor stayed open.
      await page.evaluate(() => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector('[data-testid="text-editor"]')) return;
          observer.disconnect();
          const canvas = document.querySelector('[data-testid="canvas-stage"] canvas')!;
          const box = canvas.getBoundingClientRect();
          const at = { clientX: box.right - 20, clientY: box.bottom - 20, bubbles: true, pointerId: 1, isPrimary: true };
          canvas.dispatchEvent(new PointerEvent('pointerdown', at));
        }).observe(document.body, { childList: true, subtree: true });
      });
      await c.click(300, 300);
      await page.waitForSelector('[data-testid="text-editor"]', { state: 'detached', timeout: 3000 });
      expect(await c.objects()).toEqual([]);
    });
  });

  it('Escape and a click outside cancel the editor; a cancelled sticky is not created', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.keyboard.press('5');
      await c.click(300, 300);
      await page.waitForSelector('[data-testid="text-editor"]');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid="text-editor"]', { state: 'detached' });
      await c.click(500, 500);
      await page.waitForSelector('[data-testid="text-editor"]');
      await page.mouse.click(...c.at(900, 600));
      await page.waitForSelector('[data-testid="text-editor"]', { state: 'detached' });
      await rendered(page);
      expect(await c.objects()).toEqual([]);
      // 500 characters at most in a text, the model's limit for texts (a sticky holds 4096):
      // more is refused whole, never cut.
      await page.keyboard.press('Escape');
      await c.tool('text');
      await c.click(300, 300);
      await page.fill('[data-testid="text-editor-input"]', 'я'.repeat(600));
      expect(await page.textContent('[data-testid="text-editor-counter"]')).toBe('11/500 символов');
      await page.fill('[data-testid="text-editor-input"]', 'я'.repeat(500));
      expect(await page.textContent('[data-testid="text-editor-counter"]')).toBe('500/500 символов');
    });
  });

  it('a sticky typed with a NUL and a lone surrogate keeps neither: the author sees what everyone gets', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.keyboard.press('5');
      await c.click(300, 300);
      await page.fill('[data-testid="text-editor-input"]', 'A\u0000B\uD800C');
      await page.keyboard.press('Control+Enter');
      await c.waitCount(1);
      expect((await c.objects())[0]!.text).toBe('AB\uFFFDC');
    });
  });

  it('refuses to create outside a bounded canvas', async () => {
    await withCanvas(async (c) => {
      await c.page.evaluate(() => window.__wbCanvas!.setLimits({ max_width: 400, max_height: 400, unlimited: false }));
      await c.tool('rectangle');
      // The stage centre is the board origin; x=40 on screen is board x≈-600: outside ±200.
      await c.drag([40, 400], [120, 450]);
      await c.page.keyboard.press('5');
      await c.click(40, 400);
      await rendered(c.page);
      expect(await c.page.locator('[data-testid="text-editor"]').count()).toBe(0);
      expect(await c.objects()).toEqual([]);
    });
  });

  it('four connected-sticker buttons add a linked sticky 40 px away', async () => {
    await withCanvas(async (c) => {
      await c.add([sticky('a', 0, 0)]);
      const p = await c.screenOf({ x: 60, y: 60 });
      await c.page.mouse.click(p.x, p.y);
      await c.page.click('[data-testid="connect-right"]');
      await c.page.waitForSelector('[data-testid="text-editor"]');
      await c.page.keyboard.press('Control+Enter');
      await c.waitCount(2);
      const [, b] = await c.objects();
      expect([b.x, b.y, b.type]).toEqual([160, 0, 'sticky']);
      const arrows = await c.arrows();
      expect(arrows).toHaveLength(1);
      expect([arrows[0].fromId, arrows[0].toId]).toEqual(['a', b.id]);
    });
  });
});

describe('arrows', () => {
  it('connects two stickies in each style and follows a moved end', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([sticky('s1', -300, -60), sticky('s2', 100, -60), sticky('s3', 100, 150), sticky('s4', -300, 150)]);
      const centre = async (x: number, y: number) => c.screenOf({ x: x + 60, y: y + 60 });
      const connect = async (from: [number, number], to: [number, number], style: string) => {
        const a = await centre(...from);
        await page.mouse.click(a.x, a.y);
        await page.click(`[data-testid="arrow-${style}"]`);
        await page.click('[data-testid="arrow-start"]');
        const b = await centre(...to);
        await page.mouse.click(b.x, b.y);
      };
      await connect([-300, -60], [100, -60], 'solid');
      await connect([100, -60], [100, 150], 'dashed');
      await connect([100, 150], [-300, 150], 'dotted');
      await page.waitForFunction(() => window.__wbCanvas!.store.allArrows().length === 3);
      const arrows = await c.arrows();
      const described = arrows.map((a) => [a.fromId, a.toId, a.style, a.strokeWidth]).sort();
      expect(described).toEqual([
        ['s1', 's2', 'solid', 2],
        ['s2', 's3', 'dashed', 2],
        ['s3', 's4', 'dotted', 2],
      ]);
      const dashOf = (id: string) =>
        page.evaluate((aid) => {
          const p = window.__wbCanvas!.store.entries.get(aid)!.item.primitives[0] as { dash?: number[]; pointerLength: number };
          return [p.dash ?? [], p.pointerLength];
        }, id);
      const byStyle = Object.fromEntries(arrows.map((a) => [a.style, a.id]));
      expect(await dashOf(byStyle.solid)).toEqual([[], 15]);
      expect(await dashOf(byStyle.dashed)).toEqual([[10, 5], 15]);
      expect(await dashOf(byStyle.dotted)).toEqual([[2, 3], 15]);

      const pointsOf = (id: string) =>
        page.evaluate((aid) => (window.__wbCanvas!.store.entries.get(aid)!.item.primitives[0] as { points: number[] }).points, id);
      const before = await pointsOf(byStyle.solid);
      // Drag s2 down by 100: the solid arrow's head follows.
      const from = await centre(100, -60);
      await page.keyboard.press('Escape');
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x, from.y + 100, { steps: 5 });
      await page.mouse.up();
      await page.waitForFunction(
        (id) => (window.__wbCanvas!.store.entries.get(id)!.item.primitives[0] as { points: number[] }).points[3] > 0,
        byStyle.solid,
      );
      const after = await pointsOf(byStyle.solid);
      expect(after[0]).toBeCloseTo(before[0]);
      expect(after[3]).toBeGreaterThan(before[3] + 20);
    });
  });

  it('cancels on an empty click, the same object, and a pen stroke as target', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([
        sticky('a', -200, -60),
        { id: 'stroke', type: 'path', points: [100, 0, 200, 10, 300, 0], stroke: '#000000', strokeWidth: 4, tension: 0, zIndex: 1 },
      ]);
      const a = await c.screenOf({ x: -140, y: 0 });
      const start = async () => {
        await page.mouse.click(a.x, a.y);
        await page.click('[data-testid="arrow-start"]');
      };
      await start();
      await page.mouse.click(...c.at(50, 600)); // empty space
      await start();
      await page.mouse.click(a.x, a.y); // the same object
      await start();
      const p = await c.screenOf({ x: 200, y: 10 });
      await page.mouse.click(p.x, p.y); // a path cannot be an end
      await start();
      await page.keyboard.press('Escape');
      await rendered(page);
      expect(await c.arrows()).toEqual([]);
      // A stroke selected alone cannot start an arrow.
      await page.mouse.click(p.x, p.y);
      expect(await page.isDisabled('[data-testid="arrow-start"]')).toBe(true);
    });
  });
});

describe('selection', () => {
  it('rubber-band selects what lies inside; the group frame resizes every object', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([rect('r1', -200, -100, 100, 100), rect('r2', 0, -100, 100, 100), rect('r3', 300, 200)]);
      const tl = await c.screenOf({ x: -220, y: -120 });
      const br = await c.screenOf({ x: 120, y: 20 });
      await page.mouse.move(tl.x, tl.y);
      await page.mouse.down();
      await page.mouse.move(br.x, br.y, { steps: 6 });
      await page.mouse.up();
      expect((await c.selection()).sort()).toEqual(['r1', 'r2']);
      // A 2 px band selects nothing and clears the selection.
      await page.mouse.move(...c.at(40, 700));
      await page.mouse.down();
      await page.mouse.move(...c.at(41, 701));
      await page.mouse.up();
      expect(await c.selection()).toEqual([]);
      // Select both again, drag the group's bottom-right handle: 300×100 → 450×150.
      await page.mouse.move(tl.x, tl.y);
      await page.mouse.down();
      await page.mouse.move(br.x, br.y, { steps: 6 });
      await page.mouse.up();
      // The frame's handles are attached when the engine draws the new selection (its next animation
      // frame); a press before that lands on r2 and moves it.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const corner = await c.screenOf({ x: 100, y: 0 });
      await page.mouse.move(corner.x, corner.y);
      await page.mouse.down();
      const target = await c.screenOf({ x: 250, y: 50 });
      await page.mouse.move(target.x, target.y, { steps: 8 });
      await page.mouse.up();
      await page.waitForFunction(() => (window.__wbCanvas!.store.object('r2') as { width: number }).width > 120);
      const [r1, r2, r3] = await c.objects();
      expect(r1.width).toBeCloseTo(150, 0);
      expect(r2.width).toBeCloseTo(150, 0);
      expect(r2.x).toBeCloseTo(100, 0);
      expect(r1.height).toBeCloseTo(150, 0);
      expect(r3.width).toBe(80);
    });
  });

  it('a single rectangle rotates; moving keeps the rest', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([rect('r', 0, 0, 100, 100)]);
      const centre = await c.screenOf({ x: 50, y: 50 });
      await page.mouse.click(centre.x, centre.y);
      // The rotater sits above the top centre (konva's default offset 50 px).
      const top = await c.screenOf({ x: 50, y: 0 });
      await page.mouse.move(top.x, top.y - 50);
      await page.mouse.down();
      await page.mouse.move(top.x + 120, top.y + 50, { steps: 8 });
      await page.mouse.up();
      await page.waitForFunction(() => (window.__wbCanvas!.store.object('r') as { rotation: number }).rotation !== 0);
      const [r] = await c.objects();
      expect(r.width).toBe(100);
    });
  });
});

describe('history', () => {
  it('undoes 50 of 51 commands, redoes them, and a new command clears redo', { timeout: 240_000 }, async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.tool('rectangle');
      for (let i = 0; i < 51; i++) {
        const x = 60 + (i % 10) * 70;
        const y = 120 + Math.floor(i / 10) * 70;
        await c.drag([x, y], [x + 40, y + 40], 2);
      }
      await c.waitCount(51);
      for (let i = 0; i < 51; i++) await page.keyboard.press('Control+z');
      await c.waitCount(1);
      expect(await page.isDisabled('[data-testid="undo"]')).toBe(true);
      for (let i = 0; i < 25; i++) await page.keyboard.press('Control+y');
      for (let i = 0; i < 25; i++) await page.keyboard.press('Control+Shift+Z');
      await c.waitCount(51);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
      await c.waitCount(48);
      await c.drag([60, 600], [120, 650], 2);
      await c.waitCount(49);
      expect(await page.isDisabled('[data-testid="redo"]')).toBe(true);
      await page.keyboard.press('Control+y');
      await rendered(page);
      expect(await c.objects()).toHaveLength(49);
    });
  });

  it('never undoes a change made by someone else', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.tool('rectangle');
      await c.drag([100, 200], [160, 260]);
      await c.waitCount(1);
      // A remote peer's update arrives with another origin.
      await page.evaluate(() => {
        const e = window.__wbCanvas!;
        const map = e.doc.getMap('objects');
        const Entry = map.constructor as new () => { set(k: string, v: unknown): void };
        const m = new Entry();
        const fields = { id: 'remote', type: 'rectangle', x: 300, y: 0, width: 50, height: 50, fill: '#fff', stroke: '#000', strokeWidth: 2, rotation: 0, zIndex: 5 };
        e.doc.transact(() => {
          for (const [k, v] of Object.entries(fields)) m.set(k, v);
          map.set('remote', m);
        }, 'remote-peer');
      });
      await c.waitCount(2);
      await page.keyboard.press('Control+z');
      await c.waitCount(1);
      await page.keyboard.press('Control+z');
      await rendered(page);
      expect((await c.objects()).map((o) => o.id)).toEqual(['remote']);
    });
  });
});

describe('clipboard', () => {
  it('copies arrows only with both ends; pastes between boards', async () => {
    const second = await newBoard('Вторая');
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([sticky('a', -200, -60), sticky('b', 100, -60)]);
      await page.evaluate(() => window.__wbCanvas!.add([], [{ id: 'ab', fromId: 'a', toId: 'b' }]));
      await page.waitForFunction(() => window.__wbCanvas!.store.allArrows().length === 1);
      // Both ends: the arrow comes along.
      await page.evaluate(() => window.__wbCanvas!.setSelection(['a', 'b']));
      await page.keyboard.press('Control+c');
      await page.keyboard.press('Control+v');
      await c.waitCount(4);
      expect(await c.arrows()).toHaveLength(2);
      // One end only: no arrow.
      await page.evaluate(() => window.__wbCanvas!.setSelection(['a']));
      await page.keyboard.press('Control+c');
      await page.keyboard.press('Control+v');
      await c.waitCount(5);
      expect(await c.arrows()).toHaveLength(2);
      // The selection travels to another board through the system clipboard.
      await page.evaluate(() => window.__wbCanvas!.setSelection(['a', 'b']));
      await page.keyboard.press('Control+c');
      const other = await new Canvas(page).open(second);
      await page.keyboard.press('Control+v');
      await other.waitCount(2);
      expect(await other.arrows()).toHaveLength(1);
      // Hotkeys are ignored in a text field: Delete and 3 there edit the text, not the board.
      const selected = await other.selection();
      expect(selected).toHaveLength(2);
      await page.keyboard.press('5');
      await other.click(300, 300);
      await page.waitForSelector('[data-testid="text-editor"]');
      await page.keyboard.press('End');
      await page.keyboard.press('3');
      await page.keyboard.press('Delete');
      expect(await page.inputValue('[data-testid="text-editor-input"]')).toBe('Новый стикер3');
      expect(await page.getAttribute('[data-testid="board-canvas"]', 'data-tool')).toBe('sticky');
      await page.keyboard.press('Escape');
      await rendered(page);
      expect(await other.objects()).toHaveLength(2);
    });
  });

  it('pastes an image from the clipboard (image types only) and refuses 10,000 objects', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      const png = (await pngBytes(page, 100, 50, '#00ff00')).toString('base64');
      await page.evaluate((b64) => {
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
        dt.items.add(new File(['not an image'], 'notes.txt', { type: 'text/plain' }));
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
      }, png);
      await c.waitCount(1);
      const [img] = await c.objects();
      expect(img).toMatchObject({ type: 'image', width: 100, height: 50 });
      expect(String(img.src)).toMatch(/^(data:image\/png|\/|https?:)/);

      const many = await page.evaluate(() => {
        const objects = Array.from({ length: 10_000 }, (_, i) => ({
          id: `p${i}`,
          type: 'rectangle',
          x: i,
          y: 0,
          width: 10,
          height: 10,
          fill: '#fff',
          stroke: '#000',
          strokeWidth: 1,
          rotation: 0,
          zIndex: i,
        }));
        const dt = new DataTransfer();
        dt.setData('text/plain', JSON.stringify({ kind: 'whiteboard/objects', version: 1, objects, arrows: [] }));
        const t0 = performance.now();
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
        return performance.now() - t0;
      });
      // Refused before any work on the objects. The bound only catches work in proportion to the
      // list (seconds and more), loose enough for a loaded machine; speed is the canvas bench's matter.
      expect(many).toBeLessThan(10_000);
      await page.locator('.Toastify__toast', { hasText: 'Слишком много объектов для вставки' }).first().waitFor();
      expect(await c.objects()).toHaveLength(1);
    });
  });
});

describe('context menu', () => {
  it('on an object: edit, copy, duplicate, delete; nothing on the empty canvas', async () => {
    await withCanvas(async (c, { page }) => {
      await c.add([sticky('s', 0, 0)]);
      await c.waitCount(1);
      const menu = page.locator('[data-testid="canvas-context-menu"]');
      const empty = await c.screenOf({ x: 400, y: 300 });
      await page.mouse.click(empty.x, empty.y, { button: 'right' });
      await rendered(page);
      expect(await menu.count()).toBe(0);

      const on = await c.screenOf({ x: 60, y: 60 });
      await page.mouse.click(on.x, on.y, { button: 'right' });
      await menu.waitFor();
      expect(await c.selection()).toEqual(['s']);
      // The structure items (canvas-structure.test.ts) sit before 'Удалить'.
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
        'Редактировать',
        'Копировать',
        'Дублировать',
        'Переместить вперёд (Ctrl+])',
        'Переместить назад (Ctrl+[)',
        'На передний план (Ctrl+Shift+])',
        'На задний план (Ctrl+Shift+[)',
        'Заблокировать',
        'Удалить',
      ]);
      await menu.getByRole('menuitem', { name: 'Дублировать' }).click();
      await c.waitCount(2);
      const copy = (await c.objects()).find((o) => o.id !== 's')!;
      expect([copy.x, copy.y]).toEqual([20, 20]);
      expect(await c.selection()).toEqual([copy.id]);

      await page.mouse.click(on.x - 40, on.y - 40, { button: 'right' });
      await menu.getByRole('menuitem', { name: 'Редактировать' }).click();
      await page.locator('[data-testid="text-editor-input"]').waitFor();
      await page.keyboard.press('Escape');

      // The copy lies on top where both overlap: the click is on it.
      await page.mouse.click(on.x - 40, on.y - 40, { button: 'right' });
      await menu.getByRole('menuitem', { name: 'Удалить' }).click();
      await c.waitCount(1);
      expect((await c.objects()).map((o) => o.id)).toEqual(['s']);
    });
  });
});

describe('templates', () => {
  it('inserts a kanban, a calendar and JSON stickers', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.click('[data-testid="templates"]');
      await page.waitForSelector('[data-testid="kanban-form"]');
      expect(await page.inputValue('[data-testid="kanban-name-0"]')).toBe('Текущие');
      expect(await page.inputValue('[data-testid="kanban-name-3"]')).toBe('Выполнено');
      await page.fill('[data-testid="kanban-name-1"]', '');
      expect(await page.isDisabled('[data-testid="kanban-create"]')).toBe(true);
      await page.fill('[data-testid="kanban-name-1"]', 'x'.repeat(21));
      expect(await page.isDisabled('[data-testid="kanban-create"]')).toBe(true);
      await page.fill('[data-testid="kanban-name-1"]', 'В работе');
      await page.click('[data-testid="kanban-add"]');
      await page.click('[data-testid="kanban-add"]');
      expect(await page.isDisabled('[data-testid="kanban-add"]')).toBe(true);
      await page.click('[data-testid="kanban-delete-5"]');
      await page.click('[data-testid="kanban-create"]');
      await c.waitCount(10);
      const kanban = await c.objects();
      const columns = kanban.filter((o) => o.type === 'rectangle');
      expect(columns).toHaveLength(5);
      expect(columns.map((r) => [r.width, r.height])).toEqual(Array(5).fill([200, 400]));
      expect((columns[1].x as number) - (columns[0].x as number)).toBe(250);

      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="template-tab-calendar"]');
      const years = await page.locator('[data-testid="calendar-year"] option').allTextContents();
      const now = new Date().getFullYear();
      expect(years.map(Number)).toEqual(Array.from({ length: 10 }, (_, i) => now - 2 + i));
      await page.selectOption('[data-testid="calendar-month"]', '1');
      await page.selectOption('[data-testid="calendar-year"]', String(now));
      await page.click('[data-testid="calendar-create"]');
      await page.waitForFunction((n) => window.__wbCanvas!.store.objectCount > n, 10);
      const cells = (await c.objects()).filter((o) => o.type === 'rectangle' && o.width === 200 && o.height === 160);
      expect(cells).toHaveLength(42);

      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="template-tab-json-import"]');
      expect(await page.isDisabled('[data-testid="json-import"]')).toBe(true);
      const before = await page.evaluate(() => window.__wbCanvas!.store.objectCount);
      await page.fill('[data-testid="json-text"]', JSON.stringify([{ text: 'один' }, { text: 'два', status: 3 }, { text: 'три', type: 'sticky', status: '9' }]));
      await page.click('[data-testid="json-import"]');
      await c.waitCount(before + 3);
      const imported = (await c.objects()).slice(-3);
      expect(imported.map((o) => [o.type, o.text, o.x, o.y])).toEqual([
        ['sticky', 'один', -700, -200],
        ['sticky', 'два', -700 + 120 + 12, -200],
        ['sticky', 'три', -700 + 2 * (120 + 12), -200],
      ]);
    });
  });

  it('shows every JSON import message', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="template-tab-json-import"]');
      const tryText = async (text: string) => {
        await page.fill('[data-testid="json-text"]', text);
        await page.click('[data-testid="json-import"]');
        return page.textContent('[data-testid="json-error"]');
      };
      expect(await tryText('{oops')).toMatch(/^Неверный формат JSON: /);
      expect(await tryText('{"text": "a"}')).toBe('JSON должен быть массивом объектов');
      expect(await tryText('[]')).toBe('Массив не может быть пустым');
      expect(await tryText(JSON.stringify(Array(101).fill({ text: 'a' })))).toBe('Максимальное количество стикеров: 100');
      expect(await tryText('[{"text": "a"}, 5]')).toBe('Элемент 2 должен быть объектом');
      expect(await tryText('[{"title": "a"}]')).toBe('Элемент 1 должен содержать поле "text" со строковым значением');
      expect(await tryText(JSON.stringify([{ text: 'a'.repeat(4097) }]))).toBe('Текст в элементе 1 слишком длинный (максимум 4096 символов)');
      expect(await tryText('[{"text": "a", "type": "note"}]')).toContain('элементе 1');
      expect(await tryText('[{"text": "a", "status": 12}]')).toContain('12');
      const file = page.locator('[data-testid="json-file"]');
      await file.setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('[]') });
      expect(await page.textContent('[data-testid="json-error"]')).toBe('Пожалуйста, выберите JSON файл');
      await file.setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.alloc(1024 * 1024 + 1, 32) });
      expect(await page.textContent('[data-testid="json-error"]')).toBe('Файл слишком большой (максимум 1MB)');
      // A read failure (e.g. the file vanished): FileReader reports an error.
      await page.evaluate(() => {
        FileReader.prototype.readAsText = function (this: FileReader) {
          // wait-ok: FileReader reports asynchronously, as the real one does
          setTimeout(() => this.onerror?.(new ProgressEvent('error') as ProgressEvent<FileReader>), 0);
        };
      });
      await file.setInputFiles({ name: 'ok.json', mimeType: 'application/json', buffer: Buffer.from('[{"text":"a"}]') });
      await page.waitForSelector('[data-testid="json-error"]:has-text("Ошибка чтения файла")');
      expect(await c.objects()).toEqual([]);
    });
  });
});

describe('read-only roles', () => {
  it('a viewer link gets select and hand only, a frame without handles, no drag, delete or paste', async () => {
    const board = await newBoard('Просмотр');
    const auth = { Authorization: `Bearer ${board.tokens.accessToken}`, 'Content-Type': 'application/json' };
    await fetch(`${product.url}/api/boards/${board.id}/sharing`, { method: 'PUT', headers: auth, body: JSON.stringify({ enabled: true }) });
    const links = (await (
      await fetch(`${product.url}/api/boards/${board.id}/multiple-links`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ enabledRoles: ['viewer', 'guest'] }),
      })
    ).json()) as { board: { viewer_token_hash: string; guest_token_hash: string } };
    // The owner puts a sticky on the board.
    await withPage(product, async (s) => {
      const owner = await new Canvas(s.page).open(board);
      await owner.add([sticky('s', 0, 0)]);
      // On the server before this page closes: the export reads realtime's live document.
      await expect
        .poll(async () => {
          const res = await fetch(`${product.url}/api/export/svg`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ boardId: board.id, area: { x: -50, y: -50, width: 400, height: 400 } }),
          });
          return res.ok && (await res.text()).includes('data-id="s"');
        })
        .toBe(true);
    });
    await withPage(product, async (s) => {
      const { page } = s;
      await page.goto(`/board/${board.id}?token=${links.board.viewer_token_hash}`);
      await page.waitForFunction(() => window.__wbCanvas?.store.objectCount === 1, undefined, { timeout: 45_000 });
      const c = new Canvas(page);
      const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
      Object.assign(c, { origin: { x: box.x, y: box.y } });
      // §6: the other tools, undo, redo, templates, clear and the colours are there, disabled.
      const usable = (sel: string) =>
        page.locator(sel).evaluateAll((els) => els.filter((e) => !(e as HTMLButtonElement).disabled).map((e) => e.getAttribute('data-testid')));
      expect(await usable('[data-testid^="tool-"]')).toEqual(['tool-select', 'tool-hand']);
      expect(await page.locator('[data-testid^="tool-"]').count()).toBeGreaterThan(8);
      expect(await page.locator('[data-testid="undo"], [data-testid="redo"], [data-testid="templates"], [data-testid="clear-board"]').count()).toBe(4);
      expect(await usable('[data-testid="undo"], [data-testid="redo"], [data-testid="templates"], [data-testid="clear-board"], [data-testid^="color-"], [data-testid="arrow-start"]')).toEqual([]);
      expect(await page.locator('[data-testid^="color-"]').count()).toBeGreaterThan(0);
      const centre = await c.screenOf({ x: 60, y: 60 });
      await page.mouse.click(centre.x, centre.y);
      expect(await c.selection()).toEqual(['s']);
      expect(await page.evaluate(() => (window.__wbCanvas as unknown as { transformer: { enabledAnchors(): string[] } }).transformer.enabledAnchors())).toEqual([]);
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down();
      await page.mouse.move(centre.x + 150, centre.y + 80, { steps: 5 });
      await page.mouse.up();
      await page.keyboard.press('Delete');
      await page.keyboard.press('3');
      await page.keyboard.press('Control+c');
      await page.keyboard.press('Control+v');
      await rendered(page);
      const objects = await c.objects();
      expect(objects.map((o) => [o.id, o.x, o.y])).toEqual([['s', 0, 0]]);
      expect(await page.getAttribute('[data-testid="board-canvas"]', 'data-tool')).toBe('select');
      expect(await page.locator('[data-testid^="connect-"]').count()).toBe(0);
      // §6: the context menu on the selected sticky says 'Режим просмотра' and offers nothing else.
      await page.mouse.click(centre.x, centre.y, { button: 'right' });
      const menu = page.locator('[data-testid="canvas-context-menu"]');
      await menu.waitFor();
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Режим просмотра']);
      expect(await menu.getByRole('menuitem').getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    });
    // A guest cannot even select.
    await withPage(product, async (s) => {
      const { page } = s;
      await page.goto(`/board/${board.id}?token=${links.board.guest_token_hash}`);
      await page.waitForFunction(() => window.__wbCanvas?.store.objectCount === 1, undefined, { timeout: 45_000 });
      const tools = await page
        .locator('[data-testid^="tool-"]')
        .evaluateAll((els) => els.filter((e) => !(e as HTMLButtonElement).disabled).map((e) => e.getAttribute('data-testid')));
      expect(tools).toEqual(['tool-hand']);
      const box = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
      const p = await page.evaluate(() => window.__wbCanvas!.toScreen({ x: 60, y: 60 }));
      await page.mouse.click(box.x + p.x, box.y + p.y);
      expect(await page.evaluate(() => [...window.__wbCanvas!.selection])).toEqual([]);
      await page.mouse.click(box.x + p.x, box.y + p.y, { button: 'right' });
      await rendered(page);
      expect(await page.locator('[data-testid="canvas-context-menu"]').count()).toBe(0);
    });
  });
});

describe('board-wide', () => {
  it('clear board asks with the spec text; the button is hidden under 640 px', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await c.add([rect('r', 0, 0)]);
      await page.click('[data-testid="clear-board"]');
      await page.waitForSelector('[data-testid="clear-confirm"]');
      expect(await page.textContent('[data-testid="clear-confirm"]')).toContain('Очистить всю доску? Это действие нельзя отменить.');
      await page.click('[data-testid="clear-confirm-ok"]');
      await c.waitCount(0);
      await page.setViewportSize({ width: 600, height: 800 });
      expect(await page.isVisible('[data-testid="clear-board"]')).toBe(false);
    });
  });

  it('at 375 px the toolbar is one row; the arrow and templates move into its "Ещё" menu; no separator', async () => {
    // Issue 35 item 8 replaced the wrapped groups (canvas-navigation.test.ts covers the menu's tools).
    await withCanvas(async (c) => {
      const { page } = c;
      await page.setViewportSize({ width: 375, height: 812 });
      const top = async (id: string) => Math.round((await page.locator(`[data-testid="${id}"]`).boundingBox())!.y);
      expect(await top('redo')).toBe(await top('undo'));
      expect(await top('toolbar-more')).toBe(await top('undo'));
      expect(await top('tool-select')).toBe(await top('undo'));
      expect(await page.locator('[data-testid="templates"]').count()).toBe(0);
      expect(await page.locator('[data-testid="arrow-start"]').count()).toBe(0);
      const separators = page.locator('[data-testid="canvas-toolbar"] > [role="separator"]');
      expect(await separators.count()).toBeGreaterThan(0);
      for (const s of await separators.all()) expect(await s.isVisible()).toBe(false);
      const bar = (await page.locator('[data-testid="canvas-toolbar"]').boundingBox())!;
      expect(bar.x).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width).toBeLessThanOrEqual(375);
      await page.click('[data-testid="toolbar-more"]');
      expect(await page.locator('[data-testid="more-templates"]').isVisible()).toBe(true);
      expect(await page.locator('[data-testid="more-arrow"]').isVisible()).toBe(true);
      await page.keyboard.press('Escape');
    });
  });

  it('draws the valid objects of a document holding invalid ones', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      await page.evaluate(() => {
        const e = window.__wbCanvas!;
        const map = e.doc.getMap('objects');
        const Entry = map.constructor as new () => { set(k: string, v: unknown): void };
        const bad = new Entry();
        e.doc.transact(() => {
          bad.set('type', 'rectangle');
          bad.set('x', 'NaN');
          map.set('bad', bad);
          map.set('junk', 42);
        }, 'hostile');
      });
      await c.add([rect('good', 0, 0)]);
      expect((await c.objects()).map((o) => o.id)).toEqual(['good']);
    });
  });

  it('does not decode a data URL image whose header declares a huge picture; the others load', async () => {
    await withCanvas(async (c) => {
      const { page } = c;
      // Every src given to an <img>, as the page sets it.
      await page.evaluate(() => {
        const seen: string[] = ((window as unknown as { __srcs: string[] }).__srcs = []);
        const desc = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')!;
        Object.defineProperty(HTMLImageElement.prototype, 'src', {
          ...desc,
          set(v: string) {
            seen.push(v.slice(0, 64));
            desc.set!.call(this, v);
          },
        });
      });
      const bomb = `data:image/png;base64,${Buffer.concat([pngHeader(100_000, 100_000), Buffer.alloc(600)]).toString('base64')}`;
      const good = `data:image/png;base64,${(await pngBytes(page, 20, 10, '#ff0000')).toString('base64')}`;
      const image = (id: string, x: number, src: string): Obj => ({ id, type: 'image', x, y: 0, width: 100, height: 50, src, zIndex: 0 });
      await c.add([image('bomb', 0, bomb), image('good', 200, good)]);
      await expect.poll(() => page.evaluate(() => (window as unknown as { __srcs: string[] }).__srcs)).toContain(good.slice(0, 64));
      expect(await page.evaluate(() => (window as unknown as { __srcs: string[] }).__srcs)).not.toContain(bomb.slice(0, 64));
      // Both objects are on the board; the refused one is drawn as the grey placeholder.
      expect((await c.objects()).map((o) => o.id).sort()).toEqual(['bomb', 'good']);
    });
  });

  it('two browsers on one board see each other draw', async () => {
    const id = await newBoard('Вместе');
    const a = await openPage(product);
    const b = await openPage(product);
    try {
      const ca = await new Canvas(a.page).open(id);
      const cb = await new Canvas(b.page).open(id);
      await ca.tool('rectangle');
      await ca.drag([200, 200], [300, 280]);
      await cb.waitCount(1);
      // Drawn on B's screen too (a remote change repaints its region of B's bitmap).
      await expect.poll(async () => (await cb.pixel(200, 240))[0]).toBeLessThan(120);
      await b.page.keyboard.press('3');
      await cb.drag([400, 300], [500, 380], 6);
      await ca.waitCount(2);
      expect((await ca.objects()).map((o) => o.type)).toEqual(['rectangle', 'path']);
      // B's undo never touches A's rectangle.
      await b.page.keyboard.press('Control+z');
      await ca.waitCount(1);
      expect((await ca.objects())[0].type).toBe('rectangle');
      expect([...a.errors, ...b.errors]).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
