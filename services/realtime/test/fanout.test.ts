/**
 * Fan-out shape: updates of one board that become durable in one group commit go out as ONE
 * merged message per connection, and no connection gets its own update back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { startPostgres } from '@wb/testkit';
import { encodeUpdate, MessageType } from '../src/domain/protocol.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { eventually, rawSocket, startPlatform, startRealtime, type Platform, type RunningRealtime } from './helpers.ts';

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let rt: RunningRealtime;

beforeAll(async () => {
  pg = await startPostgres();
  platform = await startPlatform(pg.url);
  pool = createPool({ url: pg.url, schema: REALTIME_SCHEMA });
  // A long commit window, so updates sent together are certain to share one commit.
  rt = await startRealtime({ platform, store: createPostgresStore(pool), limits: { groupCommitMs: 300 } });
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

/** The document updates (sync step 2 / update messages after the first sync) a socket received. */
function updatesIn(messages: Buffer[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const m of messages) {
    const d = decoding.createDecoder(new Uint8Array(m));
    if (decoding.readVarUint(d) !== MessageType.SYNC || decoding.readVarUint(d) !== 2) continue;
    out.push(decoding.readVarUint8Array(d));
  }
  return out;
}

function keysOf(updates: Uint8Array[]): string[] {
  const doc = new Y.Doc();
  for (const u of updates) Y.applyUpdate(doc, u);
  return [...doc.getMap('fan').keys()].sort();
}

function updateSetting(key: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getMap('fan').set(key, key);
  return Y.encodeStateAsUpdate(doc);
}

describe('fan-out', () => {
  it('one merged message per connection per commit; a sender of all of it gets nothing', async () => {
    const owner = await platform.user('Вещатель');
    const { id } = await platform.board(owner);
    const url = `${rt.wsUrl}/${id}?token=${owner.token}`;
    const [a, b, c] = [rawSocket(url), rawSocket(url), rawSocket(url)];
    await Promise.all([a.opened, b.opened, c.opened]);
    await eventually(() => expect(rt.service.server.connectionsOf(id)).toHaveLength(3));

    // Two senders in one commit: everyone gets the same single merged message (a sender's own
    // part applies as a no-op, as with Hocuspocus and y-websocket).
    a.ws.send(encodeUpdate(updateSetting('from-a')));
    b.ws.send(encodeUpdate(updateSetting('from-b')));
    await eventually(() => expect(updatesIn(c.messages)).toHaveLength(1));
    await eventually(() => expect(updatesIn(a.messages)).toHaveLength(1));
    await eventually(() => expect(updatesIn(b.messages)).toHaveLength(1));

    // One sender alone: its update is the next message everyone else gets, so nothing of the first
    // commit trickled in after it (a socket's messages arrive in order).
    c.ws.send(encodeUpdate(updateSetting('from-c')));
    await eventually(() => expect(updatesIn(a.messages)).toHaveLength(2));
    await eventually(() => expect(updatesIn(b.messages)).toHaveLength(2));
    for (const s of [a, b]) {
      expect(keysOf(updatesIn(s.messages).slice(0, 1))).toEqual(['from-a', 'from-b']);
      expect(keysOf(updatesIn(s.messages).slice(1))).toEqual(['from-c']);
    }
    // Its own update never comes back: the next thing c gets is a later update of a's.
    a.ws.send(encodeUpdate(updateSetting('from-a-later')));
    await eventually(() => expect(updatesIn(c.messages)).toHaveLength(2));
    expect(keysOf(updatesIn(c.messages).slice(0, 1))).toEqual(['from-a', 'from-b']);
    expect(keysOf(updatesIn(c.messages).slice(1))).toEqual(['from-a-later']);
    for (const s of [a, b, c]) s.ws.close();
  });
});
