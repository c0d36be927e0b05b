/**
 * The canvas camera (issue 10, board-page.md §9 "Zoom between 0.1 and 5; wheel zoom factor 1.1;
 * pinch-zoom steps 1.02 / 1.05 / 1.08") in Chromium on the real product: wheel zoom around the
 * pointer, the zoom limits, ctrl+wheel (trackpad pinch) steps, panning with the hand tool, Space and
 * the middle button, and two-finger touch pan and pinch sent through CDP as real touch input.
 * The camera is read through the page's `window.__wbCanvas` hook (the mounted engine), as in
 * canvas.test.ts; every gesture is real input (playwright mouse/keyboard, CDP touch).
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addObjects, newBoardOf, openCanvas, sticky, type Board, type Obj } from './canvasHelpers.ts';
import { useProduct } from './harness.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

const WHEEL = 1.1;
const STEPS = [1.02, 1.05, 1.08] as const;
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 5;

interface Camera {
  x: number;
  y: number;
  scale: number;
}
interface Point {
  x: number;
  y: number;
}
/** A board of a fresh account (a free plan allows only a few boards per account). */
const newBoard = (): Promise<Board> => newBoardOf(product.url, 'camera', 'Камера');

/** The board page of a fresh board; coordinates are relative to the stage's top-left corner. */
class Cam {
  origin = { x: 0, y: 0 };
  constructor(readonly page: Page) {}

  async open(board: Board): Promise<this> {
    this.origin = await openCanvas(this.page, board);
    return this;
  }

  /** Page (client) coordinates of a stage point. */
  at(x: number, y: number): [number, number] {
    return [this.origin.x + x, this.origin.y + y];
  }

  camera(): Promise<Camera> {
    return this.page.evaluate(() => ({ ...window.__wbCanvas!.camera }));
  }

  /** The board point under a stage point, by the engine's current camera. */
  boardAt(p: Point): Promise<Point> {
    return this.page.evaluate((q) => window.__wbCanvas!.toBoard(q), p);
  }

  /** Sets a known camera (like the page restoring a saved one) and waits until it is drawn. */
  async setCamera(cam: Camera): Promise<void> {
    await this.page.evaluate((c) => window.__wbCanvas!.setCamera(c), cam);
    await expect.poll(() => this.camera()).toEqual(cam);
  }

  /** Waits until the camera differs from `before`, then returns it. */
  async cameraAfter(before: Camera): Promise<Camera> {
    await expect.poll(async () => JSON.stringify(await this.camera())).not.toBe(JSON.stringify(before));
    return this.camera();
  }

  /** Fails unless the stage (not the toolbar or an overlay) is what a press at (x, y) reaches. */
  async expectStageAt(x: number, y: number): Promise<void> {
    const onStage = await this.page.evaluate(
      ([px, py]) => {
        const el = document.elementFromPoint(px, py);
        return !!el?.closest('[data-testid="canvas-stage"]');
      },
      this.at(x, y),
    );
    expect(onStage, `stage point ${x},${y} is covered`).toBe(true);
  }

  add(objects: Obj[]): Promise<void> {
    return addObjects(this.page, objects);
  }

  objects(): Promise<Obj[]> {
    return this.page.evaluate(() => window.__wbCanvas!.store.allObjects() as unknown as Obj[]);
  }

  selection(): Promise<string[]> {
    return this.page.evaluate(() => [...window.__wbCanvas!.selection].sort());
  }

  async drag(
    from: Point,
    to: Point,
    opts: { steps?: number; button?: 'left' | 'middle' } = {},
  ): Promise<void> {
    const m = this.page.mouse;
    await m.move(...this.at(from.x, from.y));
    await m.down({ button: opts.button ?? 'left' });
    await m.move(...this.at(to.x, to.y), { steps: opts.steps ?? 5 });
    await m.up({ button: opts.button ?? 'left' });
  }

