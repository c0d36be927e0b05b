/**
 * One drawing, two places (issue 13): the same board drawn by the canvas in Chromium and exported
 * by the server as PNG, object type by object type and background by background, compared pixel by
 * pixel. The canvas is set to scale 1 with the area on screen, so one board unit is one pixel in both.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { addArrow, addObject, type ArrowInput, type CanvasObjectInput } from '@wb/board-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@wb/testkit';
import { newAccount, openPage, registerViaApi, useProduct, type PageSession } from './harness.ts';
import { accessToken, apiCall, createBoard } from './boardPageHelpers.ts';

const product = useProduct({ attachUrl: process.env.WB_ATTACH_URL });

/**
 * Chromium's canvas and resvg antialias edges and glyphs differently (and the canvas draws the grid's
 * 1-px lines across two pixel rows where the export keeps them crisp), so a pixel counts as different
 * only beyond pixelmatch's colour threshold 0.3, and at most 3 % of the area's pixels may differ.
 * Measured: 0 for shapes, strokes, the image, arrows and backgrounds; 1.5 % for the text and the
 * sticky (glyph antialiasing). A missing, moved or recoloured object, or text on other lines, differs
 * on far more (the last check of the first test compares two different cells).
 */
const THRESHOLD = 0.3;
const MAX_DIFF_RATIO = 0.03;
const W = 400;
const H = 300;

/** Each case sits in its own 400×300 cell of the board, CELL apart. */
const CELL = 1000;
const cell = (i: number) => ({ x: i * CELL, y: 0, width: W, height: H });

function at(o: CanvasObjectInput, dx: number): CanvasObjectInput {
  const moved = { ...o, id: `${o.id}-${dx}` } as CanvasObjectInput & { x?: number; points?: number[] };
  if (typeof moved.x === 'number') moved.x += dx;
  if (Array.isArray(moved.points)) moved.points = moved.points.map((v, i) => (i % 2 === 0 ? v + dx : v));
  return moved;
}

function casesFor(imageSrc: string): Array<{ name: string; objects: CanvasObjectInput[]; arrows?: ArrowInput[] }> {
  const base = { zIndex: 1 };
  return [
    { name: 'rectangle', objects: [{ ...base, id: 'rect', type: 'rectangle', x: 60, y: 60, width: 200, height: 120, fill: '#FF6B6B', stroke: '#333333', strokeWidth: 4, rotation: 15 }] },
    { name: 'ellipse', objects: [{ ...base, id: 'ell', type: 'ellipse', x: 200, y: 150, radiusX: 140, radiusY: 80, fill: '#A0C4FF', stroke: '#1E88E5', strokeWidth: 3 }] },
    { name: 'line', objects: [{ ...base, id: 'line', type: 'line', points: [40, 260, 360, 40], stroke: '#43A047', strokeWidth: 6 }] },
    { name: 'path', objects: [{ ...base, id: 'path', type: 'path', points: [40, 200, 120, 80, 200, 220, 280, 60, 360, 200], stroke: '#8E24AA', strokeWidth: 4, tension: 0.5 }] },
    { name: 'highlighter', objects: [{ ...base, id: 'hl', type: 'highlighter', points: [40, 150, 360, 150], stroke: '#FFEB3B', strokeWidth: 32, tension: 0 }] },
    { name: 'text', objects: [{ ...base, id: 'text', type: 'text', x: 40, y: 100, text: 'Новый текст\nПривет, мир!', fontSize: 28, fill: '#333333' }] },
    {
      name: 'sticky',
      objects: [
        {
          ...base, id: 'sticky', type: 'sticky', x: 100, y: 40, width: 200, height: 180,
          text: 'Новый стикер: длинный текст переносится по словам', backgroundColor: '#FFF2B3', textColor: '#333333',
          fontSize: 18, textAlign: 'center', reactions: [],
        },
      ],
    },
    { name: 'image', objects: [{ ...base, id: 'img', type: 'image', x: 100, y: 60, width: 200, height: 150, src: imageSrc, reactions: [] }] },
    {
      name: 'arrows',
      objects: [
        { id: 'a', type: 'rectangle', x: 20, y: 40, width: 80, height: 60, fill: '#E0E0E0', stroke: '#333333', strokeWidth: 1, rotation: 0, zIndex: 0 },
        { id: 'b', type: 'rectangle', x: 300, y: 40, width: 80, height: 60, fill: '#E0E0E0', stroke: '#333333', strokeWidth: 1, rotation: 0, zIndex: 0 },
        { id: 'c', type: 'ellipse', x: 200, y: 240, radiusX: 50, radiusY: 30, fill: '#E0E0E0', stroke: '#333333', strokeWidth: 1, zIndex: 0 },
      ],
      arrows: [
        { id: 'solid', fromId: 'a', toId: 'b', style: 'solid', color: '#E53935', strokeWidth: 3 },
        { id: 'dashed', fromId: 'a', toId: 'c', style: 'dashed', color: '#1E88E5', strokeWidth: 2 },
        { id: 'dotted', fromId: 'c', toId: 'b', style: 'dotted', color: '#333333', strokeWidth: 2 },
      ],
    },
  ];
}

