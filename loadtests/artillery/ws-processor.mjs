// Artillery processor of ws.yml: board editors speaking y-websocket (yjs + y-protocols over `ws`,
// the protocol of the SPA's WebsocketProvider) through the gateway's /yjs/<board>?token=.
//
// The run's `before` section creates the boards (one owner account per board, over HTTP); each
// virtual user then joins one of them, writes a document update and an awareness change per step,
// and records, for every update and awareness change another user sent, the time from the sender's
// clock reading to its arrival: histograms `ws.update_delivery` and `ws.awareness_delivery` (ms).
// Sender and receiver read the same clock only when they run on one machine (or NTP-synced ones).
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';

const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const now = () => performance.timeOrigin + performance.now();
const JOIN_TIMEOUT_MS = 20_000;

async function call(target, method, path, body, token) {
  const res = await fetch(new URL(path, target), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : {};
}

/**
 * `before`: `config.variables.boards` boards, each with an owner of its own
 * (a plan's board limit never stops the setup). Owners and their boards stay: `after` deletes them.
 */
// Async: Artillery awaits it (a callback argument is passed only to plain functions).
export async function createBoards(context) {
  const target = context.vars.target;
  const n = Number(context.vars.boards || 50);
  const owners = [];
  // A few at a time: registration hashes a password (argon2), a burst would only queue.
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async () => {
        const id = randomUUID();
        const password = `lt-${id.slice(0, 12)}`;
        const reg = await call(target, 'POST', '/api/auth/register', { email: `lt-ws-${id}@loadtest.invalid`, password, name: 'Нагрузочный тест' });
        const { board } = await call(target, 'POST', '/api/boards', { title: 'Доска под нагрузкой' }, reg.accessToken);
        return { token: reg.accessToken, password, board: board.id };
      }),
    );
    owners.push(...batch);
  }
  // A string: the before section's variables reach every worker serialised.
  context.vars.owners = JSON.stringify(owners);
}

/** `after`: the owners' accounts go, their boards with them (user.deleted). */
export async function deleteBoards(context) {
  const owners = JSON.parse(context.vars.owners || '[]');
  for (const o of owners) {
    await call(context.vars.target, 'DELETE', '/api/auth/account', { password: o.password }, o.token).catch(() => undefined);
  }
}

let joined = 0; // round robin over the boards, per worker: every board gets its share of each worker's users

/** Opens the socket, syncs, and starts recording what the others send. */
export function joinBoard(context, events, done) {
  const owners = JSON.parse(context.vars.owners);
  const owner = owners[joined++ % owners.length];
  const wsBase = context.vars.target.replace(/^http/, 'ws');
  const doc = new Y.Doc();
  const awareness = new awarenessProtocol.Awareness(doc);
  const me = randomUUID().slice(0, 8);
  const ws = new WebSocket(`${wsBase}/yjs/${owner.board}?token=${encodeURIComponent(owner.token)}`, { perMessageDeflate: false });
  ws.binaryType = 'nodebuffer';
  const vu = { ws, doc, awareness, me, seq: 0, closedByUs: false };
  context.vu = vu;

  const send = (build) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const e = encoding.createEncoder();
    build(e);
    ws.send(encoding.toUint8Array(e));
  };
  doc.on('update', (update, origin) => {
    if (origin === 'remote') return;
    send((e) => {
      encoding.writeVarUint(e, MESSAGE_SYNC);
      syncProtocol.writeUpdate(e, update);
    });
  });
  awareness.on('update', ({ added, updated, removed }, origin) => {
    if (origin === 'remote') return;
    send((e) => {
      encoding.writeVarUint(e, MESSAGE_AWARENESS);
      encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [...added, ...updated, ...removed]));
    });
  });
  // Only changes made after our sync count: the sync answer replays the board's history.
  let synced = false;
  doc.getMap('loadtest').observe((event) => {
    if (!synced || !event.transaction.origin) return;
    const at = now();
    for (const key of event.keysChanged) {
      if (key === me) continue;
      const mark = event.target.get(key);
      if (mark && typeof mark.t === 'number') {
        events.emit('histogram', 'ws.update_delivery', at - mark.t);
        events.emit('counter', 'ws.updates_received', 1);
      }
    }
  });
  awareness.on('change', ({ added, updated }, origin) => {
    if (!synced || origin !== 'remote') return;
    const at = now();
    for (const id of [...added, ...updated]) {
      if (id === doc.clientID) continue;
      const t = awareness.getStates().get(id)?.sentAt;
      if (typeof t === 'number') {
        events.emit('histogram', 'ws.awareness_delivery', at - t);
        events.emit('counter', 'ws.awareness_received', 1);
      }
    }
  });

  let settled = false;
  const finish = (err) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (err) {
      events.emit('counter', 'ws.join_failed', 1);
      vu.closedByUs = true;
      ws.terminate();
    }
    done(err);
  };
  const timer = setTimeout(() => finish(new Error('no sync answer in time')), JOIN_TIMEOUT_MS);
  ws.on('open', () => {
    send((e) => {
      encoding.writeVarUint(e, MESSAGE_SYNC);
      syncProtocol.writeSyncStep1(e, doc);
    });
  });
  ws.on('message', (data) => {
    const d = decoding.createDecoder(new Uint8Array(data));
    const type = decoding.readVarUint(d);
    if (type === MESSAGE_SYNC) {
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, MESSAGE_SYNC);
      const kind = syncProtocol.readSyncMessage(d, reply, doc, 'remote');
      if (encoding.length(reply) > 1) ws.send(encoding.toUint8Array(reply));
      if (kind === syncProtocol.messageYjsSyncStep2 && !synced) {
        synced = true;
        events.emit('histogram', 'ws.join_time', now() - vu.openedAt);
        finish();
      }
    } else if (type === MESSAGE_AWARENESS) {
      awarenessProtocol.applyAwarenessUpdate(awareness, decoding.readVarUint8Array(d), 'remote');
    }
  });
  ws.on('close', (code) => {
    if (!vu.closedByUs) events.emit('counter', `ws.closed_unexpectedly.${code}`, 1);
    finish(new Error(`socket closed (${code}) before the sync answer`));
  });
  ws.on('error', (err) => finish(err));
  vu.openedAt = now();
}

/** One step of editing: a document update (this user's mark in the `loadtest` map) and a cursor move. */
export function edit(context, events, done) {
  const vu = context.vu;
  if (!vu || vu.ws.readyState !== WebSocket.OPEN) return done(new Error('socket not open'));
  const seq = vu.seq++;
  // One key per user, overwritten: the document stays small however long the run.
  vu.doc.getMap('loadtest').set(vu.me, { t: now(), seq });
  events.emit('counter', 'ws.updates_sent', 1);
  vu.awareness.setLocalState({ cursor: { x: (seq * 37) % 1000, y: (seq * 53) % 800 }, sentAt: now() });
  events.emit('counter', 'ws.awareness_sent', 1);
  done();
}

/** Leaves the board: awareness removal, then a normal close. */
export function leaveBoard(context, _events, done) {
  const vu = context.vu;
  if (vu) {
    vu.closedByUs = true;
    awarenessProtocol.removeAwarenessStates(vu.awareness, [vu.doc.clientID], 'leave');
    vu.ws.close(1000);
    vu.awareness.destroy();
    vu.doc.destroy();
  }
  done();
}
