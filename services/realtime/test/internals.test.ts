/**
 * What src/core/internals.ts relies on in Yjs and ws beyond their documented API. Each check fails
 * when an upgrade changes it; raise WRITTEN_FOR and the `~` pins in package.json only when they pass.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { WebSocket, WebSocketServer } from 'ws';
import { eventually } from '@wb/testkit';
import {
  WRITTEN_FOR,
  binaryFrame,
  clockOf,
  isUnplacedValue,
  keyOf,
  neighbourOf,
  onceDrained,
  parentNamed,
  singleValueOf,
  storedKeyOf,
  withoutUpdateListeners,
  writeFrameDirect,
} from '../src/core/internals.ts';

const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { dependencies: Record<string, string> };

describe('the versions internals.ts was written for', () => {
  it('are the installed ones, and package.json allows patch releases only', () => {
    for (const name of ['yjs', 'ws'] as const) {
      const installed = (require(`${name}/package.json`) as { version: string }).version;
      expect(installed.startsWith(WRITTEN_FOR[name]), `${name} ${installed}`).toBe(true);
      expect(pkg.dependencies[name], name).toMatch(new RegExp(`^~${WRITTEN_FOR[name].replaceAll('.', '\\.')}`));
    }
  });
});

describe('Yjs: update listeners kept in Y.Doc._observers', () => {
  it('detached, Yjs encodes nothing for them; the same set comes back, with one added meanwhile', () => {
    const doc = new Y.Doc();
    const heard: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => heard.push(u));
    const observers = (doc as unknown as { _observers: Map<string, Set<unknown>> })._observers;
    const before = observers.get('update');
    expect(before).toBeInstanceOf(Set);
    withoutUpdateListeners(doc, () => doc.getMap('m').set('a', 1));
    expect(heard).toHaveLength(0);
    const late: Uint8Array[] = [];
    withoutUpdateListeners(doc, () => doc.on('update', (u: Uint8Array) => late.push(u)));
    expect(observers.get('update')).toBe(before);
    doc.getMap('m').set('b', 2);
    expect(heard).toHaveLength(1);
    expect(late).toHaveLength(1);
  });
});

describe('Yjs: the fields of decoded structs', () => {
  /** A board-like document (objects → one Y.Map per object) and the update of `change`. */
  function updateOf(doc: Y.Doc, change: () => void): ReturnType<typeof Y.decodeUpdate>['structs'] {
    const updates: Uint8Array[] = [];
    const listener = (u: Uint8Array) => updates.push(u);
    doc.on('update', listener);
    change();
    doc.off('update', listener);
    return Y.decodeUpdate(Y.mergeUpdates(updates)).structs;
  }

  it('a first write names its key, an overwrite only its neighbour, which the copy resolves to the key', () => {
    const doc = new Y.Doc();
    const obj = new Y.Map<unknown>();
    const first = updateOf(doc, () => {
      doc.getMap('objects').set('o1', obj);
      obj.set('src', '/a.png');
    });
    const value = first.find((s) => keyOf(s) === 'src')!;
    expect(value).toBeDefined();
    expect(parentNamed(value)).toBe(true);
    expect(singleValueOf(value)).toEqual({ value: '/a.png' });

    const overwrite = updateOf(doc, () => obj.set('src', 'https://evil.example/x.png'));
    expect(overwrite).toHaveLength(1);
    const item = overwrite[0]!;
    expect(keyOf(item)).toBeNull();
    expect(parentNamed(item)).toBe(false);
    expect(isUnplacedValue(item)).toBe(true);
    const neighbour = neighbourOf(item)!;
    expect(neighbour.clock).toBeLessThan(clockOf(doc.store, neighbour.client));
    expect(storedKeyOf(doc.store, neighbour)).toBe('src');
    expect(singleValueOf(item)).toEqual({ value: 'https://evil.example/x.png' });
  });

  it('typed text and deletions are not values; binary and nested types are not one plain value', () => {
    const doc = new Y.Doc();
    const text = new Y.Text();
    updateOf(doc, () => doc.getMap('objects').set('t', text));
    updateOf(doc, () => text.insert(0, 'hello'));
    const typed = updateOf(doc, () => text.insert(5, ' world'));
    expect(typed.every((s) => !isUnplacedValue(s))).toBe(true);
    const m = doc.getMap('m');
    const binary = updateOf(doc, () => m.set('b', new Uint8Array([1, 2])));
    expect(binary.map(singleValueOf)).toEqual([undefined]);
    const nested = updateOf(doc, () => m.set('n', new Y.Map()));
    expect(nested.map(singleValueOf)).toEqual([undefined]);
  });
});

describe('ws: the socket and sender fields of a server-side WebSocket', () => {
  let wss: WebSocketServer;
  let url: string;
  const serverSide: WebSocket[] = [];
  beforeAll(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    wss.on('connection', (ws) => serverSide.push(ws));
    await once(wss, 'listening');
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const ws of serverSide) ws.terminate();
    await new Promise((r) => wss.close(r));
  });

  async function pair(): Promise<{ server: WebSocket; client: WebSocket }> {
    const n = serverSide.length;
    const client = new WebSocket(url);
    await once(client, 'open');
    await eventually(() => expect(serverSide.length).toBe(n + 1));
    return { server: serverSide[n]!, client };
  }

  it('an idle sender takes a pre-built frame on its TCP socket, and the client reads it as a message', async () => {
    const { server, client } = await pair();
    const got: Buffer[] = [];
    client.on('message', (data) => got.push(data as Buffer));
    expect(writeFrameDirect(server, binaryFrame(Buffer.from('one')))).toBe(true);
    server.send(Buffer.from('two'));
    expect(writeFrameDirect(server, binaryFrame(Buffer.from('three')))).toBe(true);
    await eventually(() => expect(got.map(String)).toEqual(['one', 'two', 'three']));
    client.close();
  });

  it('a closed socket is refused (the caller falls back to ws.send)', async () => {
    const { server, client } = await pair();
    client.close();
    await once(server, 'close');
    expect(writeFrameDirect(server, binaryFrame(Buffer.from('late')))).toBe(false);
  });

  it('drain of the TCP socket under ws is heard once the client reads a backlog', async () => {
    const { server, client } = await pair();
    client.pause();
    const chunk = Buffer.alloc(1 << 20);
    while (server.bufferedAmount < 8 << 20) server.send(chunk);
    let drained = false;
    onceDrained(server, () => (drained = true));
    client.resume();
    await eventually(() => expect(drained).toBe(true), 10_000);
    client.close();
  });
});
