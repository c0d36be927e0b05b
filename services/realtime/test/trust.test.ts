/**
 * Issue 32, realtime items, on the real server with stock y-protocols clients:
 * 4 presence: the identity in an awareness state is the connection's, never the client's claim;
 * 5 reactions: limited per user and board (429), one emoji grapheme each;
 * 9 images: an image's src is the board's own store or a small data URL; stored images are read
 *   with short-lived signed URLs, never a token in the URL.
 */
import http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { addObject, getObjects, PARTICIPANT_COLORS } from '@wb/board-model';
import { ERRORS } from '@wb/contracts';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { createTokenVerifier, internalHeaders, listen, type RunningServer } from '@wb/service-kit';
import { createDatabase, eventually, pngHeader, startPostgres } from '@wb/testkit';
import { createRealtimeService, type RealtimeService } from '../src/app.ts';
import { createBoardAccessClient } from '../src/access.ts';
import { createPostgresImageStore } from '../src/images/index.ts';
import { MessageType } from '../src/domain/protocol.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { provider, rawSocket, silent, startPlatform, sticky, synced, type Platform } from './helpers.ts';

const SECRET = 'test-image-url-secret-'.padEnd(40, 'x');

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let service: RealtimeService;
let server: RunningServer;
let base: string;
let wsUrl: string;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  pg = await startPostgres();
  platform = await startPlatform(pg.url);
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA, max: 4 });
  service = await createRealtimeService({
    logger: silent,
    store: createPostgresStore(pool),
    verifier: createTokenVerifier({ jwksUrl: platform.jwksUrl, headers: internalHeaders(platform.internalToken) }),
    boards: createBoardAccessClient(platform.boardsBase, undefined, { internalToken: platform.internalToken }),
    transport: platform.transport,
    images: createPostgresImageStore(pool, REALTIME_SCHEMA),
    imageUrlSecret: SECRET,
    limits: { compactIntervalMs: 60_000 },
  });
  await service.start();
  const srv = http.createServer(service.app);
  srv.on('upgrade', (req, socket, head) => service.handleUpgrade!(req, socket, head));
  server = await listen(srv, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}`;
  wsUrl = `ws://127.0.0.1:${server.port}/yjs`;
}, 120_000);

afterAll(async () => {
  for (const c of cleanup) await c();
  await service?.stop();
  await server?.close();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

function track<T extends { destroy(): void }>(p: T): T {
  cleanup.push(() => p.destroy());
  return p;
}

const colorOf = (id: string) => {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return PARTICIPANT_COLORS[h % PARTICIPANT_COLORS.length];
};

/** y-protocols' awareness encoding, written by hand so a client can claim any clientID. */
function awarenessMessage(entries: Array<{ clientId: number; clock: number; state: unknown }>): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, entries.length);
  for (const e of entries) {
    encoding.writeVarUint(inner, e.clientId);
    encoding.writeVarUint(inner, e.clock);
    encoding.writeVarString(inner, JSON.stringify(e.state));
  }
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MessageType.AWARENESS);
  encoding.writeVarUint8Array(e, encoding.toUint8Array(inner));
  return encoding.toUint8Array(e);
}

function reactionMessage(emoji: string, objectId: string, requestId: number): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MessageType.CUSTOM);
  encoding.writeVarString(e, JSON.stringify({ type: 'reaction', objectId, emoji, requestId }));
  return encoding.toUint8Array(e);
}

function customAnswers(messages: Buffer[]): any[] {
  return messages
    .map((m) => {
      const d = decoding.createDecoder(new Uint8Array(m));
      return decoding.readVarUint(d) === MessageType.CUSTOM ? JSON.parse(decoding.readVarString(d)) : null;
    })
    .filter(Boolean);
}

