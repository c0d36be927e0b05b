import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@wb/db';
import { createDatabase, startMongo, startPostgres, type ManagedProcess } from '@wb/testkit';
import type { EmbeddedPostgresHandle } from '@wb/db';
import {
  createMongoImageStore,
  createPostgresImageStore,
  displayKey,
  imageHash,
  type ImageStore,
  type StoredImage,
} from '../src/images/index.ts';
import { REALTIME_SCHEMA } from '../src/store/postgres.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function png(size = 200): StoredImage {
  const bytes = Buffer.concat([PNG_SIGNATURE, randomBytes(size)]);
  return { hash: imageHash(bytes), mime: 'image/png', bytes };
}

function contract(name: string, make: () => Promise<ImageStore>) {
  describe(`ImageStore contract: ${name}`, () => {
    let store: ImageStore;
    beforeAll(async () => {
      store = await make();
      await store.init();
      await store.init(); // idempotent
    });
    afterAll(async () => {
      await store.close();
    });

    it('stores and reads back the exact bytes and type', async () => {
      const img = png(5000);
      await store.put('board-a', img);
      const back = await store.get('board-a', img.hash);
      expect(back?.mime).toBe('image/png');
      expect(Buffer.compare(back!.bytes, img.bytes)).toBe(0);
    });

    it('serves an image only to the boards it was uploaded to', async () => {
      const img = png();
      await store.put('board-b', img);
      expect(await store.get('board-c', img.hash)).toBeNull();
      expect(await store.get('board-b', png().hash)).toBeNull();
    });

    it('keeps one copy per hash: a second upload, or another board, is a no-op for the bytes', async () => {
      const img = png();
      await store.put('board-d', img);
      await store.put('board-d', img);
      await store.put('board-e', img);
      expect((await store.get('board-d', img.hash))?.hash).toBe(img.hash);
      expect((await store.get('board-e', img.hash))?.hash).toBe(img.hash);
    });

    it('forgets a deleted board without taking the image from other boards', async () => {
      const img = png();
      await store.put('board-f', img);
      await store.put('board-g', img);
      await store.deleteBoard('board-f');
      expect(await store.get('board-f', img.hash)).toBeNull();
      expect(await store.get('board-g', img.hash)).not.toBeNull();
      expect(await store.hasBytes(img.hash)).toBe(true);
    });

    it('drops the bytes with the last board that linked them; deleting again is a no-op', async () => {
      const only = png();
      const shared = png();
      await store.put('board-h', only);
      await store.put('board-h', shared);
      await store.put('board-i', shared);
      await store.deleteBoard('board-h');
      await store.deleteBoard('board-h');
      expect(await store.hasBytes(only.hash)).toBe(false);
      expect(await store.hasBytes(shared.hash)).toBe(true);
      await store.deleteBoard('board-i');
      expect(await store.hasBytes(shared.hash)).toBe(false);
      expect(await store.get('board-i', shared.hash)).toBeNull();
      // Uploaded again later, the image is stored again.
      await store.put('board-j', only);
      expect((await store.get('board-j', only.hash))?.bytes.length).toBe(only.bytes.length);
    });

    it('keeps a display variant beside the original: served by default, the original on request, both gone with the last board', async () => {
      const img = png(3000);
      const display = png(100);
      await store.put('board-v', img, { mime: 'image/jpeg', bytes: display.bytes });
      const shown = await store.get('board-v', img.hash);
      expect(shown?.hash).toBe(img.hash);
      expect(shown?.mime).toBe('image/jpeg');
      expect(Buffer.compare(shown!.bytes, display.bytes)).toBe(0);
      const original = await store.get('board-v', img.hash, { original: true });
      expect(Buffer.compare(original!.bytes, img.bytes)).toBe(0);
      // Not through another board, and not by the variant's own key.
      expect(await store.get('board-w', img.hash)).toBeNull();
      expect(await store.hasBytes(displayKey(img.hash))).toBe(true);
      await store.deleteBoard('board-v');
      expect(await store.hasBytes(img.hash)).toBe(false);
      expect(await store.hasBytes(displayKey(img.hash))).toBe(false);
    });

    it('holds a 10 MB image', async () => {
      const img = png(10 * 1024 * 1024 - PNG_SIGNATURE.length);
      await store.put('board-big', img);
      expect((await store.get('board-big', img.hash))?.bytes.length).toBe(10 * 1024 * 1024);
    });
  });
}

let mongo: ManagedProcess;
let pg: EmbeddedPostgresHandle;
let pool: Pool;
beforeAll(async () => {
  [mongo, pg] = await Promise.all([startMongo(), startPostgres()]);
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA });
});
afterAll(async () => {
  await pool?.end();
  await Promise.all([mongo?.stop(), pg?.stop()]);
});

contract('MongoDB (FerretDB)', async () =>
  createMongoImageStore({ url: mongo.url, dbName: 'images_contract' }),
);
contract('Postgres', async () => createPostgresImageStore(pool, REALTIME_SCHEMA));
