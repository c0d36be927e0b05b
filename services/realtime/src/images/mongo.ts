import { Binary, MongoClient, type Collection } from 'mongodb';
import type { ImageType } from './sniff.ts';
import { displayKey, type ImageStore, type StoredImage } from './store.ts';
import { MONGO_CLIENT_OPTIONS } from '../store/mongo.ts';

interface ImageDoc {
  _id: string;
  mime: ImageType;
  size: number;
  data: Binary;
  createdAt: Date;
}
interface BoardImageDoc {
  _id: string;
  boardId: string;
  hash: string;
  createdAt: Date;
}

/**
 * The cluster's image store. One document per image: the 10 MB upload limit keeps it well under
 * MongoDB's 16 MB document size, so GridFS's chunking would add round trips and nothing else.
 */
export async function createMongoImageStore(opts: { url: string; dbName: string }): Promise<ImageStore> {
  const client = new MongoClient(opts.url, MONGO_CLIENT_OPTIONS);
  await client.connect();
  const db = client.db(opts.dbName);
  const images: Collection<ImageDoc> = db.collection('images');
  const links: Collection<BoardImageDoc> = db.collection('board_images');
  return {
    async init() {
      await links.createIndex({ boardId: 1 });
      await links.createIndex({ hash: 1 });
    },
    async put(boardId, image, display) {
      const storeOne = (_id: string, img: Omit<StoredImage, 'hash'>) =>
        images.updateOne(
          { _id },
          {
            $setOnInsert: {
              mime: img.mime,
              size: img.bytes.length,
              data: new Binary(img.bytes),
              createdAt: new Date(),
            },
          },
          { upsert: true },
        );
      const storeBytes = async () => {
        await storeOne(image.hash, image);
        if (display) await storeOne(displayKey(image.hash), display);
      };
      // The bytes first: a link never points at an image that is not there.
      await storeBytes();
      await links.updateOne(
        { _id: `${boardId}:${image.hash}` },
        { $setOnInsert: { boardId, hash: image.hash, createdAt: new Date() } },
        { upsert: true },
      );
      // A board deleted meanwhile may have taken the bytes after the first write: store them again.
      if (!(await images.countDocuments({ _id: image.hash }, { limit: 1 }))) await storeBytes();
    },
    async get(boardId, hash, opts) {
      if (!(await links.findOne({ _id: `${boardId}:${hash}` }, { projection: { _id: 1 } }))) return null;
      const doc = (!opts?.original && (await images.findOne({ _id: displayKey(hash) }))) || (await images.findOne({ _id: hash }));
      return doc ? { hash, mime: doc.mime, bytes: Buffer.from(doc.data.buffer) } : null;
    },
    async deleteBoard(boardId) {
      const hashes = (await links.find({ boardId }, { projection: { hash: 1 } }).toArray()).map((l) => l.hash);
      await links.deleteMany({ boardId });
      for (const hash of hashes) {
        if (!(await links.countDocuments({ hash }, { limit: 1 }))) await images.deleteMany({ _id: { $in: [hash, displayKey(hash)] } });
      }
    },
    async hasBytes(hash) {
      return (await images.countDocuments({ _id: hash }, { limit: 1 })) > 0;
    },
    async close() {
      await client.close();
    },
  };
}