  /**
   * Records what the stage receives (wheel deltas, pointer types) in window.__camSeen, in the
   * capture phase so it sees exactly what reaches the engine's listeners on the same element.
   */
  async recordInput(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __camSeen: unknown[] };
      w.__camSeen = [];
      const stage = document.querySelector('[data-testid="canvas-stage"]')!;
      stage.addEventListener(
        'wheel',
        (e) => {
          const we = e as WheelEvent;
          w.__camSeen.push({
            type: 'wheel',
            deltaY: we.deltaY,
            deltaMode: we.deltaMode,
            ctrlKey: we.ctrlKey,
          });
        },
        { capture: true },
      );
      for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
        stage.addEventListener(
          type,
          (e) => {
            const pe = e as PointerEvent;
            // The camera as this event finds it (before the engine's own listener runs).
            const scale = window.__wbCanvas?.camera.scale;
            w.__camSeen.push({ type, pointerType: pe.pointerType, pointerId: pe.pointerId, scale });
          },
          { capture: true },
        );
      }
    });
  }

  async seen(): Promise<Array<Record<string, unknown>>> {
    return this.page.evaluate(() =>
      (window as unknown as { __camSeen: Array<Record<string, unknown>> }).__camSeen.splice(0),
    );
  }

  /** One wheel event at stage point p (the mouse is moved there first). */
  async wheelAt(p: Point, deltaY: number, ctrl = false): Promise<void> {
    await this.page.mouse.move(...this.at(p.x, p.y));
    if (ctrl) await this.page.keyboard.down('Control');
    await this.page.mouse.wheel(0, deltaY);
    if (ctrl) await this.page.keyboard.up('Control');
  }
}

/** Commands on the undo stack: a pan is none. */
const undoSteps = (page: Page) => page.evaluate(() => window.__wbCanvas!.history.undoStack.length);

const VIEWPORT = { width: 1280, height: 860 };

/** A fresh board in a fresh context (with touch input when asked); page errors fail the test. */
async function withBoard<T>(
  fn: (c: Cam, ctx: BrowserContext) => Promise<T>,
  opts: { hasTouch?: boolean } = {},
): Promise<T> {
  const board = await newBoard();
  const context = await product.browser.newContext({
    baseURL: product.url,
    viewport: VIEWPORT,
    locale: 'ru-RU',
    hasTouch: opts.hasTouch ?? false,
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const c = await new Cam(page).open(board);
    const result = await fn(c, context);
    expect(errors).toEqual([]);
    return result;
  } finally {
    await context.close();
  }
}

/** Stage points used by the tests: well inside the stage, away from the toolbar and the overlays. */
const P = { x: 640, y: 430 };
const Q = { x: 420, y: 520 };

/** How far two cameras are apart (position in px, scale). */
const camDiff = (a: Camera, b: Camera) =>
  Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.scale - b.scale));

/** Waits until the camera is `expected` (up to float rounding of the summed pointer steps). */
async function expectCamera(c: Cam, expected: Camera): Promise<void> {
  await expect
    .poll(async () => camDiff(await c.camera(), expected), { message: `camera ${JSON.stringify(expected)}` })
    .toBeLessThan(1e-6);
}

const close = (a: number, b: number, digits = 9) => expect(a).toBeCloseTo(b, digits);
const closePoint = (a: Point, b: Point, digits = 6) => {
  expect(a.x).toBeCloseTo(b.x, digits);
  expect(a.y).toBeCloseTo(b.y, digits);
};