/** A 40×30 picture with colour bands, uploaded to the board's image store. */
function picture(): Buffer {
  const png = new PNG({ width: 40, height: 30 });
  for (let y = 0; y < 30; y++)
    for (let x = 0; x < 40; x++) {
      const band = Math.floor(x / 10);
      png.data.set([band * 80, 200 - band * 50, 120 + y * 4, 255], (y * 40 + x) * 4);
    }
  return PNG.sync.write(png);
}

let token: string;
let boardId: string;
let session: PageSession;
let cases: ReturnType<typeof casesFor>;

async function setBackground(background: string) {
  await apiCall(product.url, token, 'PATCH', `/api/boards/${boardId}`, { background });
}

beforeAll(async () => {
  const account = newAccount('parity');
  await registerViaApi(product.url, account);
  token = await accessToken(product.url, account);
  boardId = await createBoard(product.url, token, 'Сверка экспорта');
  const up = await fetch(`${product.url}/yjs/images/${boardId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: new Uint8Array(picture()),
  });
  expect(up.status).toBe(201);
  const imageSrc = ((await up.json()) as { url: string }).url;
  cases = casesFor(imageSrc);

  // The board's content written through realtime, as another client would.
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(`${product.url.replace(/^http/, 'ws')}/yjs`, boardId, doc, {
    params: { token },
    WebSocketPolyfill: WebSocket as never,
    disableBc: true,
  });
  await new Promise<void>((resolve) => provider.once('sync', () => resolve()));
  cases.forEach((c, i) => {
    const dx = cell(i).x;
    const ids = new Map(c.objects.map((o) => [o.id, `${o.id}-${dx}`]));
    doc.transact(() => c.objects.forEach((o) => addObject(doc, at(o, dx))));
    doc.transact(() =>
      (c.arrows ?? []).forEach((a) => addArrow(doc, { ...a, id: `${a.id}-${dx}`, fromId: ids.get(a.fromId)!, toId: ids.get(a.toId)! })),
    );
  });
  // On the server before the writer goes: a second client reads every object and arrow back.
  const reader = new WebsocketProvider(`${product.url.replace(/^http/, 'ws')}/yjs`, boardId, new Y.Doc(), {
    params: { token },
    WebSocketPolyfill: WebSocket as never,
    disableBc: true,
  });
  const size = (d: Y.Doc) => d.getMap('objects').size + d.getMap('arrows').size;
  await eventually(() => size(reader.doc) === size(doc), { timeoutMs: 30_000, what: 'every object and arrow on the server' });
  reader.destroy();
  provider.destroy();

  session = await openPage(product);
  const { page } = session;
  await page.goto('/pricing');
  await page.evaluate((t) => localStorage.setItem('accessToken', t), token);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

/** Opens the board (its background applies on load) and waits for the canvas to hold every object. */
async function openBoard(count: number): Promise<void> {
  const { page } = session;
  await page.goto(`/board/${boardId}`);
  await page.waitForSelector('[data-testid="board-setting-up"]', { state: 'detached', timeout: 45_000 });
  await page.waitForFunction((n) => window.__wbCanvas?.store.objectCount === n, count, { timeout: 45_000 });
}

/** The canvas's pixels of `area` at scale 1: the camera puts the area at a clear spot of the stage. */
async function canvasShot(area: { x: number; y: number }): Promise<Buffer> {
  const { page } = session;
  const stage = (await page.locator('[data-testid="canvas-stage"]').boundingBox())!;
  const spot = { x: Math.round(stage.width / 2 - W / 2), y: Math.round(stage.height / 2 - H / 2) };
  const before = await page.evaluate(() => window.__wbCanvas!.stats.staticDraws);
  await page.evaluate(({ a, s }) => window.__wbCanvas!.setCamera({ x: s.x - a.x, y: s.y - a.y, scale: 1 }), { a: area, s: spot });
  // The sharp redraw after the camera rests, then images decoded and drawn.
  await page.waitForFunction((n) => window.__wbCanvas!.stats.staticDraws > n, before);
  // Until two shots in a row agree: the images have been decoded and drawn, nothing is still changing.
  const clip = { x: stage.x + spot.x, y: stage.y + spot.y, width: W, height: H };
  let last: Buffer | undefined;
  await expect
    .poll(
      async () => {
        const shot = await page.screenshot({ clip });
        const steady = last?.equals(shot) ?? false;
        last = shot;
        return steady;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe(true);
  return last!;
}

async function serverPng(area: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
  const res = await fetch(`${product.url}/api/export/png`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ boardId, area }),
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** WB_PARITY_DUMP=<dir> keeps both images of every comparison, to look at. */
function dump(name: string, canvas: Buffer, server: Buffer): void {
  const dir = process.env.WB_PARITY_DUMP;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.canvas.png`), canvas);
  writeFileSync(path.join(dir, `${name}.server.png`), server);
}

