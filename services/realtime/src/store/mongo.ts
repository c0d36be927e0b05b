import { randomUUID } from 'node:crypto';
import { Binary, MongoClient, MongoServerError, ObjectId, type Db } from 'mongodb';
import type { DocumentStore, NewState, SnapshotRow, StoredDocument } from './types.ts';

/**
 * BSON documents stop at 16 MiB and a board may reach MAX_DOC_BYTES (20 MiB by default), so a
 * state is stored in chunks written before the header that points at them.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;

interface DocumentHeader {
  _id: string;
  version: number;
  hash: string;
  chunks: number;
  objects_count: number;
  updated_at: Date;
}
interface ChunkDoc {
  _id: string;
  board_id: string;
  version: number;
  n: number;
  data: Binary;
}
interface UpdateDoc {
  _id: ObjectId;
  board_id: string;
  update: Binary;
  created_at: Date;
}
interface SnapshotDoc {
  _id: string;
  board_id: string;
  version: number;
  created_at: Date;
  blob_size: number;
  objects_count: number;
  status: SnapshotRow['status'];
}

const isDuplicateKey = (err: unknown) => err instanceof MongoServerError && err.code === 11000;
const chunkId = (boardId: string, version: number, n: number) => `${boardId}:${version}:${n}`;

/**
 * Limits of every MongoDB client of this service, as PostgreSQL's pools have theirs (@wb/db): a
 * server that cannot be found, or that stops answering (hung, not down), fails the operation
 * instead of holding it, and the request or commit waiting on it, for as long as the hang lasts.
 * A hung FerretDB: 503 after 15 s (10 s on the socket, then 5 s for the retried read's connection);
 * with the driver's defaults, 70 s. The group commit retries. (Driver 7 has no operation timeout.)
 */
export const MONGO_CLIENT_OPTIONS = { serverSelectionTimeoutMS: 10_000, connectTimeoutMS: 5_000, socketTimeoutMS: 10_000 } as const;

/**
 * Collections: `board_updates` (append log), `board_documents` (header: version, hash),
 * `board_document_chunks` (the state's bytes), `board_snapshots` (history), `processed_events`.
 * No multi-document transactions (FerretDB and standalone servers lack them), so every write is
 * ordered to be safe after a crash at any point: chunks, then header (compare-and-set on the
 * version), then snapshot row, then removal of the log entries and old chunks.
 * `fsync` (UPDATE_LOG_FSYNC): the group commit's append waits for the journal (j: true); otherwise
 * it follows the deployment's write concern (MONGO_URL), as every other write does.
 */