describe('wheel', () => {
  it('one notch zooms by exactly 1.1 (or 1/1.1) keeping the board point under the pointer', async () => {
    await withBoard(async (c) => {
      await c.expectStageAt(P.x, P.y);
      await c.expectStageAt(Q.x, Q.y);
      await c.recordInput();
      // A camera that is neither the origin nor scale 1, so an anchor error cannot hide.
      await c.setCamera({ x: 300, y: 200, scale: 1.5 });

      for (const [p, deltaY, factor] of [
        [P, -100, WHEEL],
        [Q, -100, WHEEL],
        [P, 100, 1 / WHEEL],
        [Q, 100, 1 / WHEEL],
      ] as const) {
        const before = await c.camera();
        const anchor = await c.boardAt(p);
        await c.wheelAt(p, deltaY);
        const after = await c.cameraAfter(before);
        close(after.scale, before.scale * factor);
        // The board point that was under the pointer is still under it.
        closePoint(await c.boardAt(p), anchor);
        // Exactly one zoom step per notch: the engine received one plain wheel event.
        const wheels = (await c.seen()).filter((e) => e.type === 'wheel');
        expect(wheels).toEqual([{ type: 'wheel', deltaY, deltaMode: 0, ctrlKey: false }]);
      }
      // Two notches in and two out at the same point bring back the scale.
      const start = await c.camera();
      for (const d of [-100, -100, 100, 100]) {
        const before = await c.camera();
        await c.wheelAt(P, d);
        await c.cameraAfter(before);
      }
      const back = await c.camera();
      close(back.scale, start.scale);
      close(back.x, start.x, 6);
      close(back.y, start.y, 6);
    });
  });

  it('zoom stops at 5 and at 0.1 however many notches', async () => {
    await withBoard(async (c) => {
      const anchorIn = await c.boardAt(P);
      // 1.1^17 > 5: 30 notches in must stop at 5.
      for (let i = 0; i < 30; i++) await c.wheelAt(P, -100);
      await expect.poll(async () => (await c.camera()).scale).toBe(MAX_ZOOM);
      closePoint(await c.boardAt(P), anchorIn);
      // Further notches in change nothing at all (no drift of the position either).
      const atMax = await c.camera();
      for (let i = 0; i < 3; i++) await c.wheelAt(P, -100);
      // One notch out proves the three above were handled before it: it is 5/1.1 after them.
      await c.wheelAt(P, 100);
      await expect.poll(async () => (await c.camera()).scale).toBeCloseTo(MAX_ZOOM / WHEEL, 9);
      await c.wheelAt(P, -100);
      await expect.poll(async () => (await c.camera()).scale).toBe(MAX_ZOOM);
      const again = await c.camera();
      close(again.x, atMax.x, 6);
      close(again.y, atMax.y, 6);

      // 1.1^-25 < 0.1 from 1, and more from 5: 60 notches out must stop at 0.1.
      const anchorOut = await c.boardAt(Q);
      for (let i = 0; i < 60; i++) await c.wheelAt(Q, 100);
      await expect.poll(async () => (await c.camera()).scale).toBe(MIN_ZOOM);
      closePoint(await c.boardAt(Q), anchorOut, 4);
      await c.wheelAt(Q, -100);
      await expect.poll(async () => (await c.camera()).scale).toBeCloseTo(MIN_ZOOM * WHEEL, 9);
    });
  });

  it('ctrl+wheel (a trackpad pinch) zooms by the pinch steps, not by 1.1', async () => {
    await withBoard(async (c) => {
      await c.recordInput();
      // The rule (README "Pinch thresholds"): |deltaY| < 4 → 1.02, < 12 → 1.05, else 1.08.
      for (const [deltaY, factor] of [
        [-1, STEPS[0]],
        [-3, STEPS[0]],
        [-4, STEPS[1]],
        [-11, STEPS[1]],
        [-12, STEPS[2]],
        [-100, STEPS[2]],
        [2, 1 / STEPS[0]],
        [8, 1 / STEPS[1]],
        [100, 1 / STEPS[2]],
      ] as const) {
        const before = await c.camera();
        const anchor = await c.boardAt(P);
        await c.wheelAt(P, deltaY, true);
        const after = await c.cameraAfter(before);
        const wheels = (await c.seen()).filter((e) => e.type === 'wheel');
        expect(wheels).toEqual([{ type: 'wheel', deltaY, deltaMode: 0, ctrlKey: true }]);
        close(after.scale, before.scale * factor);
        expect(Math.abs(after.scale / before.scale - WHEEL)).toBeGreaterThan(0.01);
        closePoint(await c.boardAt(P), anchor);
      }
      // The pinch is clamped like the wheel.
      for (let i = 0; i < 30; i++) await c.wheelAt(P, -100, true);
      await expect.poll(async () => (await c.camera()).scale).toBe(MAX_ZOOM);
    });
  });
});

