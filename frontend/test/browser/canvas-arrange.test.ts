/**
 * Arrange tools of issue 35 item 5 in Chromium on the real product: align and distribute a
 * multi-selection (context menu with the mouse, the bar with a finger), snapping to other objects
 * while moving and resizing with the guide drawn (Ctrl held turns it off), and what a paste of
 * something other than board objects or an image does (plain text → a text object; the rest: a
 * toast saying why). Every gesture is real input; the document is read through `window.__wbCanvas`.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addObjects, newBoardOf, openCanvas, type Obj } from './canvasHelpers.ts';
import { useProduct } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

type Point = { x: number; y: number };

const rect = (id: string, x: number, y: number, width = 80, height = 60): Obj => ({
  id,
  type: 'rectangle',
  x,
  y,
  width,
  height,
  fill: '#ffffff',
  stroke: '#000000',
  strokeWidth: 2,
  rotation: 0,
  zIndex: 0,
});

class Arr {
  private origin = { x: 0, y: 0 };
  constructor(readonly page: Page) {}

  async open(): Promise<this> {
    this.origin = await openCanvas(this.page, await newBoardOf(product.url, 'arrange', 'Выравнивание'));
    // Zoom 1 with the board's origin at the stage centre: snap distances below are board px = screen px.
    await this.page.evaluate(() => {
      const e = window.__wbCanvas!;
      e.setCamera({ x: Math.round(e.viewport.width / 2), y: Math.round(e.viewport.height / 2), scale: 1 });
    });
    return this;
  }

  /** Page position of a board point. */
  async screen(board: Point): Promise<Point> {
    const p = await this.page.evaluate((b) => window.__wbCanvas!.toScreen(b), board);
    return { x: this.origin.x + p.x, y: this.origin.y + p.y };
  }

  objects(): Promise<Record<string, Obj & { x: number; y: number; width: number; height: number; text?: string }>> {
    return this.page.evaluate(() => Object.fromEntries(window.__wbCanvas!.store.allObjects().map((o) => [o.id, o])) as never);
  }

  selection(): Promise<string[]> {
    return this.page.evaluate(() => [...window.__wbCanvas!.selection].sort());
  }

  undoSteps(): Promise<number> {
    return this.page.evaluate(() => window.__wbCanvas!.history.undoStack.length);
  }

  /** The guides drawn now (values rounded to 1/1000 board px: they come out of float transforms). */
  async guides(): Promise<Array<{ axis: string; at: number; from: number; to: number }>> {
    const list: Array<{ axis: string; at: number; from: number; to: number }> = await this.page.evaluate(
      () => (window.__wbCanvas!.live.layer.findOne('.snap-guides')?.getAttr('guides') as never) ?? [],
    );
    const r = (v: number) => Math.round(v * 1000) / 1000;
    return list.map((g) => ({ axis: g.axis, at: r(g.at), from: r(g.from), to: r(g.to) }));
  }

  /** Lets the engine draw what changed (the transformer's handles attach on its next frame). */
  frame(): Promise<unknown> {
    return this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }

  /** A pixel of the stage (page coordinates), composited from every layer. */
  pixel(p: Point): Promise<[number, number, number, number]> {
    const local = { x: p.x - this.origin.x, y: p.y - this.origin.y };
    return this.page.evaluate(({ x, y }) => {
      const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas')];
      const out = document.createElement('canvas');
      out.width = canvases[0].width;
      out.height = canvases[0].height;
      const ctx = out.getContext('2d')!;
      for (const c of canvases) ctx.drawImage(c, 0, 0);
      const ratio = out.width / canvases[0].clientWidth;
      return [...ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data] as [number, number, number, number];
    }, local);
  }

  async click(board: Point, modifiers: Array<'Shift'> = []): Promise<void> {
    const p = await this.screen(board);
    for (const k of modifiers) await this.page.keyboard.down(k);
    await this.page.mouse.click(p.x, p.y);
    for (const k of modifiers) await this.page.keyboard.up(k);
  }

  /** Presses at `from`, moves to `to` and stays pressed (the caller checks, then releases). */
  async press(from: Point, to: Point): Promise<void> {
    const a = await this.screen(from);
    const b = await this.screen(to);
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    await this.page.mouse.move(b.x, b.y, { steps: 8 });
  }

  /** A paste event holding the given clipboard items (a file as name + type + content). */
  async paste(items: { data?: Record<string, string>; file?: { name: string; type: string; content: string } }): Promise<void> {
    await this.page.evaluate(({ data, file }) => {
      const dt = new DataTransfer();
      for (const [type, value] of Object.entries(data ?? {})) dt.setData(type, value);
      if (file) dt.items.add(new File([file.content], file.name, { type: file.type }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, items);
  }

  toast(text: string) {
    return this.page.locator('.Toastify__toast', { hasText: text }).first().waitFor();
  }
}

async function withArr<T>(
  fn: (a: Arr, ctx: BrowserContext) => Promise<T>,
  opts: { hasTouch?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<T> {
  const context = await product.browser.newContext({
    baseURL: product.url,
    viewport: opts.viewport ?? { width: 1280, height: 860 },
    locale: 'ru-RU',
    hasTouch: opts.hasTouch ?? false,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const a = await new Arr(page).open();
    const result = await fn(a, context);
    expect(errors).toEqual([]);
    return result;
  } finally {
    await context.close();
  }
}

describe('align and distribute', () => {
  it('from the context menu with the mouse, one undo step each; distribute needs three', async () => {
    await withArr(async (a) => {
      const { page } = a;
      await addObjects(page, [rect('a', 0, 0, 80, 60), rect('b', 200, 50, 100, 40), rect('c', 450, -30, 60, 60)]);
      await a.click({ x: 40, y: 30 });
      await a.click({ x: 250, y: 70 }, ['Shift']);
      const menu = page.locator('[data-testid="canvas-context-menu"]');
      // Two selected: align only.
      const onB = await a.screen({ x: 250, y: 70 });
      await page.mouse.click(onB.x, onB.y, { button: 'right' });
      await menu.waitFor();
      const two = await menu.getByRole('menuitem').allInnerTexts();
      expect(two).toContain('Выровнять по левому краю');
      expect(two).not.toContain('Распределить по горизонтали');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });

      await a.click({ x: 40, y: 30 });
      await a.click({ x: 250, y: 70 }, ['Shift']);
      await a.click({ x: 480, y: 0 }, ['Shift']);
      expect(await a.selection()).toEqual(['a', 'b', 'c']);
      const before = await a.undoSteps();
      await page.mouse.click(onB.x, onB.y, { button: 'right' });
      await menu.getByRole('menuitem', { name: 'Выровнять по верхнему краю' }).click();
      await expect.poll(async () => Object.values(await a.objects()).map((o) => o.y)).toEqual([-30, -30, -30]);
      expect(await a.undoSteps()).toBe(before + 1);
      // One step: one undo puts all three back.
      await page.keyboard.press('Control+z');
      await expect.poll(async () => Object.values(await a.objects()).map((o) => o.y)).toEqual([0, 50, -30]);

      // Horizontal spans 0..510, widths 80 + 100 + 60: gaps of 135, so b lands at 215.
      await page.mouse.click(onB.x, onB.y, { button: 'right' });
      await menu.getByRole('menuitem', { name: 'Распределить по горизонтали' }).click();
      await expect.poll(async () => (await a.objects()).b.x).toBe(215);
      const o = await a.objects();
      expect([o.a.x, o.c.x]).toEqual([0, 450]);
      await page.keyboard.press('Control+z');
      await expect.poll(async () => (await a.objects()).b.x).toBe(200);
    });
  });

  it('with a finger: a rubber band, then a tap on the bar; the bar is gone for one object', async () => {
    await withArr(
      async (a, context) => {
        const { page } = a;
        await addObjects(page, [rect('a', 0, 0, 80, 60), rect('b', 200, 50, 100, 40), rect('c', 450, -30, 60, 60)]);
        const bar = page.locator('[data-testid="arrange-bar"]');
        const cdp = await context.newCDPSession(page);
        const from = await a.screen({ x: -50, y: -80 });
        const to = await a.screen({ x: 350, y: 150 });
        const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', p?: Point) =>
          cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 0, radiusX: 1, radiusY: 1, force: 1 }] : [] });
        await touch('touchStart', from);
        for (let i = 1; i <= 6; i++) await touch('touchMove', { x: from.x + ((to.x - from.x) * i) / 6, y: from.y + ((to.y - from.y) * i) / 6 });
        await touch('touchEnd');
        await expect.poll(() => a.selection()).toEqual(['a', 'b']);
        await bar.waitFor();
        // Two objects: distribute stays off.
        expect(await page.locator('[data-testid="arrange-horizontal"]').isDisabled()).toBe(true);
        await page.evaluate(() => {
          const w = window as never as { __log: string[] };
          w.__log = [];
          for (const t of ['pointerdown', 'pointerup', 'click', 'touchstart', 'touchend']) document.addEventListener(t, (e) => w.__log.push(`${t} ${(e.target as HTMLElement).tagName} ${performance.now()}`), true);
          window.__wbCanvas!.state.subscribe(() => w.__log.push(`state sel=${[...window.__wbCanvas!.selection].join(',')} ${performance.now()}`));
        });
        const steps = await a.undoSteps();
        await page.tap('[data-testid="arrange-right"]');
        await expect.poll(async () => (await a.objects()).a.x).toBe(220).catch(async (e: unknown) => {
          console.log('the tap did not align; events and store changes seen by the page:', await page.evaluate(() => (window as never as { __log: string[] }).__log), await a.selection());
          throw e;
        });
        // The right edges meet at 300 (the selection's right).
        await expect.poll(async () => (await a.objects()).a.x).toBe(220);
        expect((await a.objects()).b.x).toBe(200);
        expect((await a.objects()).c.x).toBe(450);
        // One step: the release acted, the click that may follow it did not act again.
        await a.frame();
        expect(await a.undoSteps()).toBe(steps + 1);
        // One object selected: no bar.
        await page.evaluate(() => window.__wbCanvas!.setSelection(['c']));
        await bar.waitFor({ state: 'detached' });
      },
      { hasTouch: true },
    );
  });

  it('at 375 px the bar is inside the screen, clear of the toolbar, and a tap distributes', async () => {
    await withArr(
      async (a) => {
        const { page } = a;
        await addObjects(page, [rect('a', -150, -50, 40, 40), rect('b', -20, 0, 40, 30), rect('c', 100, 60, 40, 40)]);
        await page.evaluate(() => window.__wbCanvas!.setSelection(['a', 'b', 'c']));
        const bar = (await page.locator('[data-testid="arrange-bar"]').boundingBox())!;
        expect(bar.x).toBeGreaterThanOrEqual(0);
        expect(bar.x + bar.width).toBeLessThanOrEqual(375);
        expect(bar.y + bar.height).toBeLessThanOrEqual(740);
        const tools = (await page.locator('[data-testid="canvas-toolbar"]').boundingBox())!;
        const apart = bar.y >= tools.y + tools.height || bar.y + bar.height <= tools.y;
        expect(apart).toBe(true);
        // Heights 40, 30, 40 over -50..100: gaps of 20, so b's top goes to 10.
        await page.tap('[data-testid="arrange-vertical"]');
        await expect.poll(async () => (await a.objects()).b.y).toBe(10);
      },
      { hasTouch: true, viewport: { width: 375, height: 740 } },
    );
  });
});

