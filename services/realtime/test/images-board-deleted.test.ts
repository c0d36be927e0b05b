// board.deleted reaches the image store: the deleted board's links go, and so do the bytes no other
// board uses; an image another board also holds stays for that board.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createTokenVerifier, listen, type RunningServer, internalHeaders } from '@wb/service-kit';
import { createDatabase, pngHeader, startPostgres } from '@wb/testkit';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient } from '../src/access.ts';
import { createPostgresImageStore, imageHash, type ImageStore } from '../src/images/index.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { eventually, silent, startPlatform, type Platform } from './helpers.ts';

// Signature and IHDR of a 16 × 16 PNG (the upload reads the size from it).
const PNG = pngHeader(16, 16);
const png = () => Buffer.concat([PNG, randomBytes(300)]);

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let service: RealtimeService;
let server: RunningServer;
let images: ImageStore;
let base: string;

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
    transport: platform.transport,
    images,
    limits: { compactIntervalMs: 60_000 },
  });
  await service.start();
  server = await listen(http.createServer(service.app), 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await service?.stop();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

async function upload(boardId: string, token: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${base}/yjs/images/${boardId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return imageHash(bytes);
}

it("board.deleted drops the board's image links and the bytes no other board uses", async () => {
  const owner = await platform.user('Владелец');
  const doomed = await platform.board(owner);
  const kept = await platform.board(owner);
  const own = await upload(doomed.id, owner.token, png());
  const sharedBytes = png();
  const shared = await upload(doomed.id, owner.token, sharedBytes);
  await upload(kept.id, owner.token, sharedBytes);
  expect(await images.get(doomed.id, own)).not.toBeNull();

  expect((await platform.api('DELETE', `/api/boards/${doomed.id}`, { token: owner.token })).status).toBe(200);
  await platform.flushOutbox();

  await eventually(async () => {
    expect(await images.get(doomed.id, own)).toBeNull();
    expect(await images.get(doomed.id, shared)).toBeNull();
  });
  expect(await images.hasBytes(own)).toBe(false);
  // The other board still serves its copy, from the same stored bytes.
  expect(await images.hasBytes(shared)).toBe(true);
  const back = await images.get(kept.id, shared);
  expect(Buffer.compare(back!.bytes, sharedBytes)).toBe(0);
  // Read as the board page does: a signed URL asked for with the token in a header.
  const urls = await fetch(`${base}/yjs/images/${kept.id}/urls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ hashes: [shared] }),
  });
  const res = await fetch(`${base}${((await urls.json()) as { urls: Record<string, string> }).urls[shared]}`);
  expect(res.status).toBe(200);
  expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), sharedBytes)).toBe(0);
});

it('an image uploaded again after its board was deleted is stored again', async () => {
  const owner = await platform.user('Повтор');
  const first = await platform.board(owner);
  const bytes = png();
  const hash = await upload(first.id, owner.token, bytes);
  expect((await platform.api('DELETE', `/api/boards/${first.id}`, { token: owner.token })).status).toBe(200);
  await platform.flushOutbox();
  await eventually(async () => expect(await images.hasBytes(hash)).toBe(false));
  const second = await platform.board(owner);
  await upload(second.id, owner.token, bytes);
  expect((await images.get(second.id, hash))?.bytes.length).toBe(bytes.length);
});
