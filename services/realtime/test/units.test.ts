/**
 * The pure parts behind scale and hardening: capacity rule, token buckets, the admission cache and
 * the group commit's batching, ordering, retry and backpressure (its writer is a plain function).
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { BoardAccessAnswer } from '@wb/contracts';
import { admits } from '../src/domain/capacity.ts';
import { KeyedLimiter, fullBucket, take } from '../src/domain/rate-limit.ts';
import { cacheBoardAccess } from '../src/admission-cache.ts';
import { GroupCommit } from '../src/core/group-commit.ts';
import { binaryFrame } from '../src/core/internals.ts';
import { createRequire } from 'node:module';
import { Room } from '../src/core/room.ts';
import { readUpdateMeta } from '../src/domain/update-meta.ts';
import { eventually, silent } from './helpers.ts';

const limits = { perBoard: 5, anonymousPerBoard: 3, ownerReserve: 2 };

// ws's own framing, the reference; its types do not declare the Sender.
const { Sender } = createRequire(import.meta.url)('ws') as { Sender: { frame(data: Buffer, options: object): Buffer[] } };

describe('pre-built WebSocket frames', () => {
  it('are byte for byte what ws frames for a server-sent binary message, at every length encoding', () => {
    for (const n of [0, 1, 125, 126, 127, 65_535, 65_536, 200_000]) {
      const message = Buffer.alloc(n, n % 251);
      const wsFrame = Buffer.concat(Sender.frame(message, { fin: true, opcode: 2, mask: false, readOnly: true, rsv1: false }));
      expect(binaryFrame(message).equals(wsFrame), `length ${n}`).toBe(true);
    }
  });
});

describe('the state vector of an update\'s clients', () => {
  it('trims an update exactly as the whole state vector does, and encodes like Yjs', () => {
    const room = new Room('r');
    const peers = [1, 2, 3].map((id) => {
      const d = new Y.Doc();
      d.clientID = id;
      return d;
    });
    // The board holds part of what each peer wrote; each peer then sends everything it has.
    for (const [i, d] of peers.entries()) {
      for (let k = 0; k < 5; k++) d.getMap('m').set(`p${i}k${k}`, k);
      Y.applyUpdate(room.doc, Y.encodeStateAsUpdate(d));
      for (let k = 5; k < 8; k++) d.getMap('m').set(`p${i}k${k}`, k);
      d.getMap('m').delete(`p${i}k0`);
    }
    const resent = Y.mergeUpdates(peers.map((d) => Y.encodeStateAsUpdate(d)));
    const { from } = Y.parseUpdateMeta(resent);
    const trimmed = Y.diffUpdate(resent, room.stateVectorOf(from.keys()));
    expect(Buffer.from(trimmed).equals(Buffer.from(Y.diffUpdate(resent, Y.encodeStateVector(room.doc))))).toBe(true);
    expect(trimmed.byteLength).toBeLessThan(resent.byteLength);
    expect(Buffer.from(room.stateVectorOf([3, 2, 1])).equals(Buffer.from(Y.encodeStateVector(room.doc)))).toBe(true);
    // A client the board never saw: everything of it stays.
    expect(Y.decodeStateVector(room.stateVectorOf([99])).get(99)).toBe(0);
  });
});

describe('what the server reads of an incoming update', () => {
  it('names each client\'s first clock, tells an empty update, and refuses a cut delete set', () => {
    const a = new Y.Doc();
    a.clientID = 7;
    a.getMap('m').set('x', 1);
    a.getMap('m').set('x', 2); // deletes the first value: a delete set
    const b = new Y.Doc();
    b.clientID = 9;
    b.getMap('m').set('y', 1);
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const update = Y.encodeStateAsUpdate(b);
    expect(readUpdateMeta(update)).toMatchObject({ from: new Map([[9, 0], [7, 0]]), empty: false });
    expect(readUpdateMeta(Y.encodeStateAsUpdate(new Y.Doc())).empty).toBe(true);
    // Only deletions: not empty.
    const deletes = Y.encodeStateAsUpdate(a, Y.encodeStateVector(a));
    expect(readUpdateMeta(deletes)).toMatchObject({ from: new Map(), empty: false });
    expect(() => readUpdateMeta(update.slice(0, update.length - 1))).toThrow();
  });

  it('tells an update the board holds nothing of from one it holds part of', () => {
    const room = new Room('r');
    const d = new Y.Doc();
    d.clientID = 5;
    d.getMap('m').set('k0', 0);
    Y.applyUpdate(room.doc, Y.encodeStateAsUpdate(d));
    const before = Y.encodeStateVector(d);
    d.getMap('m').set('k1', 1);
    const next = Y.encodeStateAsUpdate(d, before);
    expect(room.holdsNoneOf(readUpdateMeta(next).from)).toBe(true);
    // A reconnect's resend of everything: diffed, and only k1 stays.
    const all = Y.encodeStateAsUpdate(d);
    expect(room.holdsNoneOf(readUpdateMeta(all).from)).toBe(false);
    expect(Buffer.from(Y.diffUpdate(all, room.stateVectorOf([5]))).equals(Buffer.from(Y.diffUpdate(next, room.stateVectorOf([5]))))).toBe(true);
  });
});

describe('a room applying bytes it already holds', () => {
  it('keeps its update listener out of the way while it applies, and back afterwards, even after a throw', () => {
    const room = new Room('r');
    const heard: Uint8Array[] = [];
    room.onUpdate = (u) => heard.push(u);
    room.doc.on('update', room.onUpdate);
    const peer = new Y.Doc();
    const updates: Uint8Array[] = [];
    peer.on('update', (u: Uint8Array) => updates.push(u));
    for (let i = 0; i < 3; i++) peer.getMap('m').set(`k${i}`, i);
    room.withoutUpdateListener(() => Y.applyUpdate(room.doc, updates[0]!));
    expect(heard).toHaveLength(0);
    expect(() =>
      room.withoutUpdateListener(() => {
        Y.applyUpdate(room.doc, updates[1]!);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(heard).toHaveLength(0);
    // One registered while detached hears the next change too.
    const late: Uint8Array[] = [];
    room.withoutUpdateListener(() => room.doc.on('update', (u: Uint8Array) => late.push(u)));
    Y.applyUpdate(room.doc, updates[2]!);
    expect(heard).toHaveLength(1);
    expect(late).toHaveLength(1);
    expect(room.doc.getMap('m').toJSON()).toEqual({ k0: 0, k1: 1, k2: 2 });
  });
});

describe('capacity', () => {
  it('keeps room for signed-in users and a reserve for the owner', () => {
    expect(admits({ total: 2, anonymous: 2 }, limits, { owner: false, signedIn: false })).toBe(true);
    expect(admits({ total: 3, anonymous: 3 }, limits, { owner: false, signedIn: false })).toBe(false);
    expect(admits({ total: 3, anonymous: 3 }, limits, { owner: false, signedIn: true })).toBe(true);
    expect(admits({ total: 5, anonymous: 3 }, limits, { owner: false, signedIn: true })).toBe(false);
    expect(admits({ total: 6, anonymous: 3 }, limits, { owner: true, signedIn: true })).toBe(true);
    expect(admits({ total: 7, anonymous: 3 }, limits, { owner: true, signedIn: true })).toBe(false);
  });
});

describe('token buckets', () => {
  it('allows a burst, then the refill rate', () => {
    const spec = { perSecond: 2, burst: 3 };
    const b = fullBucket(spec, 0);
    expect([take(b, spec, 0), take(b, spec, 0), take(b, spec, 0), take(b, spec, 0)]).toEqual([true, true, true, false]);
    expect(take(b, spec, 499)).toBe(false);
    expect(take(b, spec, 500)).toBe(true);
  });

  it('limits per key, bounded in keys', () => {
    const l = new KeyedLimiter({ perSecond: 1, burst: 1 }, 2);
    expect([l.allow('a', 0), l.allow('a', 0), l.allow('b', 0)]).toEqual([true, false, true]);
    l.allow('c', 0); // evicts 'a'
    expect(l.allow('a', 0)).toBe(true);
  });
});

describe('admission cache', () => {
  const answer: BoardAccessAnswer = { role: 'editor', board: { id: 'b', owner_id: 'o', title: 't' } };

  it('one look-up per board and credential for a burst; a revocation forgets, and an overtaken answer is not kept', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const inner = {
      access: () => {
        calls++;
        return new Promise<BoardAccessAnswer>((resolve) => (release = () => resolve(answer)));
      },
    };
    let now = 0;
    const cache = cacheBoardAccess(inner, 1_000, () => now);
    const get = (tok: string) => {
      const p = cache.access('b', { shareToken: tok });
      release();
      return p;
    };
    const burst = Array.from({ length: 50 }, () => cache.access('b', { shareToken: 'tok' }));
    release();
    await Promise.all(burst);
    expect(calls).toBe(1);
    await get('other');
    expect(calls).toBe(2);

    cache.invalidate('b');
    const running = cache.access('b', { shareToken: 'tok' });
    cache.invalidate('b'); // revoked while the look-up runs
    release();
    await running;
    await get('tok');
    expect(calls).toBe(4);

    now = 2_000; // expired
    await get('tok');
    expect(calls).toBe(5);
  });
});

function update(key: string): Uint8Array {
  const d = new Y.Doc();
  d.getMap('m').set(key, key);
  return Y.encodeStateAsUpdate(d);
}

/**
 * One turn of the event loop. GroupCommit with windowMs 0 schedules its writes with setImmediate
 * and continues on promises, so after one turn everything it started has run: an exact step, not a
 * guess at how long the work takes (the write functions below finish only when a test says so).
 */
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('group commit', () => {
  it('writes what arrives during a write as one batch, one merged entry per board, and shows it only after', async () => {
    const writes: Array<Array<{ boardId: string; update: Uint8Array }>> = [];
    const durable: string[] = [];
    const finishes: Array<() => void> = [];
    const gc = new GroupCommit({
      write: async (entries) => {
        writes.push(entries);
        await new Promise<void>((r) => finishes.push(r));
      },
      windowMs: 0,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (room, updates) => durable.push(`${room.boardId}:${updates.length}`),
      onPressure: () => {},
    });
    const [a, b] = [new Room('a'), new Room('b')];
    gc.add(a, update('1'), 'x');
    await nextTurn();
    expect(writes).toHaveLength(1);
    for (const k of ['2', '3']) gc.add(a, update(k), 'x');
    gc.add(b, update('4'), 'y');
    await nextTurn();
    // One write at a time (the default): the three wait for the first.
    expect(writes).toHaveLength(1);
    expect(durable).toEqual([]);
    finishes.shift()!();
    await nextTurn();
    expect(durable).toEqual(['a:1']);
    expect(writes[1]!.map((e) => e.boardId)).toEqual(['a', 'b']);
    const merged = new Y.Doc();
    Y.applyUpdate(merged, writes[1]![0]!.update);
    expect([...merged.getMap('m').keys()].sort()).toEqual(['2', '3']);
    finishes.shift()!();
    await gc.drain();
    expect(durable).toEqual(['a:1', 'a:2', 'b:1']);
  });

  it('retries a failed write without showing anything, pauses past the byte limit and resumes', async () => {
    let fail = true;
    let attempts = 0;
    const pressure: boolean[] = [];
    const durable: number[] = [];
    const gc = new GroupCommit({
      write: async () => {
        attempts++;
        if (fail) throw new Error('store down');
      },
      windowMs: 0,
      maxPendingBytes: 64,
      logger: silent,
      onDurable: (_room, updates) => durable.push(updates.length),
      onPressure: (p) => pressure.push(p),
    });
    const room = new Room('r');
    for (let i = 0; i < 5; i++) gc.add(room, update(`k${i}`), 'c');
    expect(pressure).toEqual([true]);
    // Failed and tried again (after its backoff): still nothing shown.
    await eventually(() => attempts >= 2, { what: 'a retried write' });
    expect(durable).toEqual([]);
    expect(gc.backlogBytes).toBeGreaterThan(64);
    fail = false;
    await gc.settled(room);
    expect(durable.reduce((s, n) => s + n, 0)).toBe(5);
    expect(pressure).toEqual([true, false]);
    expect(gc.backlogBytes).toBe(0);
  });

  it('starts writing the next batch before fanning out the durable one, never two writes at once, in order', async () => {
    const log: string[] = [];
    const finishes: Array<() => void> = [];
    let writing = 0;
    const gc = new GroupCommit({
      write: (entries) => {
        writing++;
        expect(writing).toBe(1);
        log.push(`write ${entries.length}`);
        return new Promise<void>((r) =>
          finishes.push(() => {
            writing--;
            r();
          }),
        );
      },
      windowMs: 0,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (room, updates) => log.push(`show ${room.boardId} ${updates.length}`),
      onPressure: () => {},
    });
    const a = new Room('a');
    const b = new Room('b');
    gc.add(a, update('a1'), 'c');
    await nextTurn();
    gc.add(a, update('a2'), 'c');
    gc.add(b, update('b1'), 'c');
    finishes.shift()!();
    await nextTurn();
    // The second batch was on its way before the first was shown.
    expect(log).toEqual(['write 1', 'write 2', 'show a 1']);
    finishes.shift()!();
    await gc.settled(a);
    await gc.settled(b);
    expect(log).toEqual(['write 1', 'write 2', 'show a 1', 'show a 1', 'show b 1']);
    expect(gc.backlogBytes).toBe(0);
  });

  it('with two writes in flight, shows batches in the order they were accepted, whichever write finishes first', async () => {
    const log: string[] = [];
    const finishes: Array<() => void> = [];
    let writing = 0;
    let most = 0;
    const gc = new GroupCommit({
      write: (entries) => {
        most = Math.max(most, ++writing);
        log.push(`write ${entries.map((e) => e.boardId).join('+')}`);
        return new Promise<void>((r) =>
          finishes.push(() => {
            writing--;
            r();
          }),
        );
      },
      windowMs: 0,
      maxInFlight: 2,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (room, updates) => log.push(`show ${room.boardId} ${updates.length}`),
      onPressure: () => {},
    });
    const [a, b, c] = [new Room('a'), new Room('b'), new Room('c')];
    gc.add(a, update('a1'), 'x');
    await nextTurn();
    // Arrives during the first write: on its way at once, not after it.
    gc.add(b, update('b1'), 'x');
    await nextTurn();
    expect(log).toEqual(['write a', 'write b']);
    // Both slots taken: this one waits.
    gc.add(c, update('c1'), 'x');
    gc.add(a, update('a2'), 'x');
    await nextTurn();
    expect(log).toEqual(['write a', 'write b']);
    // The later write finishes first: nothing is shown before the earlier one is durable.
    finishes[1]!();
    await nextTurn();
    expect(log).toEqual(['write a', 'write b']);
    expect(await Promise.race([gc.settled(b).then(() => 'settled'), nextTurn().then(() => 'waiting')])).toBe('waiting');
    finishes[0]!();
    await nextTurn();
    expect(log).toEqual(['write a', 'write b', 'write c+a', 'show a 1', 'show b 1']);
    finishes[2]!();
    await gc.drain();
    expect(log.slice(5)).toEqual(['show c 1', 'show a 1']);
    expect(most).toBe(2);
    expect(gc.backlogBytes).toBe(0);
  });

  it('retries a failed write where it stands: a later batch that made it waits for it', async () => {
    const log: string[] = [];
    let failFirst = true;
    let release: () => void = () => {};
    const writtenAt: number[] = [];
    const gc = new GroupCommit({
      write: async (entries) => {
        const name = entries.map((e) => e.boardId).join('+');
        log.push(`write ${name}`);
        writtenAt.push(Date.now());
        if (name === 'a') {
          await new Promise<void>((r) => (release = r));
          if (failFirst) {
            failFirst = false;
            throw new Error('store hiccup');
          }
        }
      },
      windowMs: 0,
      maxInFlight: 2,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (room) => log.push(`show ${room.boardId}`),
      onPressure: () => {},
    });
    const [a, b] = [new Room('a'), new Room('b')];
    gc.add(a, update('a1'), 'x');
    await nextTurn();
    gc.add(b, update('b1'), 'x');
    await nextTurn();
    expect(log).toEqual(['write a', 'write b']);
    const failedAt = Date.now();
    release();
    // Backoff (≥ 100 ms), then the same batch again; b, durable long ago, is shown only after it.
    await eventually(() => log.length >= 3, { what: 'the retry' });
    expect(log).toEqual(['write a', 'write b', 'write a']);
    expect(writtenAt[2]! - failedAt).toBeGreaterThanOrEqual(100);
    release();
    await gc.drain();
    expect(log).toEqual(['write a', 'write b', 'write a', 'show a', 'show b']);
  });

  it('fans out every board of a batch before any copy is updated, and wakes waiters after both', async () => {
    const log: string[] = [];
    let finish: () => void = () => {};
    const gc = new GroupCommit({
      write: () => new Promise<void>((r) => (finish = r)),
      windowMs: 0,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (room) => log.push(`show ${room.boardId}`),
      afterFanOut: (room, updates) => log.push(`apply ${room.boardId} ${updates.length}`),
      onPressure: () => {},
    });
    const [a, b] = [new Room('a'), new Room('b')];
    gc.add(a, update('a1'), 'x');
    gc.add(b, update('b1'), 'y');
    gc.add(a, update('a2'), 'y');
    gc.afterDurable(a, () => log.push('durable a'));
    gc.afterDurable(b, () => log.push('durable b'));
    await nextTurn();
    expect(log).toEqual([]);
    finish();
    await gc.drain();
    expect(log).toEqual(['show a', 'show b', 'apply a 2', 'durable a', 'apply b 1', 'durable b']);
  });

  it('drops the queued updates of a revoked origin, keeps the others', async () => {
    let finish: () => void = () => {};
    const shown: unknown[] = [];
    const gc = new GroupCommit({
      write: () => new Promise<void>((r) => (finish = r)),
      windowMs: 0,
      maxPendingBytes: 1 << 20,
      logger: silent,
      onDurable: (_room, _u, origins) => shown.push(...origins),
      onPressure: () => {},
    });
    const room = new Room('r');
    gc.add(room, update('first'), 'revoked');
    await nextTurn();
    gc.add(room, update('later'), 'revoked');
    gc.add(room, update('other'), 'kept');
    expect(gc.dropFrom('revoked')).toHaveLength(1);
    finish();
    await nextTurn();
    finish();
    await gc.settled(room);
    // The one in flight when the link died was accepted before it; the queued one is gone.
    expect(shown).toEqual(['revoked', 'kept']);
  });
});
