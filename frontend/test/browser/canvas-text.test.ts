/**
 * Text edited together, in place (issue 35 item 4), in Chromium on the real product: the editor is a
 * textarea over the object at the camera's scale (no popup), every keystroke is in the document, two
 * browsers typing in one sticky at once both keep their words, each sees the other's caret, a
 * 4,096-character imported sticky opened and closed keeps all of it, text beyond the model's limit
 * is refused with a message, Ctrl+Z undoes typing and Escape takes back the session's own typing,
 * and an old board's plain-string text becomes a Y.Text on its first edit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addObjects, newBoardOf, openCanvas, sticky, type Board, type Obj } from './canvasHelpers.ts';
import { openPage, toastTexts, useProduct, type PageSession } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

const newBoard = (): Promise<Board> => newBoardOf(product.url, 'canvas-text', 'Текст вместе');

const EDITOR = '[data-testid="text-editor"]';
const INPUT = '[data-testid="text-editor-input"]';
const COUNTER = '[data-testid="text-editor-counter"]';

class Side {
  origin = { x: 0, y: 0 };
  constructor(readonly s: PageSession) {}
  get page(): Page {
    return this.s.page;
  }

  async open(board: Board): Promise<this> {
    this.origin = await openCanvas(this.page, board);
    return this;
  }

  objects(): Promise<Obj[]> {
    return this.page.evaluate(() => window.__wbCanvas!.store.allObjects() as unknown as Obj[]);
  }

  /** The object's text as the document holds it now (not the scene's copy, rebuilt once a frame). */
  textOf(id: string): Promise<string | null> {
    return this.page.evaluate((oid) => {
      const map = window.__wbCanvas!.doc.getMap('objects').get(oid) as { get(k: string): unknown } | undefined;
      const t = map?.get('text');
      return t === undefined || t === null ? null : String(t);
    }, id);
  }

  /** Screen (page) position of a board point. */
  async screenOf(board: { x: number; y: number }): Promise<{ x: number; y: number }> {
    const p = await this.page.evaluate((b) => window.__wbCanvas!.toScreen(b), board);
    return { x: this.origin.x + p.x, y: this.origin.y + p.y };
  }

  /** Puts a board point at the centre of the view (an imported sticky lands left of the first view). */
  async centreOn(board: { x: number; y: number }): Promise<void> {
    await this.page.evaluate((b) => {
      const e = window.__wbCanvas!;
      e.setCamera({ x: e.viewport.width / 2 - b.x, y: e.viewport.height / 2 - b.y, scale: 1 });
    }, board);
  }

  /** Waits until the camera is still for a frame (a template insert may move the view to it). */
  async settled(): Promise<void> {
    await expect
      .poll(() =>
        this.page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const before = JSON.stringify(window.__wbCanvas!.camera);
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(before === JSON.stringify(window.__wbCanvas!.camera))));
            }),
        ),
      )
      .toBe(true);
  }

  /** Double click on the object's centre: the editor opens on it. */
  async edit(object: object): Promise<void> {
    const obj = object as { x: number; y: number; width?: number; height?: number };
    await this.settled();
    const c = await this.screenOf({ x: obj.x + (obj.width ?? 0) / 2, y: obj.y + (obj.height ?? 20) / 2 });
    await this.page.mouse.dblclick(c.x, c.y);
    await this.page.waitForSelector(INPUT);
    await expect.poll(() => this.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('text-editor-input');
  }

  value(): Promise<string> {
    return this.page.inputValue(INPUT);
  }
}

async function withTwo(fn: (a: Side, b: Side, board: Board) => Promise<void>): Promise<void> {
  const board = await newBoard();
  const sa = await openPage(product);
  const sb = await openPage(product);
  try {
    const a = await new Side(sa).open(board);
    const b = await new Side(sb).open(board);
    await fn(a, b, board);
    expect([...sa.errors, ...sb.errors]).toEqual([]);
  } finally {
    await sa.close();
    await sb.close();
  }
}

async function withOne(fn: (a: Side) => Promise<void>): Promise<void> {
  const board = await newBoard();
  const s = await openPage(product);
  try {
    await fn(await new Side(s).open(board));
    expect(s.errors).toEqual([]);
  } finally {
    await s.close();
  }
}

