import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { EmbeddedPostgresHandle } from '@wb/db';
import { eventually, startPostgres } from '@wb/testkit';
import { ARROWS, ARROW_ENDS, OBJECTS } from './fixtures.ts';
import { startStack, type Stack, type TestBoard } from './helpers.ts';

let pg: EmbeddedPostgresHandle;
let stack: Stack;
const ownerId = randomUUID();
const editorId = randomUUID();
let ownerToken: string;
let editorToken: string;
let board: TestBoard;
let imageUrl: string;
const area = { x: 0, y: 0, width: 400, height: 300 };

/** A real 2×2 PNG (red), so the rasteriser has something to decode. */
function tinyPng(): Buffer {
  const png = new PNG({ width: 2, height: 2 });
  for (let i = 0; i < 4; i++) png.data.set([255, 0, 0, 255], i * 4);
  return PNG.sync.write(png);
}

beforeAll(async () => {
  pg = await startPostgres();
  stack = await startStack(pg.url, { maxObjects: 50, workers: 1, maxWaiting: 0 });
  ownerToken = await stack.token(ownerId);
  editorToken = await stack.token(editorId);
  board = stack.board(ownerId, { title: 'План / спринт: 1', background: 'grid' });
  board.roles.set(editorId, 'editor');
  const bytes = tinyPng();
  const hash = createHash('sha256').update(bytes).digest('hex');
  board.images.set(hash, { mime: 'image/png', bytes });
  imageUrl = `/yjs/images/${board.id}/${hash}`;
  stack.draw(
    board,
    [
      OBJECTS.sticky!,
      { ...OBJECTS.image!, id: 'own-img', src: imageUrl, x: 10, y: 10, width: 60, height: 40 } as never,
      {
        ...OBJECTS.image!,
        id: 'foreign-img',
        src: 'http://169.254.169.254/latest/meta-data',
        x: 300,
        y: 220,
        width: 60,
        height: 40,
      } as never,
      ...ARROW_ENDS,
    ],
    ARROWS,
  );
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await pg?.stop();
});

const json = async (res: Response) => (await res.json()) as { error: string; code: string };

describe('export for the owner', () => {
  it('PNG: the area at scale 1, named by date-time and the sanitised title', async () => {
    const res = await stack.exportCall('png', ownerToken, { boardId: board.id, area });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const disposition = res.headers.get('content-disposition')!;
    const name = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!);
    expect(name).toMatch(/^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_План_спринт_1\.png$/);
    // Where the time went, for the bench: the service's steps and the render thread's.
    expect(res.headers.get('server-timing')).toMatch(/state;dur=[\d.]+, .*render;dur=[\d.]+, thread-scene;dur=\d+, thread-draw;dur=\d+/);
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect([png.width, png.height]).toEqual([400, 300]);
    // The store image (red) is drawn at (10..70, 10..50).
    const at = (x: number, y: number) => [
      ...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3),
    ];
    expect(at(40, 30)).toEqual([255, 0, 0]);
  });

  it('SVG: every object and arrow, the own image embedded, a foreign src never fetched', async () => {
    const res = await stack.exportCall('svg', ownerToken, { boardId: board.id, area });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    for (const id of ['sticky', 'own-img', 'foreign-img', 'a', 'b', 'c', 'solid', 'dashed', 'dotted'])
      expect(svg).toContain(`data-id="${id}"`);
    expect(svg).toContain('href="data:image/png;base64,');
    expect(svg).not.toContain('169.254.169.254');
    expect(stack.calls.filter((c) => c.startsWith('image'))).toEqual(
      expect.arrayContaining([`image ${board.id} ${imageUrl.split('/').pop()}`]),
    );
    expect(stack.calls.some((c) => c.includes('169.254'))).toBe(false);
    expect(svg).toContain('url(#bg'); // the board's grid background
  });

  it('PDF: a vector page of the area while no entitlement is known', async () => {
    const res = await stack.exportCall('pdf', ownerToken, { boardId: board.id, area });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/\/MediaBox \[0 0 400 300\]/);
  });

  it('a selection dragged up-left is the same area', async () => {
    const res = await stack.exportCall('png', ownerToken, {
      boardId: board.id,
      area: { x: 400, y: 300, width: -400, height: -300 },
    });
    expect(res.status).toBe(200);
    expect(PNG.sync.read(Buffer.from(await res.arrayBuffer())).width).toBe(400);
  });
});

