import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createTokenVerifier, listen, type RunningServer, internalHeaders } from '@wb/service-kit';
import { createDatabase, pngHeader, startPostgres } from '@wb/testkit';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient } from '../src/access.ts';
import { createPostgresImageStore, imageHash, type ImageStore } from '../src/images/index.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { silent, startPlatform, type Platform } from './helpers.ts';

const MAX = 64 * 1024;
// Headers as the formats write them (the size is read from them); the bytes after them are noise.
const PNG = pngHeader(16, 16);
// SOI, APP0 (JFIF), SOF0 with height 16 and width 24.
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.alloc(9),
  Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x18, 0x03]),
  Buffer.alloc(9),
]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([16, 0, 16, 0])]);
// RIFF, size, WEBP, VP8X chunk: flags and reserved (4), width-1 and height-1 (24 bits each).
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8X'), Buffer.from([10, 0, 0, 0, 0, 0, 0, 0, 15, 0, 0, 15, 0, 0])]);
const image = (sig: Buffer, size = 300) => Buffer.concat([sig, randomBytes(size)]);

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let service: RealtimeService;
let server: RunningServer;
let images: ImageStore;
let base: string;
let owner: { id: string; token: string };
let stranger: { id: string; token: string };
let board: { id: string; links: Record<string, string> };

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
    imageMaxBytes: MAX,
  });
  await service.start();
  server = await listen(http.createServer(service.app), 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
  owner = await platform.user('Владелец');
  stranger = await platform.user('Чужой');
  board = await platform.board(owner, ['viewer', 'guest', 'editor']);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await service?.stop();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

async function upload(bytes: Buffer, headers: Record<string, string>, boardId = board.id) {
  const res = await fetch(`${base}/yjs/images/${boardId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const bearer = (u: { token: string }) => ({ authorization: `Bearer ${u.token}` });

describe('image upload', () => {
  it('accepts PNG, JPEG, GIF and WebP by their content, whatever the declared type', async () => {
    for (const [sig, mime] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [GIF, 'image/gif'],
      [WEBP, 'image/webp'],
    ] as const) {
      const bytes = image(sig);
      const r = await upload(bytes, { ...bearer(owner), 'content-type': 'text/plain' });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        hash: imageHash(bytes),
        url: `/yjs/images/${board.id}/${imageHash(bytes)}`,
        mime,
        size: bytes.length,
      });
    }
  });

  it('lets an editor link upload; viewers, guests and strangers cannot', async () => {
    expect((await upload(image(PNG), { 'x-share-token': board.links.editor! })).status).toBe(201);
    for (const headers of [
      { 'x-share-token': board.links.viewer! },
      { 'x-share-token': board.links.guest! },
      bearer(stranger),
    ]) {
      const r = await upload(image(PNG), headers);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('ACCESS_DENIED');
    }
    expect((await upload(image(PNG), {})).status).toBe(401);
  });

  it('refuses SVG, other files and empty bodies with a Russian message, storing nothing', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const bytes of [svg, Buffer.from('%PDF-1.7 ...'), Buffer.alloc(0)]) {
      const r = await upload(bytes, { ...bearer(owner), 'content-type': 'image/svg+xml' });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({
        error: 'Поддерживаются только изображения PNG, JPEG, GIF и WebP',
        code: 'IMAGE_TYPE_NOT_ALLOWED',
      });
      expect(await images.get(board.id, imageHash(bytes))).toBeNull();
    }
  });

  it('refuses a picture whose header declares more pixels than a board draws, and a header cut short', async () => {
    const before = await pool.query(`SELECT count(*)::int AS n FROM "${REALTIME_SCHEMA}".images`);
    // A few hundred bytes that would decode to 100,000 × 100,000 pixels in every browser on the board.
    for (const bomb of [image(pngHeader(100_000, 100_000)), image(pngHeader(16_385, 10)), image(pngHeader(8_000, 8_000))]) {
      const r = await upload(bomb, bearer(owner));
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({
        error: 'Изображение слишком большое: не больше 16384 пикселей по стороне и 50 мегапикселей',
        code: 'IMAGE_TOO_LARGE',
      });
      expect(await images.get(board.id, imageHash(bomb))).toBeNull();
    }
    const cut = await upload(PNG.subarray(0, 20), bearer(owner));
    expect(cut.status).toBe(415);
    expect(cut.body.code).toBe('IMAGE_TYPE_NOT_ALLOWED');
    const after = await pool.query(`SELECT count(*)::int AS n FROM "${REALTIME_SCHEMA}".images`);
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('refuses an image over the configured maximum, storing nothing', async () => {
    const big = image(PNG, MAX);
    const r = await upload(big, bearer(owner));
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ error: 'Изображение слишком большое', code: 'IMAGE_TOO_LARGE' });
    expect(await images.get(board.id, imageHash(big))).toBeNull();
  });

  it('answers 404 for an unknown board', async () => {
    const r = await upload(image(PNG), bearer(owner), '00000000-0000-4000-8000-000000000000');
    expect(r.status).toBe(404);
  });
});

describe('image serving', () => {
  let bytes: Buffer;
  let url: string;
  beforeAll(async () => {
    bytes = image(PNG, 1000);
    url = (await upload(bytes, bearer(owner))).body.url as string;
  });
  /** A signed read URL (issue 32 item 9), asked for with the credential in a header. */
  async function signed(headers: Record<string, string>, hash: string, boardId = board.id) {
    const res = await fetch(`${base}/yjs/images/${boardId}/urls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ hashes: [hash] }),
    });
    return { status: res.status, url: res.ok ? ((await res.json()) as { urls: Record<string, string> }).urls[hash]! : '' };
  }
  const hashOf = (u: string) => u.split('/').pop()!;

  it('serves the bytes to the owner and every link holder, immutable for a year', async () => {
    const credentials = [bearer(owner), ...[board.links.viewer!, board.links.guest!, board.links.editor!].map((t) => ({ 'x-share-token': t }))];
    for (const headers of credentials) {
      const s = await signed(headers, hashOf(url));
      expect(s.status).toBe(200);
      const res = await fetch(`${base}${s.url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    }
  });

  it('refuses strangers and requests without a token', async () => {
    expect((await signed(bearer(stranger), hashOf(url))).status).toBe(403);
    expect((await signed({}, hashOf(url))).status).toBe(401);
    expect((await fetch(`${base}${url}`)).status).toBe(403);
  });

  it('does not serve an image of another board through this one', async () => {
    const other = await platform.board(stranger);
    const theirs = image(PNG);
    const up = await upload(theirs, bearer(stranger), other.id);
    const res = await fetch(`${base}${(await signed(bearer(owner), up.body.hash as string)).url}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('IMAGE_NOT_FOUND');
  });

  it('answers a bad hash with 400', async () => {
    expect((await fetch(`${base}/yjs/images/${board.id}/not-a-hash`)).status).toBe(400);
    expect((await signed(bearer(owner), 'not-a-hash')).status).toBe(400);
  });
});