async function rejectedCount(reason: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('realtime_rejected_total{') && l.includes(`reason="${reason}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('presence (item 4): the server decides who an awareness state is', () => {
  it("a guest claiming the owner's id, name and colour is relayed as 'Гость' under its own id", async () => {
    const owner = await platform.user('Владелица');
    const { id, links } = await platform.board(owner, ['guest']);
    const ownerP = track(provider(wsUrl, id, owner.token));
    const guest = track(provider(wsUrl, id, links.guest!, new Y.Doc(), { anon: 'guest-device-1' }));
    await Promise.all([synced(ownerP), synced(guest)]);

    guest.awareness.setLocalState({ user: { id: owner.id, name: 'Владелица', color: colorOf(owner.id) }, cursor: { x: 5, y: 6 }, selection: [] });
    await eventually(() => expect(ownerP.awareness.getStates().get(guest.awareness.clientID)?.cursor).toEqual({ x: 5, y: 6 }));
    const seen = ownerP.awareness.getStates().get(guest.awareness.clientID) as { user: { id: string; name: string; color: string } };
    expect(seen.user.name).toBe('Гость');
    expect(seen.user.id).not.toBe(owner.id);
    expect(seen.user.id).toMatch(/^anon-[0-9a-f]+$/);
    expect(seen.user.color).toBe(colorOf(seen.user.id));
  });

  it("a signed-in viewer is shown with its own id and name, whatever it claims", async () => {
    const owner = await platform.user('Марина');
    const viewer = await platform.user('Зритель');
    const { id, links } = await platform.board(owner, ['viewer']);
    const ownerP = track(provider(wsUrl, id, owner.token));
    const viewerP = track(provider(wsUrl, id, viewer.token, new Y.Doc(), { share: links.viewer! }));
    await Promise.all([synced(ownerP), synced(viewerP)]);
    viewerP.awareness.setLocalState({ user: { id: owner.id, name: 'Марина', color: '#000000' }, cursor: { x: 1, y: 1 } });
    await eventually(() =>
      expect((ownerP.awareness.getStates().get(viewerP.awareness.clientID) as any)?.user).toEqual({
        id: viewer.id,
        name: 'Зритель',
        color: colorOf(viewer.id),
      }),
    );
  });

  it("states for another connection's clientID are dropped, the sender's own are kept", async () => {
    const owner = await platform.user('Ирина');
    const { id, links } = await platform.board(owner, ['guest']);
    const ownerP = track(provider(wsUrl, id, owner.token));
    await synced(ownerP);
    ownerP.awareness.setLocalState({ user: { id: owner.id, name: 'Ирина', color: '#E53935' }, cursor: { x: 10, y: 10 } });
    const watcher = track(provider(wsUrl, id, links.guest!, new Y.Doc(), { anon: 'watcher-device' }));
    await synced(watcher);
    await eventually(() => expect((watcher.awareness.getStates().get(ownerP.awareness.clientID) as any)?.cursor).toEqual({ x: 10, y: 10 }));

    const raw = rawSocket(`${wsUrl}/${id}?token=${links.guest}&anon=raw-device-1`);
    cleanup.push(() => raw.ws.close());
    await raw.opened;
    raw.ws.send(
      awarenessMessage([
        { clientId: ownerP.awareness.clientID, clock: 1000, state: { user: { id: owner.id, name: 'Ирина' }, cursor: { x: 999, y: 999 } } },
        { clientId: 4242, clock: 1, state: { user: { id: owner.id, name: 'Ирина' }, cursor: { x: 7, y: 7 } } },
      ]),
    );
    await eventually(() => expect((watcher.awareness.getStates().get(4242) as any)?.cursor).toEqual({ x: 7, y: 7 }));
    expect((watcher.awareness.getStates().get(4242) as any).user.name).toBe('Гость');
    expect((watcher.awareness.getStates().get(ownerP.awareness.clientID) as any).cursor).toEqual({ x: 10, y: 10 });
    expect((service.server.rooms.get(id)!.awareness.getStates().get(ownerP.awareness.clientID) as any).cursor).toEqual({ x: 10, y: 10 });
  });
});

describe('reactions (item 5)', () => {
  async function react(headers: Record<string, string>, boardId: string, objectId: string, emoji: string) {
    const r = await platform.api('POST', '/yjs/reactions', { base, headers, body: { boardId, objectId, emoji } });
    return r;
  }

  it('a signed-in viewer is limited per board: 429 with the catalogue text, over HTTP and the socket', async () => {
    const owner = await platform.user('Олег');
    const viewer = await platform.user('Быстрый');
    const { id, links } = await platform.board(owner, ['viewer']);
    const ownerP = track(provider(wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('r1'));
    await eventually(() => expect(getObjects(service.server.rooms.get(id)!.doc).has('r1')).toBe(true));

    const headers = { authorization: `Bearer ${viewer.token}`, 'x-share-token': links.viewer! };
    const answers = await Promise.all(Array.from({ length: 40 }, () => react(headers, id, 'r1', '👍')));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(12);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body).toMatchObject({ code: 'RATE_LIMITED', error: ERRORS.RATE_LIMITED.message });

    // The socket shares the same budget (same user, same board).
    const raw = rawSocket(`${wsUrl}/${id}?token=${viewer.token}&share=${links.viewer}`);
    cleanup.push(() => raw.ws.close());
    await raw.opened;
    for (let i = 0; i < 5; i++) raw.ws.send(reactionMessage('🔥', 'r1', i));
    await eventually(() => expect(customAnswers(raw.messages).length).toBe(5));
    expect(customAnswers(raw.messages).some((a) => a.ok === false && a.code === 'RATE_LIMITED')).toBe(true);
  });

  it('a reaction is one emoji grapheme: joiners alone, two emoji, NUL and a lone surrogate are refused', async () => {
    const owner = await platform.user('Вера');
    const { id } = await platform.board(owner);
    const ownerP = track(provider(wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('e1'));
    await eventually(() => expect(getObjects(service.server.rooms.get(id)!.doc).has('e1')).toBe(true));
    const headers = { authorization: `Bearer ${owner.token}` };

    for (const bad of ['\u200d\u200d\u200d', '\ufe0f', '👍👍', 'a', '\u0000', '👍\u0000', '\ud83d']) {
      const r = await react(headers, id, 'e1', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
      // NUL and lone surrogates may be caught first by the service kit's check of every string, with its text.
      const texts = bad.includes('\u0000') || bad === '\ud83d' ? /^(Реакция должна быть одним эмодзи|Недопустимые символы в строке)$/ : /^Реакция должна быть одним эмодзи$/;
      expect(r.body.error, JSON.stringify(bad)).toMatch(texts);
    }
    for (const good of ['👨‍👩‍👧', '🇷🇺', '❤️', '👍🏽']) {
      const r = await react(headers, id, 'e1', good);
      expect(r.status, good).toBe(200);
    }

    const raw = rawSocket(`${wsUrl}/${id}?token=${owner.token}`);
    cleanup.push(() => raw.ws.close());
    await raw.opened;
    raw.ws.send(reactionMessage('\u200d\u200d', 'e1', 1));
    await eventually(() => expect(customAnswers(raw.messages)).toEqual([expect.objectContaining({ ok: false, code: 'VALIDATION_ERROR' })]));
  });
});

describe('image sources (item 9): the board store or a small data URL, nothing else', () => {
  const png = (n = 200) => Buffer.concat([pngHeader(8, 8), randomBytes(n)]);
  const dataUrl = (bytes: number) => `data:image/png;base64,${Buffer.concat([pngHeader(8, 8), randomBytes(bytes)]).toString('base64')}`;
  const imageObject = (oid: string, src: string) => ({ id: oid, type: 'image' as const, x: 0, y: 0, width: 10, height: 10, src, zIndex: 0 });

  async function upload(boardId: string, token: string, bytes: Buffer<ArrayBufferLike> = png()) {
    const res = await fetch(`${base}/yjs/images/${boardId}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new Uint8Array(bytes) });
    expect(res.status).toBe(201);
    return (await res.json()) as { hash: string; url: string };
  }

  it('refuses an external src, another board’s image and an over-large data URL; accepts the board’s asset and a small data URL', async () => {
    const owner = await platform.user('Галина');
    const { id } = await platform.board(owner);
    const other = await platform.board(owner);
    const own = await upload(id, owner.token);
    const foreign = await upload(other.id, owner.token);
    const ownerP = track(provider(wsUrl, id, owner.token));
    await synced(ownerP);
    const room = () => getObjects(service.server.rooms.get(id)!.doc);

    const cases: Array<[string, string, boolean]> = [
      ['external', 'https://tracker.example/pixel.png?u=1', false],
      ['other-board', foreign.url, false],
      ['svg-data', 'data:image/svg+xml;base64,PHN2Zy8+', false],
      ['big-data', dataUrl(300 * 1024), false],
      ['asset', own.url, true],
      ['small-data', dataUrl(1024), true],
    ];
    for (const [oid, src, allowed] of cases) {
      const before = await rejectedCount('image-src');
      // One client per write: a refused update leaves its author's later ones waiting for it.
      const writer = track(provider(wsUrl, id, owner.token));
      await synced(writer);
      addObject(writer.doc, imageObject(oid, src));
      if (allowed) {
        await eventually(() => expect(room().get(oid)?.get('src')).toBe(src));
        await eventually(() => expect(getObjects(ownerP.doc).has(oid)).toBe(true));
      } else {
        await eventually(async () => expect(await rejectedCount('image-src')).toBe(before + 1));
        expect(room().has(oid), oid).toBe(false);
      }
    }
    // An existing image's src changed to an outside address is refused too.
    const editor = track(provider(wsUrl, id, owner.token));
    await synced(editor);
    await eventually(() => expect(getObjects(editor.doc).has('asset')).toBe(true));
    const before = await rejectedCount('image-src');
    (getObjects(editor.doc).get('asset') as Y.Map<unknown>).set('src', 'https://tracker.example/x.gif');
    await eventually(async () => expect(await rejectedCount('image-src')).toBe(before + 1));
    expect(room().get('asset')?.get('src')).toBe(own.url);
  });

  it('keeps a move of an object its author created a moment before, while the store is slow', async () => {
    // The check of image sources follows an overwrite to the value it replaces. When that value was
    // accepted but is not durable yet (not in the copy), it must be read from the accepted update;
    // it was refused unseen, and every later move of the drag with it.
    const owner = await platform.user('Семён');
    const { id } = await platform.board(owner);
    const writer = track(provider(wsUrl, id, owner.token));
    const watcher = track(provider(wsUrl, id, owner.token));
    await Promise.all([synced(writer), synced(watcher)]);
    const before = await rejectedCount('image-src');
    const room = service.server.rooms.get(id)!;
    const lock = await pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE board_updates IN EXCLUSIVE MODE');
      addObject(writer.doc, sticky('slow'));
      const obj = () => getObjects(writer.doc).get('slow') as Y.Map<unknown>;
      for (const x of [10, 20, 30]) obj().set('x', x);
      // Four updates accepted, none durable: the first write waits for the lock.
      await eventually(() => expect(room.accepted.size).toBe(4));
    } finally {
      await lock.query('COMMIT');
      lock.release();
    }
    await eventually(() => expect(getObjects(watcher.doc).get('slow')?.get('x')).toBe(30));
    expect(getObjects(room.doc).get('slow')?.get('x')).toBe(30);
    expect(room.accepted.size).toBe(0);
    expect(await rejectedCount('image-src')).toBe(before);
  });

  describe('signed image URLs', () => {
    let owner: { id: string; token: string };
    let board: { id: string; links: Record<string, string> };
    let hash: string;
    let bytes: Buffer<ArrayBufferLike>;
    const sign = (boardId: string, h: string, exp: number) =>
      createHmac('sha256', SECRET).update(`${boardId}/${h}/${exp}`).digest('base64url');

    beforeAll(async () => {
      owner = await platform.user('Фото');
      board = await platform.board(owner, ['viewer']);
      bytes = png(500);
      hash = (await upload(board.id, owner.token, bytes)).hash;
    });

    it('hands signed URLs to readers (headers, no token in the URL) and serves the image with one', async () => {
      const credentials: Array<Record<string, string>> = [{ authorization: `Bearer ${owner.token}` }, { 'x-share-token': board.links.viewer! }];
      for (const headers of credentials) {
        const r = await platform.api('POST', `/yjs/images/${board.id}/urls`, { base, headers, body: { hashes: [hash] } });
        expect(r.status).toBe(200);
        const url: string = r.body.urls[hash];
        expect(url).toMatch(new RegExp(`^/yjs/images/${board.id}/${hash}\\?exp=\\d+&sig=[\\w-]+$`));
        expect(url).not.toContain('token');
        expect(r.body.expiresAt).toBeGreaterThan(Date.now() + 9 * 60_000);
        const res = await fetch(`${base}${url}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
      }
      const stranger = await platform.user('Чужак');
      const r = await platform.api('POST', `/yjs/images/${board.id}/urls`, { base, headers: { authorization: `Bearer ${stranger.token}` }, body: { hashes: [hash] } });
      expect(r.status).toBe(403);
    });

    it('refuses a GET without a valid signature, with a token instead, or expired', async () => {
      const url = `${base}/yjs/images/${board.id}/${hash}`;
      const none = await fetch(url);
      expect(none.status).toBe(403);
      expect(((await none.json()) as { code: string }).code).toBe('IMAGE_URL_INVALID');
      expect((await fetch(`${url}?token=${encodeURIComponent(owner.token)}`)).status).toBe(403);
      const exp = Math.floor(Date.now() / 1000) + 600;
      expect((await fetch(`${url}?exp=${exp}&sig=${sign(board.id, hash, exp)}`)).status).toBe(200);
      // The signature names the board, the image and the expiry: change any and it fails.
      expect((await fetch(`${url}?exp=${exp + 1}&sig=${sign(board.id, hash, exp)}`)).status).toBe(403);
      const other = await platform.board(owner);
      expect((await fetch(`${url}?exp=${exp}&sig=${sign(other.id, hash, exp)}`)).status).toBe(403);
      const past = Math.floor(Date.now() / 1000) - 1;
      const expired = await fetch(`${url}?exp=${past}&sig=${sign(board.id, hash, past)}`);
      expect(expired.status).toBe(403);
      expect(((await expired.json()) as { code: string; error: string }).error).toBe(ERRORS.IMAGE_URL_EXPIRED.message);
    });
  });
});