describe('text edited in place', () => {
  it('types over the sticky itself, in the painter’s font, with every keystroke in the document', async () => {
    await withOne(async (a) => {
      const { page } = a;
      await page.keyboard.press('5');
      await page.mouse.click(a.origin.x + 400, a.origin.y + 300);
      await page.waitForSelector(INPUT);
      // No popup: no dialog, no Save button; the editor covers the sticky exactly.
      expect(await page.locator('[role="dialog"]').count()).toBe(0);
      expect(await page.locator('[data-testid="text-editor-save"]').count()).toBe(0);
      const corner = await page.evaluate(() => {
        const e = window.__wbCanvas!;
        const id = e.editor.request!.object.id;
        const o = e.editor.request!.object;
        return { id, ...e.toScreen({ x: o.x, y: o.y }), scale: e.camera.scale };
      });
      const box = (await page.locator(EDITOR).boundingBox())!;
      expect(Math.abs(box.x - a.origin.x - corner.x)).toBeLessThan(1);
      expect(Math.abs(box.y - a.origin.y - corner.y)).toBeLessThan(1);
      expect(Math.abs(box.width - 120 * corner.scale)).toBeLessThan(1);
      const style = await page.locator(INPUT).evaluate((el) => {
        const cs = getComputedStyle(el);
        return [cs.fontFamily, cs.fontSize, cs.paddingLeft, cs.lineHeight, cs.backgroundColor];
      });
      expect(style).toEqual(['"DejaVu Sans", Arial, sans-serif', '14px', '10px', '16.8px', 'rgb(255, 242, 179)']);
      expect(await page.textContent(COUNTER)).toBe('12/4096 символов');
      // The default text is selected: typing replaces it, and each key is in the document at once.
      await page.keyboard.type('Задача');
      await expect.poll(() => a.textOf(corner.id)).toBe('Задача');
      expect(await page.locator(EDITOR).count()).toBe(1);
      await page.keyboard.type(' дня');
      await expect.poll(() => a.textOf(corner.id)).toBe('Задача дня');
      expect(await page.textContent(COUNTER)).toBe('10/4096 символов');
      // A press outside closes it; nothing was waiting to be saved.
      await page.mouse.click(a.origin.x + 900, a.origin.y + 650);
      await page.waitForSelector(EDITOR, { state: 'detached' });
      expect((await a.objects()).map((o) => [o.type, o.text])).toEqual([['sticky', 'Задача дня']]);
    });
  });

  it('two browsers typing in one sticky at the same time both keep their words, and see each other’s caret', async () => {
    await withTwo(async (a, b) => {
      const s = { ...sticky('s', 0, 0), width: 300, height: 200, text: 'Идеи:' };
      await addObjects(a.page, [s]);
      await b.page.waitForFunction(() => window.__wbCanvas!.store.entries.has('s'));
      await a.edit(s);
      await b.edit(s);
      await a.page.keyboard.press('End');
      await b.page.keyboard.press('End');
      await Promise.all([
        a.page.keyboard.type(' Анна пишет', { delay: 15 }),
        b.page.keyboard.type(' Борис тоже', { delay: 15 }),
      ]);
      const both = async () => [await a.textOf('s'), await b.textOf('s'), await a.value(), await b.value()];
      await expect.poll(async () => new Set(await both()).size, { timeout: 10_000 }).toBe(1);
      const [text] = await both();
      expect(text).toContain(' Анна пишет');
      expect(text).toContain(' Борис тоже');
      expect(text!.length).toBe('Идеи:'.length + ' Анна пишет'.length + ' Борис тоже'.length);

      // B sees A's caret (a thin line in A's colour) after A's words, inside the sticky.
      await a.page.keyboard.press('End');
      const caret = b.page.locator('[data-testid="remote-caret"][data-object-id="s"]');
      await expect.poll(() => caret.isVisible()).toBe(true);
      const line = (await caret.boundingBox())!;
      const topLeft = await b.screenOf({ x: 0, y: 0 });
      expect(line.width).toBeLessThanOrEqual(3);
      expect(line.x).toBeGreaterThan(topLeft.x + 10);
      expect(line.x).toBeLessThan(topLeft.x + 300);
      expect(line.y).toBeGreaterThanOrEqual(topLeft.y + 9);
      const color = await caret.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(color).not.toBe('rgba(0, 0, 0, 0)');
      // A moves the caret to the start: B's line follows.
      await a.page.keyboard.press('Control+Home');
      await expect
        .poll(async () => {
          const b = (await caret.boundingBox())!;
          return Math.abs(b.x + b.width / 2 - topLeft.x - 10);
        })
        .toBeLessThan(1);
      // A closes the editor: the caret goes.
      await a.page.keyboard.press('Control+Enter');
      await expect.poll(() => caret.count()).toBe(0);
    });
  });

  it('a 4,096-character imported sticky opened and closed keeps all its text; a keystroke past the limit is refused with a message', async () => {
    await withOne(async (a) => {
      const { page } = a;
      const long = `${'Длинный текст стикера. '.repeat(200)}`.slice(0, 4095) + 'Я';
      expect(long).toHaveLength(4096);
      await page.click('[data-testid="templates"]');
      await page.click('[data-testid="template-tab-json-import"]');
      await page.fill('[data-testid="json-text"]', JSON.stringify([{ text: long }]));
      await page.click('[data-testid="json-import"]');
      await expect.poll(async () => (await a.objects()).length).toBe(1);
      const [obj] = await a.objects();
      expect(obj!.text).toBe(long);
      await a.settled();
      // The import sizes the sticky to its text (400 px wide, taller than the view): its centre to the view's.
      await a.centreOn({ x: (obj!.x as number) + (obj!.width as number) / 2, y: (obj!.y as number) + (obj!.height as number) / 2 });
      await a.edit(obj as never);
      expect(await a.value()).toBe(long);
      expect(await page.textContent(COUNTER)).toBe('4096/4096 символов');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector(EDITOR, { state: 'detached' });
      expect(await a.textOf(obj!.id)).toBe(long);
      await a.edit(obj as never);
      await page.keyboard.press('Escape');
      await page.waitForSelector(EDITOR, { state: 'detached' });
      expect(await a.textOf(obj!.id)).toBe(long);

      // Typing one more character is refused, with a message; deleting one makes room again.
      await a.edit(obj as never);
      await page.keyboard.type('x');
      await expect.poll(() => toastTexts(page)).toContain('Текст не может быть длиннее 4096 символов');
      expect(await a.value()).toBe(long);
      expect(await a.textOf(obj!.id)).toBe(long);
      expect(await page.getAttribute(COUNTER, 'data-refused')).toBe('true');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('Ю');
      await expect.poll(() => a.textOf(obj!.id)).toBe(long.slice(0, 4095) + 'Ю');
      // A paste that would pass the limit is refused whole, not cut.
      await page.keyboard.press('Backspace');
      await page.locator(INPUT).evaluate((el: HTMLTextAreaElement) => {
        el.setRangeText('abc', el.selectionStart, el.selectionEnd, 'end');
        el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: 'abc' }));
      });
      expect(await a.value()).toBe(long.slice(0, 4095));
      expect(await a.textOf(obj!.id)).toBe(long.slice(0, 4095));
    });
  });

  it('a text object stops at 500 characters, the model’s limit for texts', async () => {
    await withOne(async (a) => {
      const { page } = a;
      await page.click('[data-testid="tool-text"]');
      await page.mouse.click(a.origin.x + 300, a.origin.y + 300);
      await page.waitForSelector(INPUT);
      expect(await page.textContent(COUNTER)).toBe('11/500 символов');
      await page.fill(INPUT, 'я'.repeat(600));
      await expect.poll(() => toastTexts(page)).toContain('Текст не может быть длиннее 500 символов');
      await page.fill(INPUT, 'я'.repeat(500));
      expect(await page.textContent(COUNTER)).toBe('500/500 символов');
      await page.keyboard.press('Control+Enter');
      await expect.poll(async () => (await a.objects()).map((o) => (o.text as string).length)).toEqual([500]);
    });
  });

  it('Ctrl+Z undoes typing in the editor and after it closed; Ctrl+Y redoes it', async () => {
    await withOne(async (a) => {
      const { page } = a;
      const s = { ...sticky('u', 0, 0), text: 'abc' };
      await addObjects(page, [s]);
      await a.edit(s);
      await page.keyboard.type(' def');
      await expect.poll(() => a.textOf('u')).toBe('abc def');
      await page.keyboard.press('Control+z');
      await expect.poll(() => a.textOf('u')).toBe('abc');
      expect(await a.value()).toBe('abc');
      await page.keyboard.press('Control+y');
      await expect.poll(() => a.textOf('u')).toBe('abc def');
      expect(await a.value()).toBe('abc def');
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector(EDITOR, { state: 'detached' });
      await page.keyboard.press('Control+z');
      await expect.poll(() => a.textOf('u')).toBe('abc');
      // Escape cancels (§5): the session's typing is taken back.
      await a.edit(s);
      await page.keyboard.type(' ghi');
      await expect.poll(() => a.textOf('u')).toBe('abc ghi');
      await page.keyboard.press('Escape');
      await page.waitForSelector(EDITOR, { state: 'detached' });
      await expect.poll(() => a.textOf('u')).toBe('abc');
    });
  });

  it('an old board’s plain-string text is shown whole and becomes a Y.Text on its first edit', async () => {
    await withTwo(async (a, b) => {
      const s = { ...sticky('old', 0, 0), text: 'x' };
      await addObjects(a.page, [s]);
      await a.page.evaluate(() => {
        const map = window.__wbCanvas!.doc.getMap('objects').get('old') as { set(k: string, v: unknown): void };
        map.set('text', 'старый текст');
      });
      await expect.poll(() => b.textOf('old')).toBe('старый текст');
      await a.edit(s);
      expect(await a.value()).toBe('старый текст');
      await a.page.keyboard.type('!');
      await expect.poll(() => b.textOf('old')).toBe('старый текст!');
      const kind = (p: Page) =>
        p.evaluate(() => typeof (window.__wbCanvas!.doc.getMap('objects').get('old') as { get(k: string): unknown }).get('text'));
      expect(await kind(a.page)).toBe('object');
      expect(await kind(b.page)).toBe('object');
      // B types into it too, after A's first edit made it a Y.Text: both keep their words.
      await b.edit(s);
      await b.page.keyboard.press('Control+Home');
      await b.page.keyboard.type('Не ');
      await expect.poll(() => a.value()).toBe('Не старый текст!');
      // A's Escape takes back only A's own typing: B's words stay, and so does the Y.Text.
      await a.page.keyboard.press('Escape');
      await expect.poll(() => b.value()).toBe('Не старый текст');
      expect(await a.textOf('old')).toBe('Не старый текст');
      expect(await kind(a.page)).toBe('object');
    });
  });
});