describe('PDF and the plan', () => {
  const entitlements = async (userId: string, exportPdf: boolean, limitsEnabled: boolean) => {
    await stack.transport.publish({
      id: crypto.randomUUID(),
      type: 'entitlements.changed',
      occurredAt: new Date().toISOString(),
      source: 'billing',
      data: {
        userId,
        planName: 'Free',
        maxBoards: 3,
        maxCanvasWidth: 8000,
        maxCanvasHeight: 8000,
        exportPdf,
        limitsEnabled,
      },
    });
  };
  const pdfStatus = async () =>
    (await stack.exportCall('pdf', ownerToken, { boardId: board.id, area })).status;
  // The entitlement arrives by event: poll until export answers by it.
  const waitFor = (status: number) => eventually(async () => (await pdfStatus()) === status, { what: `PDF answering ${status}` });

  it('is refused with a code and a Russian message on a plan without it; PNG and SVG still work', async () => {
    await entitlements(ownerId, false, true);
    await waitFor(403);
    const res = await stack.exportCall('pdf', ownerToken, { boardId: board.id, area });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({
      code: 'EXPORT_PDF_NOT_ALLOWED',
      error: 'Экспорт в PDF недоступен на вашем тарифе',
    });
    expect((await stack.exportCall('png', ownerToken, { boardId: board.id, area })).status).toBe(200);
    expect((await stack.exportCall('svg', ownerToken, { boardId: board.id, area })).status).toBe(200);
  });

  it('the menu learns the formats of the plan', async () => {
    const formats = async () =>
      (await (
        await fetch(`${stack.base}/api/export/formats`, {
          headers: { authorization: `Bearer ${ownerToken}` },
        })
      ).json()) as {
        formats: string[];
      };
    expect((await formats()).formats).toEqual(['png', 'svg']);
    expect((await fetch(`${stack.base}/api/export/formats`)).status).toBe(401);
  });

  it('is allowed again when billing is off (limits disabled) or the plan has it', async () => {
    await entitlements(ownerId, false, false);
    await waitFor(200);
    expect(await pdfStatus()).toBe(200);
    await entitlements(ownerId, false, true);
    await waitFor(403);
    await entitlements(ownerId, true, true);
    await waitFor(200);
    expect(await pdfStatus()).toBe(200);
  });
});

describe('refusals', () => {
  // The roles here come from the test's stand-in for boards; the same refusals with the roles boards
  // really gives (editor, viewer and guest links, a stranger) are proven on the running product in
  // deploy/test/export.test.ts.
  it('a signed-in user who is not the owner, even an editor of the board', async () => {
    for (const format of ['png', 'svg', 'pdf']) {
      const res = await stack.exportCall(format, editorToken, { boardId: board.id, area });
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe('OWNER_REQUIRED');
    }
  });

  it('a signed-in user with no access to the board: ACCESS_DENIED, as the board itself answers', async () => {
    const strangerToken = await stack.token('00000000-0000-4000-8000-00000000abcd');
    const res = await stack.exportCall('png', strangerToken, { boardId: board.id, area });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ code: 'ACCESS_DENIED', error: 'У вас нет доступа к этой доске' });
  });

  it('a link holder without an account (no Bearer token, or a share token in its place)', async () => {
    const noToken = await stack.exportCall('png', undefined, { boardId: board.id, area });
    expect(noToken.status).toBe(401);
    const shareAsBearer = await stack.exportCall('png', 'Yx3kP9sQ2mN7vB4c', { boardId: board.id, area });
    expect(shareAsBearer.status).toBe(401);
  });

  it('an area at or under 10×10', async () => {
    for (const small of [
      { x: 0, y: 0, width: 10, height: 300 },
      { x: 0, y: 0, width: 300, height: 10 },
      { x: 0, y: 0, width: 0, height: 0 },
    ]) {
      const res = await stack.exportCall('png', ownerToken, { boardId: board.id, area: small });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({
        code: 'EXPORT_AREA_TOO_SMALL',
        error: 'Область экспорта должна быть больше 10×10',
      });
    }
  });

  it('an area over the maximum side or pixel count', async () => {
    for (const big of [
      { x: 0, y: 0, width: 10_001, height: 100 },
      { x: 0, y: 0, width: 9_000, height: 9_000 },
    ]) {
      const res = await stack.exportCall('png', ownerToken, { boardId: board.id, area: big });
      expect(res.status).toBe(413);
      expect((await json(res)).code).toBe('EXPORT_AREA_TOO_LARGE');
    }
  });

  it('non-finite or malformed numbers and bodies', async () => {
    for (const body of [
      `{"boardId":"${board.id}","area":{"x":1e999,"y":0,"width":100,"height":100}}`,
      { boardId: board.id, area: { x: 1e308, y: 0, width: 100, height: 100 } },
      { boardId: board.id, area: { x: 0, y: -10_000_001, width: 100, height: 100 } },
      { boardId: board.id, area: { x: '0', y: 0, width: 100, height: 100 } },
      { boardId: board.id, area: { x: 0, y: 0, width: null, height: 100 } },
      { boardId: board.id },
      '{"boardId":',
    ]) {
      const res = await stack.exportCall('png', ownerToken, body);
      expect(res.status).toBe(400);
      expect(['VALIDATION_ERROR', 'INVALID_JSON']).toContain((await json(res)).code);
    }
  });

  it('an unknown board', async () => {
    const res = await stack.exportCall('png', ownerToken, {
      boardId: '00000000-0000-4000-8000-000000000000',
      area,
    });
    expect(res.status).toBe(404);
  });

  it('more objects in the area than the configured maximum', async () => {
    const crowded = stack.board(ownerId, { title: 'Много' });
    stack.draw(
      crowded,
      Array.from({ length: 60 }, (_, i) => ({ ...OBJECTS.ellipse!, id: `e${i}`, x: 10 + i * 5 }) as never),
    );
    const res = await stack.exportCall('png', ownerToken, { boardId: crowded.id, area });
    expect(res.status).toBe(413);
    expect((await json(res)).code).toBe('EXPORT_TOO_MANY_OBJECTS');
  });

  it('a full render pool: 503 with Retry-After, the others succeed', async () => {
    const big = { x: -2000, y: -2000, width: 4000, height: 4000 };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => stack.exportCall('png', ownerToken, { boardId: board.id, area: big })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    const busy = answers.find((r) => r.status === 503)!;
    expect(busy.headers.get('retry-after')).toBe('5');
    expect((await json(busy)).code).toBe('EXPORT_BUSY');
  });
});