describe('pan', () => {
  it('the hand tool drags the view by the dragged distance and creates, selects or moves nothing', async () => {
    await withBoard(async (c) => {
      const { page } = c;
      await c.add([sticky('s1', -60, -60)]);
      const stored = await c.objects();
      await c.setCamera({ x: 640, y: 430, scale: 1.25 });
      const undoBefore = await undoSteps(page);
      await page.click('[data-testid="tool-hand"]');
      await expect.poll(() => page.evaluate(() => window.__wbCanvas!.tool)).toBe('hand');
      // Start on empty board, then on the sticky: both pan.
      for (const [from, d] of [
        [
          { x: 300, y: 650 },
          { x: 137, y: -91 },
        ],
        [
          { x: 640, y: 430 },
          { x: -211, y: 64 },
        ],
      ] as const) {
        await c.expectStageAt(from.x, from.y);
        const before = await c.camera();
        const anchor = await c.boardAt(from);
        await c.drag(from, { x: from.x + d.x, y: from.y + d.y });
        await expectCamera(c, { x: before.x + d.x, y: before.y + d.y, scale: before.scale });
        // The board point grabbed is under the pointer where it was released.
        closePoint(await c.boardAt({ x: from.x + d.x, y: from.y + d.y }), anchor);
      }
      expect(await c.objects()).toEqual(stored);
      expect(await c.selection()).toEqual([]);
      expect(await undoSteps(page)).toBe(undoBefore);
      expect(await page.evaluate(() => window.__wbCanvas!.tool)).toBe('hand');
    });
  });

  it('Space held turns a select drag into a pan (no band, no move); releasing Space selects again', async () => {
    await withBoard(async (c) => {
      const { page } = c;
      await c.add([sticky('s1', -60, -60)]);
      const stored = await c.objects();
      await c.setCamera({ x: 640, y: 430, scale: 1 });
      expect(await page.evaluate(() => window.__wbCanvas!.tool)).toBe('select');
      // Focus on the page body (no field, no button that Space would press).
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

      await page.keyboard.down('Space');
      // The engine knows Space is down: its cursor says so.
      await expect
        .poll(() =>
          page.evaluate(
            () => (document.querySelector('[data-testid="canvas-stage"]') as HTMLElement).style.cursor,
          ),
        )
        .toBe('grab');
      // A drag over empty board that would rubber-band the sticky (stage 580..700) if it were a select drag.
      const before = await c.camera();
      await c.drag({ x: 720, y: 510 }, { x: 560, y: 350 }, { steps: 8 });
      await expectCamera(c, { x: before.x - 160, y: before.y - 160, scale: 1 });
      const panned = await c.camera();
      expect(await c.selection()).toEqual([]);
      // A drag starting on the sticky pans too; the sticky stays where it is on the board.
      const onSticky = { x: panned.x, y: panned.y }; // board (0,0), the sticky's centre
      await c.expectStageAt(onSticky.x, onSticky.y);
      await c.drag(onSticky, { x: onSticky.x + 200, y: onSticky.y + 150 }, { steps: 6 });
      await expectCamera(c, { x: panned.x + 200, y: panned.y + 150, scale: 1 });
      expect(await c.objects()).toEqual(stored);
      expect(await c.selection()).toEqual([]);
      await page.keyboard.up('Space');
      await expect
        .poll(() =>
          page.evaluate(
            () => (document.querySelector('[data-testid="canvas-stage"]') as HTMLElement).style.cursor,
          ),
        )
        .not.toBe('grab');

      // Select behaviour is back: a band over the sticky selects it, the camera stays.
      const cam = await c.camera();
      const s = { x: cam.x, y: cam.y };
      await c.drag({ x: s.x - 100, y: s.y - 100 }, { x: s.x + 100, y: s.y + 100 });
      await expect.poll(() => c.selection()).toEqual(['s1']);
      expect(await c.camera()).toEqual(cam);
      // And a drag on the sticky moves it by the dragged distance (scale 1), the camera stays.
      await c.drag(s, { x: s.x + 50, y: s.y + 30 });
      await expect.poll(async () => (await c.objects()).map((o) => [o.x, o.y])).toEqual([[-10, -30]]);
      expect(await c.camera()).toEqual(cam);
    });
  });

  it('the middle button pans with any tool and draws nothing', async () => {
    await withBoard(async (c) => {
      const { page } = c;
      await page.click('[data-testid="tool-pen"]');
      await expect.poll(() => page.evaluate(() => window.__wbCanvas!.tool)).toBe('pen');
      const before = await c.camera();
      await c.drag({ x: 500, y: 400 }, { x: 620, y: 330 }, { button: 'middle' });
      await expectCamera(c, { x: before.x + 120, y: before.y - 70, scale: before.scale });
      const after = await c.camera();
      expect(await c.objects()).toEqual([]);
      // The pen still draws with the left button (the pan did not leave a gesture behind).
      await c.drag({ x: 500, y: 400 }, { x: 600, y: 450 });
      await expect.poll(async () => (await c.objects()).map((o) => o.type)).toEqual(['path']);
      expect(await c.camera()).toEqual(after);
    });
  });
});

