/**
 * Durable before visible, end to end: the realtime service runs as a child process (as in the
 * embedded mode on PostgreSQL, and as in a cluster on MongoDB/FerretDB), several editors type,
 * the process is killed with SIGKILL at random moments and restarted. After every kill, whatever
 * any client had received from another client must be in the stored document (what a restart
 * loads) — before any client reconnects and pushes its own copy back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addObject, getObjects } from '@wb/board-model';
import { createPool, freePort, type Pool } from '@wb/db';
import { createDatabase, repoRoot, startMongo, startPostgres, waitForPort, type ManagedProcess } from '@wb/testkit';
import type { EmbeddedPostgresHandle } from '@wb/db';
import { createMongoStore } from '../src/store/mongo.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { decodeSegment } from '../src/store/journal.ts';
import { provider, sleep, startPlatform, sticky, synced, type Platform } from './helpers.ts';

/** Each restart of a tsx process costs seconds on a loaded machine; two kills per store are enough. */
const KILLS = 2;
const EDITORS = 4;

let pg: EmbeddedPostgresHandle;
let mongo: ManagedProcess;
let platform: Platform;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  [pg, mongo] = await Promise.all([startPostgres(), startMongo()]);
  platform = await startPlatform(pg.url);
}, 60_000);

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await platform?.stop();
  await Promise.all([pg?.stop(), mongo?.stop()]);
});

function spawnRealtime(port: number, env: Record<string, string>): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/realtime/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'error',
      BOARDS_INTERNAL_URL: platform.boardsBase,
      AUTH_JWKS_URL: platform.jwksUrl,
      INTERNAL_TOKEN: platform.internalToken,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

/** What a restart loads: the store, and (with the local journal) what the journal will replay into it. */
async function storedIds(store: DocumentStore, boardId: string, journalDir?: string): Promise<Set<string>> {
  const s = await store.load(boardId);
  const d = new Y.Doc();
  if (s.state) Y.applyUpdate(d, s.state);
  for (const e of s.log) Y.applyUpdate(d, e.update);
  for (const f of journalSegments(journalDir)) {
    for (const r of decodeSegment(readFileSync(f)).records) if (r.boardId === boardId) Y.applyUpdate(d, r.update);
  }
  return new Set(getObjects(d).keys());
}

function journalSegments(dir: string | undefined): string[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .map((f) => path.join(dir, f));
}

async function crashLoop(mode: string, env: Record<string, string>, store: DocumentStore): Promise<{ checked: number; kills: number }> {
  const port = await freePort();
  let proc = spawnRealtime(port, env);
  await waitForPort(port, 90_000);
  const owner = await platform.user('Владелец');
  const { id, links } = await platform.board(owner, ['editor']);
  const wsUrl = `ws://127.0.0.1:${port}/yjs`;
  const clients = Array.from({ length: EDITORS }, (_, i) => {
    const p = provider(wsUrl, id, i === 0 ? owner.token : links.editor!);
    cleanup.push(() => p.destroy());
    return { p, name: `${mode}-c${i}`, written: 0 };
  });
  await Promise.all(clients.map((c) => synced(c.p)));

  let typing = true;
  const typists = clients.map(async (c) => {
    while (typing) {
      // Only while connected: what a client writes offline is its own business until it reconnects.
      if (c.p.wsconnected) addObject(c.p.doc, sticky(`${c.name}-${c.written++}`));
      await sleep(3 + Math.random() * 6);
    }
  });

  let checked = 0;
  const t0 = Date.now();
  const log = (m: string) => process.env.DEBUG_DURABILITY && console.log(`${Date.now() - t0} ms ${mode}: ${m}`);
  const writtenSoFar = () => clients.reduce((n, c) => n + c.written, 0);
  for (let k = 0; k < KILLS; k++) {
    // A random moment, but only once enough has been typed since the (re)start: on a loaded machine
    // the typists get few turns, and a kill after a handful of updates would prove little.
    const before = writtenSoFar();
    await sleep(250 + Math.random() * 500);
    for (const deadline = Date.now() + 30_000; writtenSoFar() - before < 40 && Date.now() < deadline; ) await sleep(20);
    proc.child.kill('SIGKILL');
    await proc.exited;
    // What reached any client from someone else: in its copy, not written by it.
    const received = new Set<string>();
    for (const c of clients) {
      for (const objectId of getObjects(c.p.doc).keys()) if (!objectId.startsWith(`${c.name}-`)) received.add(objectId);
    }
    const stored = await storedIds(store, id, env.UPDATE_LOG_JOURNAL_DIR);
    const missing = [...received].filter((x) => !stored.has(x));
    expect(missing, `${mode}: kill ${k + 1} lost updates other clients had seen`).toEqual([]);
    checked += received.size;
    log(`kill ${k + 1}: ${received.size} received, ${stored.size} stored`);
    proc = spawnRealtime(port, env);
    await waitForPort(port, 90_000);
    log('restarted');
    await Promise.all(clients.map((c) => synced(c.p, 20_000).catch(() => {})));
    log('resynced');
  }
  typing = false;
  await Promise.all(typists);
  proc.child.kill('SIGTERM');
  await proc.exited;
  if (env.UPDATE_LOG_JOURNAL_DIR) {
    // A clean stop ships the whole journal: the store alone holds everything, nothing is left behind.
    expect(journalSegments(env.UPDATE_LOG_JOURNAL_DIR)).toEqual([]);
    const received = new Set<string>();
    for (const c of clients) {
      for (const objectId of getObjects(c.p.doc).keys()) if (!objectId.startsWith(`${c.name}-`)) received.add(objectId);
    }
    const stored = await storedIds(store, id);
    expect([...received].filter((x) => !stored.has(x)), `${mode}: seen by others, missing from the store after a clean stop`).toEqual([]);
  }
  return { checked, kills: KILLS };
}

describe('kill -9 never loses an update another client saw', () => {
  it('embedded mode: PostgreSQL', async () => {
    const dbUrl = await createDatabase(pg.url);
    const pool: Pool = createPool({ url: dbUrl, schema: REALTIME_SCHEMA, max: 2 });
    cleanup.push(() => pool.end());
    const { checked } = await crashLoop('pg', { DATABASE_URL: dbUrl }, createPostgresStore(pool));
    expect(checked).toBeGreaterThan(50);
  }, 300_000);

  it('embedded mode: PostgreSQL behind the local journal (UPDATE_LOG_JOURNAL_DIR)', async () => {
    const dbUrl = await createDatabase(pg.url);
    const pool: Pool = createPool({ url: dbUrl, schema: REALTIME_SCHEMA, max: 2 });
    cleanup.push(() => pool.end());
    const journal = mkdtempSync(path.join(os.tmpdir(), 'rt-journal-'));
    const { checked } = await crashLoop('journal', { DATABASE_URL: dbUrl, UPDATE_LOG_JOURNAL_DIR: journal }, createPostgresStore(pool));
    expect(checked).toBeGreaterThan(50);
  }, 300_000);

  it('cluster mode: MongoDB (FerretDB)', async () => {
    const store = await createMongoStore({ url: mongo.url, dbName: 'rt_durability' });
    cleanup.push(() => store.close());
    const { checked } = await crashLoop('mongo', { MONGO_URL: mongo.url, MONGO_DB: 'rt_durability' }, store);
    expect(checked).toBeGreaterThan(50);
  }, 300_000);
});