describe('snapping', () => {
  it("a dragged object snaps to another's edge with the guide drawn; Ctrl held turns it off", async () => {
    await withArr(async (a) => {
      const { page } = a;
      await addObjects(page, [rect('t', 0, 0, 100, 100), rect('m', 300, 300, 50, 50)]);
      // Grab m at its centre and bring its left edge to 103: 3 px from t's right edge (100).
      await a.press({ x: 325, y: 325 }, { x: 128, y: 185 });
      await expect.poll(() => a.guides()).toEqual([{ axis: 'x', at: 100, from: 0, to: 210 }]);
      // The guide is on screen: the gap between t's bottom (100) and m's top (160) at x = 100.
      const onGuide = await a.screen({ x: 100, y: 130 });
      const pink = async () => {
        // A one-pixel line may fall across two device pixels: either is tinted (red well above green).
        for (const dx of [-1, 0, 1]) {
          const [r, g] = await a.pixel({ x: onGuide.x + dx, y: onGuide.y });
          if (r - g > 60) return true;
        }
        return false;
      };
      await expect.poll(pink).toBe(true);
      await page.mouse.up();
      await expect.poll(async () => (await a.objects()).m.x).toBe(100);
      expect((await a.objects()).m.y).toBe(160);
      expect(await a.guides()).toEqual([]);

      // The same drag with Ctrl held: the edge stays where the pointer put it, no guide.
      await page.keyboard.down('Control');
      await a.press({ x: 125, y: 185 }, { x: 128, y: 385 });
      expect(await a.guides()).toEqual([]);
      await page.mouse.up();
      await page.keyboard.up('Control');
      await expect.poll(async () => (await a.objects()).m.y).toBe(360);
      expect((await a.objects()).m.x).toBe(103);
    });
  });

  it('a dragged object snaps to equal gaps between two neighbours, both gaps drawn', async () => {
    await withArr(async (a) => {
      const { page } = a;
      await addObjects(page, [rect('l', 0, 0, 100, 100), rect('r', 300, 0, 100, 100), rect('m', 150, 300, 50, 50)]);
      // Equal gaps put m's left at 175; the pointer leaves it at 172 (no edge or centre within 6 px).
      await a.press({ x: 175, y: 325 }, { x: 197, y: 35 });
      await expect.poll(() => a.guides()).toEqual([
        { axis: 'y', at: 35, from: 100, to: 175 },
        { axis: 'y', at: 35, from: 225, to: 300 },
      ]);
      await page.mouse.up();
      await expect.poll(async () => (await a.objects()).m.x).toBe(175);
      expect((await a.objects()).m.y).toBe(10);
    });
  });

  it('a resized edge snaps to a neighbour with the guide drawn; Ctrl held turns it off', async () => {
    await withArr(async (a) => {
      const { page } = a;
      await addObjects(page, [rect('t', 400, 100, 100, 100), rect('m', 200, 300, 100, 50)]);
      await a.click({ x: 250, y: 325 });
      await a.frame();
      // m's right-middle handle to x = 397: 3 px from t's left edge (400).
      await a.press({ x: 300, y: 325 }, { x: 397, y: 325 });
      await expect.poll(() => a.guides()).toEqual([{ axis: 'x', at: 400, from: 100, to: 350 }]);
      await page.mouse.up();
      await expect.poll(async () => (await a.objects()).m.width).toBe(200);
      expect((await a.objects()).m.x).toBe(200);
      expect(await a.guides()).toEqual([]);

      await a.frame();
      await page.keyboard.down('Control');
      await a.press({ x: 400, y: 325 }, { x: 503, y: 325 });
      expect(await a.guides()).toEqual([]);
      await page.mouse.up();
      await page.keyboard.up('Control');
      await expect.poll(async () => (await a.objects()).m.width).toBeGreaterThan(300);
      expect((await a.objects()).m.width).toBeCloseTo(303, 0);
    });
  });
});

