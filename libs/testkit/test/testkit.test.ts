import { readdirSync } from 'node:fs';
import os from 'node:os';
import { connect, StringCodec } from 'nats';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createDatabase,
  findBinary,
  startMongo,
  startNats,
  startPostgres,
  waitForPort,
} from '../src/index.ts';

describe('startPostgres', () => {
  it('serves a real PostgreSQL, and createDatabase gives each caller its own empty database', async () => {
    const server = await startPostgres();
    try {
      const a = await createDatabase(server.url);
      const b = await createDatabase(server.url);
      expect(a).not.toBe(b);
      const ca = new pg.Client({ connectionString: a });
      const cb = new pg.Client({ connectionString: b });
      await ca.connect();
      await cb.connect();
      try {
        expect((await ca.query('SHOW server_version_num')).rows[0].server_version_num).toMatch(/^\d{6}$/);
        await ca.query('CREATE TABLE t (v text); INSERT INTO t VALUES ($$only in a$$)');
        expect((await ca.query('SELECT v FROM t')).rows).toEqual([{ v: 'only in a' }]);
        await expect(cb.query('SELECT v FROM t')).rejects.toThrow(/does not exist/);
        expect((await cb.query(`SELECT current_setting('server_encoding') AS e`)).rows[0].e).toBe('UTF8');
      } finally {
        await ca.end();
        await cb.end();
      }
    } finally {
      await server.stop();
    }
  });

  it('gives each test file its own database on the run\'s one server, and stop() drops it', async () => {
    const shared = process.env.WB_TEST_PG_URL;
    expect(shared, 'the global set-up shares one PostgreSQL with every worker').toBeTruthy();
    const a = await startPostgres();
    const b = await startPostgres();
    expect(new URL(a.url).port).toBe(new URL(shared!).port);
    expect(a.url).not.toBe(b.url);
    const admin = new pg.Client({ connectionString: shared });
    await admin.connect();
    try {
      const exists = async (url: string) =>
        (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(url).pathname.slice(1)])).rowCount;
      // A client left open must not keep its database alive.
      const left = new pg.Client({ connectionString: a.url });
      await left.connect();
      left.on('error', () => {});
      expect(await exists(a.url)).toBe(1);
      await a.stop();
      expect(await exists(a.url)).toBe(0);
      expect(await exists(b.url)).toBe(1);
      await b.stop();
      await left.end().catch(() => {});
    } finally {
      await admin.end();
    }
  });

  it('starts a server of its own when asked (tests that stop or kill PostgreSQL), and stop() removes its directory', async () => {
    const dirs = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith('wb-pg-'));
    const before = dirs();
    const own = await startPostgres({ dedicated: true });
    try {
      expect(new URL(own.url).port).not.toBe(new URL(process.env.WB_TEST_PG_URL!).port);
      expect(dirs().length).toBe(before.length + 1);
    } finally {
      await own.stop();
    }
    expect(dirs()).toEqual(before);
  });
});

describe('startNats', () => {
  it('serves NATS with JetStream; stop() ends the process', async () => {
    const server = await startNats();
    const nc = await connect({ servers: server.url });
    try {
      const sc = StringCodec();
      const sub = nc.subscribe('wb.test', { max: 1 });
      const got = (async () => {
        for await (const m of sub) return sc.decode(m.data);
      })();
      nc.publish('wb.test', sc.encode('привет'));
      expect(await got).toBe('привет');

      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: 'TESTKIT', subjects: ['tk.>'] });
      const ack = await nc.jetstream().publish('tk.one', sc.encode('stored'), { msgID: 'id-1' });
      expect(ack.stream).toBe('TESTKIT');
      const dup = await nc.jetstream().publish('tk.one', sc.encode('stored'), { msgID: 'id-1' });
      expect(dup.duplicate).toBe(true);
      expect((await jsm.streams.info('TESTKIT')).state.messages).toBe(1);
    } finally {
      await nc.close();
      await server.stop();
    }
    expect(server.child.exitCode !== null || server.child.signalCode !== null).toBe(true);
    await expect(waitForPort(server.port, 200)).rejects.toThrow(/nothing listens/);
  });

  it('keeps JetStream data in its store dir across a kill and a restart', async () => {
    const first = await startNats();
    const storeDir = first.child.spawnargs[first.child.spawnargs.indexOf('-sd') + 1];
    let nc = await connect({ servers: first.url });
    await (await nc.jetstreamManager()).streams.add({ name: 'DURABLE', subjects: ['d.>'] });
    await nc.jetstream().publish('d.x', new TextEncoder().encode('kept'));
    await nc.close();
    await first.kill();
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await startNats({ storeDir });
    nc = await connect({ servers: second.url });
    try {
      expect((await (await nc.jetstreamManager()).streams.info('DURABLE')).state.messages).toBe(1);
    } finally {
      await nc.close();
      await second.stop();
    }
  });
});

describe('startMongo', () => {
  it('serves the MongoDB wire protocol (FerretDB): insert, query, update, index', async () => {
    const server = await startMongo();
    const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 10_000 });
    try {
      await client.connect();
      const docs = client.db('testkit').collection<{ _id: string; n: number; tags?: string[] }>('docs');
      await docs.insertMany([
        { _id: 'a', n: 1 },
        { _id: 'b', n: 2 },
      ]);
      await docs.updateOne({ _id: 'b' }, { $set: { tags: ['x'] }, $inc: { n: 10 } });
      await docs.createIndex({ n: 1 });
      expect(await docs.find({ n: { $gt: 1 } }).toArray()).toEqual([{ _id: 'b', n: 12, tags: ['x'] }]);
      expect(await docs.countDocuments()).toBe(2);
      await expect(docs.insertOne({ _id: 'a', n: 3 })).rejects.toThrow(/duplicate key/i);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('findBinary', () => {
  it('finds the installed binaries and names the fix for a missing one', () => {
    expect(findBinary('nats-server')).toMatch(/nats-server$/);
    expect(findBinary('wb-ferretdb')).toMatch(/wb-ferretdb$/);
    expect(() => findBinary('no-such-binary-wb')).toThrow(/run: node scripts\/ensure-infra\.mjs/);
  });
});