/** Two fingers through CDP: Chromium turns them into touch pointer events on the stage. */
class Fingers {
  constructor(
    private readonly cdp: CDPSession,
    private readonly c: Cam,
  ) {}

  private points(ps: Point[]) {
    return ps.map((p, i) => {
      const [x, y] = this.c.at(p.x, p.y);
      return { x, y, id: i, radiusX: 1, radiusY: 1, force: 1 };
    });
  }

  start(ps: Point[]) {
    return this.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: this.points(ps) });
  }

  move(ps: Point[]) {
    return this.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: this.points(ps) });
  }

  end() {
    return this.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
}

describe('touch', () => {
  it('two fingers moving together pan by their movement and keep the zoom', async () => {
    await withBoard(
      async (c, context) => {
        const cdp = await context.newCDPSession(c.page);
        const f = new Fingers(cdp, c);
        await c.add([sticky('s1', -60, -60)]);
        const stored = await c.objects();
        await c.setCamera({ x: 640, y: 430, scale: 1.5 });
        await c.recordInput();
        const a = { x: 540, y: 430 };
        const b = { x: 740, y: 430 };
        await c.expectStageAt(a.x, a.y);
        await c.expectStageAt(b.x, b.y);
        const start = await c.camera();
        await f.start([a, b]);
        // Horizontal steps first: 10 px of one finger alone is a 5 % change of their distance, and
        // back is 4.8 %, two different pinch steps.
        for (const d of [
          { x: 10, y: 0 },
          { x: 20, y: 0 },
          { x: 30, y: 0 },
          { x: 60, y: -20 },
          { x: 90, y: -40 },
          { x: 120, y: -60 },
          { x: 150, y: -100 },
        ]) {
          await f.move([
            { x: a.x + d.x, y: a.y + d.y },
            { x: b.x + d.x, y: b.y + d.y },
          ]);
          // Moved by the fingers' movement so far, never zoomed.
          await expectCamera(c, { x: start.x + d.x, y: start.y + d.y, scale: 1.5 });
        }
        await f.end();
        // What the engine received: touch pointer events of two fingers, nothing else.
        const pointers = (await c.seen()).filter((e) => String(e.type).startsWith('pointer'));
        expect(new Set(pointers.map((e) => e.pointerType))).toEqual(new Set(['touch']));
        const downs = pointers.filter((e) => e.type === 'pointerdown');
        expect(downs).toHaveLength(2);
        expect(new Set(downs.map((e) => e.pointerId)).size).toBe(2);
        expect(pointers.filter((e) => e.type === 'pointermove').length).toBeGreaterThanOrEqual(7);
        // Not even between the pointermoves of the two fingers of one move was the view zoomed.
        expect(new Set(pointers.map((e) => e.scale))).toEqual(new Set([1.5]));
        expect(pointers.filter((e) => e.type === 'pointerup')).toHaveLength(2);
        // A two-finger gesture neither moves, selects nor creates anything.
        expect(await c.objects()).toEqual(stored);
        expect(await c.selection()).toEqual([]);
        await expectCamera(c, { x: start.x + 150, y: start.y - 100, scale: 1.5 });
      },
      { hasTouch: true },
    );
  });

  it('two fingers spreading or closing zoom by the pinch steps around their midpoint', async () => {
    await withBoard(
      async (c, context) => {
        const cdp = await context.newCDPSession(c.page);
        const f = new Fingers(cdp, c);
        await c.setCamera({ x: 500, y: 300, scale: 1 });
        const mid = { x: 640, y: 430 };
        const at = (half: number): Point[] => [
          { x: mid.x - half, y: mid.y },
          { x: mid.x + half, y: mid.y },
        ];
        const anchor = await c.boardAt(mid);
        await f.start(at(100));
        // Each move changes the distance by a known ratio; the rule (README "Pinch thresholds"):
        // < 2 % → 1.02, < 5 % → 1.05, more → 1.08, the inverse when the fingers close.
        let half = 100;
        let expected = 1;
        for (const [next, factor] of [
          [101, STEPS[0]], // 200 → 202: 1 %
          [104, STEPS[1]], // 202 → 208: 3 %
          [120, STEPS[2]], // 208 → 240: 15 %
          [100, 1 / STEPS[2]], // 240 → 200: -17 %
          [97, 1 / STEPS[1]], // 200 → 194: -3 %
          [96, 1 / STEPS[0]], // 194 → 192: -1 %
        ] as const) {
          const before = await c.camera();
          await f.move(at(next));
          half = next;
          expected *= factor;
          const after = await c.cameraAfter(before);
          close(after.scale, before.scale * factor);
          close(after.scale, expected);
          // The midpoint did not move: the board point under it stays under it.
          closePoint(await c.boardAt(mid), anchor);
        }
        expect(half).toBe(96);
        await f.end();
        expect(await c.objects()).toEqual([]);
      },
      { hasTouch: true },
    );
  });
});