describe('paste', () => {
  it('a plain text becomes a text object under the pointer, one undo step', async () => {
    await withArr(async (a) => {
      const { page } = a;
      const at = await a.screen({ x: 150, y: -100 });
      await page.mouse.move(at.x, at.y);
      const before = await a.undoSteps();
      await a.paste({ data: { 'text/plain': 'Привет,\r\nдоска!\n' } });
      await expect.poll(async () => Object.values(await a.objects()).length).toBe(1);
      const [t] = Object.values(await a.objects());
      expect(t).toMatchObject({ type: 'text', text: 'Привет,\nдоска!' });
      // Centred on the pointer's board point.
      const box = await page.evaluate((id) => window.__wbCanvas!.store.entries.get(id)!.item.bounds, t.id);
      expect(box.x).toBeLessThan(150);
      expect(box.x + box.width).toBeGreaterThan(150);
      expect(box.y).toBeLessThan(-100);
      expect(box.y + box.height).toBeGreaterThan(-100);
      expect(await a.selection()).toEqual([t.id]);
      expect(await a.undoSteps()).toBe(before + 1);
      await page.keyboard.press('Control+z');
      await expect.poll(async () => Object.values(await a.objects()).length).toBe(0);
    });
  });

  it('what cannot be pasted is told why; an over-long text is refused whole', async () => {
    await withArr(async (a) => {
      await a.paste({ file: { name: 'отчёт.pdf', type: 'application/pdf', content: '%PDF-1.4' } });
      await a.toast('Файл «отчёт.pdf» не вставлен: на доску можно вставить только изображения и текст');
      await a.paste({});
      await a.toast('Нечего вставить: буфер обмена пуст');
      await a.paste({ data: { 'text/html': '<b>жирный</b>' } });
      await a.toast('Не удалось вставить: в буфере обмена только оформленный текст (HTML) без обычного текста');
      await a.paste({ data: { 'text/plain': 'я'.repeat(501) } });
      await a.toast('Текст не вставлен: в нём 501 символов, а в текст на доске помещается не больше 500');
      expect(Object.values(await a.objects())).toHaveLength(0);
    });
  });
});