function differingRatio(a: Buffer, b: Buffer, name?: string): number {
  if (name) dump(name, a, b);
  const x = PNG.sync.read(a);
  const y = PNG.sync.read(b);
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  return pixelmatch(x.data, y.data, undefined, x.width, x.height, { threshold: THRESHOLD }) / (x.width * x.height);
}

describe('canvas and server export draw the same board', () => {
  it('each object type and the arrows, on a white board', async () => {
    await openBoard(cases.reduce((n, c) => n + c.objects.length, 0));
    const ratios: Record<string, number> = {};
    for (const [i, c] of cases.entries()) {
      const area = cell(i);
      ratios[c.name] = differingRatio(await canvasShot(area), await serverPng(area), c.name);
    }
    if (process.env.WB_PARITY_DUMP) console.log(ratios);
    for (const [name, ratio] of Object.entries(ratios)) expect(ratio, `${name}: ${JSON.stringify(ratios)}`).toBeLessThanOrEqual(MAX_DIFF_RATIO);
    // Not blind: another cell's drawing differs well beyond the tolerance.
    expect(differingRatio(await canvasShot(cell(0)), await serverPng(cell(1)))).toBeGreaterThan(MAX_DIFF_RATIO);
  });

  for (const background of ['grid', 'dots', 'lines']) {
    it(`the ${background} background`, async () => {
      await setBackground(background);
      await openBoard(cases.reduce((n, c) => n + c.objects.length, 0));
      // An empty stretch of the board: background only, off the origin so the pattern's phase counts.
      const area = { x: -1230, y: 517, width: W, height: H };
      const ratio = differingRatio(await canvasShot(area), await serverPng(area), background);
      expect(ratio, `${background}: ${ratio}`).toBeLessThanOrEqual(MAX_DIFF_RATIO);
    });
  }
});
