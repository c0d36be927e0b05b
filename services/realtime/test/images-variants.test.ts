// Issue 32 item 1: a large upload keeps a display-size variant (at most 4,096 px a side) beside the
// original; the board and the export get the variant by default, the original on `?original=1`.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { imageSize } from '@wb/board-model';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createTokenVerifier, internalHeaders, listen, type RunningServer } from '@wb/service-kit';
import { createDatabase, pngHeader, startPostgres } from '@wb/testkit';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient } from '../src/access.ts';
import { createPostgresImageStore, imageHash, type ImageStore } from '../src/images/index.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { silent, startPlatform, type Platform } from './helpers.ts';

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let service: RealtimeService;
let server: RunningServer;
let images: ImageStore;
let base: string;
let owner: { id: string; token: string };
let board: { id: string };

beforeAll(async () => {
  pg = await startPostgres();
  platform = await startPlatform(pg.url);
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA });
  images = createPostgresImageStore(pool, REALTIME_SCHEMA);
  service = await createRealtimeService({
    logger: silent,
    store: createPostgresStore(pool),
    verifier: createTokenVerifier({ jwksUrl: platform.jwksUrl, headers: internalHeaders(platform.internalToken) }),
    boards: createBoardAccessClient(platform.boardsBase, undefined, { internalToken: platform.internalToken }),
    images,
  });
  await service.start();
  server = await listen(http.createServer(service.app), 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
  owner = await platform.user('Владелец');
  board = await platform.board(owner);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await service?.stop();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

async function upload(bytes: Buffer) {
  const res = await fetch(`${base}/yjs/images/${board.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The export service's read of a board image (internal route; this test service runs without a token). */
async function read(hash: string, query = '') {
  const res = await fetch(`${base}/internal/boards/${board.id}/images/${hash}${query}`);
  expect(res.status).toBe(200);
  return { mime: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

describe('display-size variants', () => {
  it('keeps a 7,000 × 7,000 PNG whole and serves a 4,096 × 4,096 variant by default', async () => {
    const bomb = await solid(7000, 7000).png().toBuffer();
    const up = await upload(bomb);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ hash: imageHash(bomb), mime: 'image/png', size: bomb.length });
    const shown = await read(imageHash(bomb));
    expect(shown.mime).toBe('image/png');
    expect(imageSize(shown.bytes)).toEqual({ width: 4096, height: 4096 });
    const pixels = await sharp(shown.bytes).raw().toBuffer();
    expect([...pixels.subarray(0, 3)]).toEqual([200, 40, 90]);
    const original = await read(imageHash(bomb), '?original=1');
    expect(Buffer.compare(original.bytes, bomb)).toBe(0);
  }, 60_000);

  it('keeps the proportions and the type of a large JPEG', async () => {
    const photo = await solid(6000, 3000).jpeg().toBuffer();
    expect((await upload(photo)).status).toBe(201);
    const shown = await read(imageHash(photo));
    expect(shown.mime).toBe('image/jpeg');
    expect(imageSize(shown.bytes)).toEqual({ width: 4096, height: 2048 });
  }, 60_000);

  it('serves a picture of at most 4,096 px a side as it was uploaded', async () => {
    const small = await solid(4096, 300).png().toBuffer();
    expect((await upload(small)).status).toBe(201);
    expect(Buffer.compare((await read(imageHash(small))).bytes, small)).toBe(0);
  });

  it('refuses a large header with no picture behind it, storing nothing', async () => {
    const fake = Buffer.concat([pngHeader(5000, 5000), Buffer.alloc(2000, 7)]);
    const r = await upload(fake);
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ code: 'IMAGE_TYPE_NOT_ALLOWED', error: 'Поддерживаются только изображения PNG, JPEG, GIF и WebP' });
    expect(await images.hasBytes(imageHash(fake))).toBe(false);
  });
});
