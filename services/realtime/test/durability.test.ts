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
import { eventually, provider, startPlatform, sticky, synced, type Platform } from './helpers.ts';

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

/** Objects in some client's copy that another client wrote: what the server passed on. */
function receivedIds(clients: { p: { doc: Y.Doc }; name: string }[]): Set<string> {
  const received = new Set<string>();
  for (const c of clients) {
    for (const objectId of getObjects(c.p.doc).keys()) if (!objectId.startsWith(`${c.name}-`)) received.add(objectId);
  }
  return received;
}

/** Per kill: passed on since the last (re)start, and at least this many from every client. */
const PER_KILL_FROM_EACH = 5;

async function crashLoop(mode: string, env: Record<string, string>, store: DocumentStore): Promise<{ perKill: number[] }> {
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
      // wait-ok: the typing pace is the workload (edits spread over time), not a wait for a result
      await new Promise((r) => setTimeout(r, 3 + Math.random() * 6));
    }
  });

  const perKill: number[] = [];
  const t0 = Date.now();
  const log = (m: string) => process.env.DEBUG_DURABILITY && console.log(`${Date.now() - t0} ms ${mode}: ${m}`);
  for (let k = 0; k < KILLS; k++) {
    // Each kill proves its own edits: only what was passed on since the last (re)start counts, and
    // every client must have got some through (a reconnect that failed fails here, by time-out).
    const before = receivedIds(clients);
    const fresh = () => [...receivedIds(clients)].filter((x) => !before.has(x));
    const from = (c: { name: string }) => fresh().filter((x) => x.startsWith(`${c.name}-`)).length;
    // A random moment: after a random number of fresh edits, not a random time.
    const enough = PER_KILL_FROM_EACH * EDITORS + Math.floor(Math.random() * 40);
    await eventually(
      () => fresh().length >= enough && clients.every((c) => from(c) >= PER_KILL_FROM_EACH),
      { timeoutMs: 60_000, what: `${mode}, kill ${k + 1}: ${enough} fresh edits passed on, ${PER_KILL_FROM_EACH} from each client` },
    );
    proc.child.kill('SIGKILL');
    await proc.exited;
    const received = receivedIds(clients);
    const stored = await storedIds(store, id, env.UPDATE_LOG_JOURNAL_DIR);
    const missing = [...received].filter((x) => !stored.has(x));
    expect(missing, `${mode}: kill ${k + 1} lost updates other clients had seen`).toEqual([]);
    perKill.push([...received].filter((x) => !before.has(x)).length);
    log(`kill ${k + 1}: ${perKill.at(-1)} fresh received, ${stored.size} stored`);
    // Every client notices the kill before the restart, so its sync below is a new one.
    await eventually(() => clients.every((c) => !c.p.wsconnected), { timeoutMs: 20_000, what: 'every client to see the kill' });
    proc = spawnRealtime(port, env);
    await waitForPort(port, 90_000);
    log('restarted');
    await Promise.all(clients.map((c) => synced(c.p, 60_000)));
    log('resynced');
  }
  typing = false;
  await Promise.all(typists);
  proc.child.kill('SIGTERM');
  await proc.exited;
  if (env.UPDATE_LOG_JOURNAL_DIR) {
    // A clean stop ships the whole journal: the store alone holds everything, nothing is left behind.
    expect(journalSegments(env.UPDATE_LOG_JOURNAL_DIR)).toEqual([]);
    const received = receivedIds(clients);
    const stored = await storedIds(store, id);
    expect([...received].filter((x) => !stored.has(x)), `${mode}: seen by others, missing from the store after a clean stop`).toEqual([]);
  }
  return { perKill };
}

describe('kill -9 never loses an update another client saw', () => {
  it('embedded mode: PostgreSQL', async () => {
    const dbUrl = await createDatabase(pg.url);
    const pool: Pool = createPool({ url: dbUrl, schema: REALTIME_SCHEMA, max: 2 });
    cleanup.push(() => pool.end());
    const { perKill } = await crashLoop('pg', { DATABASE_URL: dbUrl }, createPostgresStore(pool));
    expect(perKill).toHaveLength(KILLS);
  }, 300_000);

  it('embedded mode: PostgreSQL behind the local journal (UPDATE_LOG_JOURNAL_DIR)', async () => {
    const dbUrl = await createDatabase(pg.url);
    const pool: Pool = createPool({ url: dbUrl, schema: REALTIME_SCHEMA, max: 2 });
    cleanup.push(() => pool.end());
    const journal = mkdtempSync(path.join(os.tmpdir(), 'rt-journal-'));
    const { perKill } = await crashLoop('journal', { DATABASE_URL: dbUrl, UPDATE_LOG_JOURNAL_DIR: journal }, createPostgresStore(pool));
    expect(perKill).toHaveLength(KILLS);
  }, 300_000);

  it('cluster mode: MongoDB (FerretDB)', async () => {
    const store = await createMongoStore({ url: mongo.url, dbName: 'rt_durability' });
    cleanup.push(() => store.close());
    const { perKill } = await crashLoop('mongo', { MONGO_URL: mongo.url, MONGO_DB: 'rt_durability' }, store);
    expect(perKill).toHaveLength(KILLS);
  }, 300_000);
});