export async function createMongoStore(opts: { url: string; dbName: string; fsync?: boolean }): Promise<DocumentStore & { client: MongoClient }> {
  const client = new MongoClient(opts.url, MONGO_CLIENT_OPTIONS);
  await client.connect();
  const db: Db = client.db(opts.dbName);
  const headers = db.collection<DocumentHeader>('board_documents');
  const chunks = db.collection<ChunkDoc>('board_document_chunks');
  const updates = db.collection<UpdateDoc>('board_updates');
  const snapshots = db.collection<SnapshotDoc>('board_snapshots');
  const processed = db.collection<{ _id: string; at: Date }>('processed_events');

  const readState = async (boardId: string, h: DocumentHeader): Promise<Uint8Array> => {
    const parts = await chunks.find({ board_id: boardId, version: h.version }).sort({ n: 1 }).toArray();
    if (parts.length !== h.chunks) throw new Error(`board ${boardId} v${h.version}: ${parts.length}/${h.chunks} chunks`);
    const buffers = parts.map((p) => p.data.buffer);
    return new Uint8Array(Buffer.concat(buffers));
  };

  return {
    client,
    async init() {
      await updates.createIndex({ board_id: 1, _id: 1 });
      await chunks.createIndex({ board_id: 1, version: 1, n: 1 });
      await snapshots.createIndex({ board_id: 1, version: -1 });
    },

    async load(boardId): Promise<StoredDocument> {
      // Log first, header second: a compaction in between removes log entries only after its
      // header is written, so this order never misses an update (at worst it replays one twice).
      for (let attempt = 0; ; attempt++) {
        const log = await updates.find({ board_id: boardId }).sort({ _id: 1 }).toArray();
        const h = await headers.findOne({ _id: boardId });
        try {
          return {
            state: h ? await readState(boardId, h) : null,
            version: h?.version ?? 0,
            hash: h?.hash ?? null,
            log: log.map((u) => ({ id: u._id.toHexString(), update: new Uint8Array(u.update.buffer) })),
          };
        } catch (err) {
          // The header moved on and its old chunks were just removed: read again.
          if (attempt >= 3) throw err;
        }
      }
    },

    async storedVersion(boardId) {
      const h = await headers.findOne({ _id: boardId }, { projection: { version: 1 } });
      return h?.version ?? 0;
    },

    async append(boardId, update) {
      await updates.insertOne({ _id: new ObjectId(), board_id: boardId, update: new Binary(update), created_at: new Date() });
    },

    async appendMany(entries) {
      if (entries.length === 0) return;
      const now = new Date();
      // ObjectIds made in this order sort in this order, which is the log's order per board.
      await updates.insertMany(
        entries.map((e) => ({ _id: new ObjectId(), board_id: e.boardId, update: new Binary(e.update), created_at: now })),
        opts.fsync ? { ordered: true, writeConcern: { journal: true } } : { ordered: true },
      );
    },

    async saveState(boardId, s: NewState) {
      const version = s.expectedVersion + 1;
      const n = Math.max(1, Math.ceil(s.state.byteLength / CHUNK_BYTES));
      for (let i = 0; i < n; i++) {
        const data = new Binary(s.state.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
        await chunks.replaceOne({ _id: chunkId(boardId, version, i) }, { board_id: boardId, version, n: i, data }, { upsert: true });
      }
      const header = { version, hash: s.hash, chunks: n, objects_count: s.objectsCount, updated_at: new Date() };
      let won: boolean;
      if (s.expectedVersion === 0) {
        try {
          await headers.insertOne({ _id: boardId, ...header });
          won = true;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          won = false;
        }
      } else {
        const r = await headers.updateOne({ _id: boardId, version: s.expectedVersion }, { $set: header });
        won = r.matchedCount === 1;
      }
      if (!won) return null;
      await snapshots.insertOne({
        _id: randomUUID(),
        board_id: boardId,
        version,
        created_at: new Date(),
        blob_size: s.state.byteLength,
        objects_count: s.objectsCount,
        status: s.status,
      });
      if (s.logIds.length > 0) await updates.deleteMany({ _id: { $in: s.logIds.map((id) => new ObjectId(id)) } });
      await chunks.deleteMany({ board_id: boardId, version: { $lt: version } });
      return version;
    },

    async deleteLog(_boardId, ids) {
      if (ids.length > 0) await updates.deleteMany({ _id: { $in: ids.map((id) => new ObjectId(id)) } });
    },

    async listSnapshots(boardId) {
      const rows = await snapshots.find({ board_id: boardId }).sort({ version: -1, created_at: -1 }).toArray();
      return rows.map((r) => ({
        id: r._id,
        version: r.version,
        created_at: r.created_at.toISOString(),
        blob_size: r.blob_size,
        status: r.status,
      }));
    },

    async deleteEmptySnapshots(boardId) {
      const r = await snapshots.deleteMany({ board_id: boardId, status: 'empty' });
      return r.deletedCount;
    },

    async deleteBoard(boardId) {
      await headers.deleteOne({ _id: boardId });
      await updates.deleteMany({ board_id: boardId });
      await chunks.deleteMany({ board_id: boardId });
      await snapshots.deleteMany({ board_id: boardId });
    },

    async isProcessed(consumer, eventId) {
      return (await processed.countDocuments({ _id: `${consumer}:${eventId}` }, { limit: 1 })) > 0;
    },

    async markProcessed(consumer, eventId) {
      try {
        await processed.insertOne({ _id: `${consumer}:${eventId}`, at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },

    async ping() {
      try {
        await db.command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await client.close();
    },
  };
}