describe('wheel and the editor', () => {
  // The engine does not freeze the camera while the editor is open (the spec is silent): a wheel
  // over the editor belongs to the editor, a wheel over the board zooms it and the editor follows.
  it('a wheel over the open sticky editor never reaches the camera; over the board it zooms, the editor follows and keeps focus', async () => {
    await withBoard(async (c) => {
      const { page } = c;
      await page.keyboard.press('5');
      await expect.poll(() => page.evaluate(() => window.__wbCanvas!.tool)).toBe('sticky');
      await c.expectStageAt(500, 350);
      await page.mouse.click(...c.at(500, 350));
      const editor = page.locator('[data-testid="text-editor"]');
      const input = page.locator('[data-testid="text-editor-input"]');
      const focused = () => input.evaluate((el) => el === document.activeElement);
      await expect.poll(focused).toBe(true);
      const before = await c.camera();
      // The editor sits at its sticky's top-left corner: that board point.
      const box0 = (await editor.boundingBox())!;
      const corner = await c.boardAt({ x: box0.x - c.origin.x, y: box0.y - c.origin.y });

      await c.recordInput();
      const inputBox = (await input.boundingBox())!;
      await page.mouse.move(inputBox.x + inputBox.width / 2, inputBox.y + inputBox.height / 2);
      await page.mouse.wheel(0, -100);
      await page.mouse.wheel(0, 100);
      // Then one notch over the board: once it has zoomed, the two above would have been seen.
      const P2 = { x: 900, y: 600 };
      await c.expectStageAt(P2.x, P2.y);
      const anchor = await c.boardAt(P2);
      await c.wheelAt(P2, -100);
      const after = await c.cameraAfter(before);
      expect((await c.seen()).filter((e) => e.type === 'wheel')).toEqual([
        { type: 'wheel', deltaY: -100, deltaMode: 0, ctrlKey: false },
      ]);
      close(after.scale, before.scale * WHEEL);
      closePoint(await c.boardAt(P2), anchor);

      // The editor moved with its sticky, and still has the focus.
      const cornerNow = await page.evaluate((p) => window.__wbCanvas!.toScreen(p), corner);
      await expect
        .poll(async () => {
          const b = (await editor.boundingBox())!;
          return Math.max(Math.abs(b.x - c.origin.x - cornerNow.x), Math.abs(b.y - c.origin.y - cornerNow.y));
        })
        .toBeLessThan(1);
      expect(await focused()).toBe(true);
      // Typing still edits the sticky, which is saved where it was put on the board.
      await page.keyboard.type('Камера');
      await page.keyboard.press('Control+Enter');
      await editor.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await c.objects()).map((o) => [o.type, o.text]))
        .toEqual([['sticky', 'Камера']]);
      const [saved] = await c.objects();
      expect(Math.abs((saved.x as number) - corner.x)).toBeLessThan(1);
      expect(Math.abs((saved.y as number) - corner.y)).toBeLessThan(1);
    });
  });
});
