/**
 * Sticky text as a Y.Text (issue 35 item 4) through the real server: splices typed by two editors at
 * once are accepted, merged and stored with both people's words; a viewer's splice is refused like
 * any viewer write; an old board's plain-string text made a Y.Text by an editor is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addObject, applySplice, editableText, getObjects, readBoard } from '@wb/board-model';
import { startMongo, startPostgres, type ManagedProcess } from '@wb/testkit';
import type { EmbeddedPostgresHandle } from '@wb/db';
import { createMongoStore } from '../src/store/mongo.ts';
import type { DocumentStore } from '../src/store/types.ts';
import { eventually, provider, startPlatform, startRealtime, sticky, synced, type Platform, type RunningRealtime } from './helpers.ts';

let mongo: ManagedProcess;
let pg: EmbeddedPostgresHandle;
let platform: Platform;
let store: DocumentStore;
let rt: RunningRealtime;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  [mongo, pg] = await Promise.all([startMongo(), startPostgres()]);
  platform = await startPlatform(pg.url);
  store = await createMongoStore({ url: mongo.url, dbName: 'rt_text' });
  rt = await startRealtime({ platform, store });
});

afterAll(async () => {
  for (const c of cleanup) await c();
  await rt?.stop();
  await store?.close();
  await platform?.stop();
  await Promise.all([mongo?.stop(), pg?.stop()]);
});

function track<T extends { destroy(): void }>(p: T): T {
  cleanup.push(() => p.destroy());
  return p;
}

async function storedText(boardId: string, id: string): Promise<string | undefined> {
  const s = await store.load(boardId);
  const d = new Y.Doc();
  if (s.state) Y.applyUpdate(d, s.state);
  for (const e of s.log) Y.applyUpdate(d, e.update);
  return textIn(readBoard(d).objects.find((o) => o.id === id));
}

/** A sticky's or text's content (the object union has no `text` on shapes). */
const textIn = (o: unknown): string | undefined => (o as { text?: string } | undefined)?.text;
const textOf = (doc: Y.Doc, id: string) => textIn(readBoard(doc).objects.find((o) => o.id === id));
const type = (doc: Y.Doc, id: string, index: number, insert: string) =>
  doc.transact(() => applySplice(editableText(getObjects(doc).get(id)!), { index, remove: 0, insert }));

describe('text typed together', () => {
  it('two editors typing in one sticky at once both keep their words, stored so', async () => {
    const owner = await platform.user('Анна');
    const { id, links } = await platform.board(owner, ['editor']);
    const a = track(provider(rt.wsUrl, id, owner.token));
    const b = track(provider(rt.wsUrl, id, links.editor!));
    await Promise.all([synced(a), synced(b)]);
    addObject(a.doc, sticky('s', 'Идеи:'));
    await eventually(() => expect(textOf(b.doc, 's')).toBe('Идеи:'));
    expect(getObjects(a.doc).get('s')!.get('text')).toBeInstanceOf(Y.Text);
    for (const [i, ch] of [...' Анна'].entries()) {
      type(a.doc, 's', 5 + i, ch);
      type(b.doc, 's', 5 + i, [...' Борис'][i]!);
    }
    type(b.doc, 's', textOf(b.doc, 's')!.indexOf(' Бори') + 5, 'с');
    await eventually(() => {
      const ta = textOf(a.doc, 's')!;
      expect(textOf(b.doc, 's')).toBe(ta);
      expect(ta).toHaveLength('Идеи: Анна Борис'.length);
    });
    await eventually(async () => expect(await storedText(id, 's')).toBe(textOf(a.doc, 's')));
  });

  it("a viewer's typing is refused; an editor's first edit of an old plain-string text is taken", async () => {
    const owner = await platform.user('Пётр');
    const { id, links } = await platform.board(owner, ['viewer', 'editor']);
    const ownerP = track(provider(rt.wsUrl, id, owner.token));
    await synced(ownerP);
    addObject(ownerP.doc, sticky('t', 'текст'));
    // An old board: every field a plain value, the text a string (as boards were written before Y.Text).
    ownerP.doc.transact(() => {
      const old = new Y.Map<unknown>();
      for (const [k, v] of Object.entries({ ...sticky('old', 'старый'), reactions: [] })) old.set(k, v);
      getObjects(ownerP.doc).set('old', old);
    });
    expect(getObjects(ownerP.doc).get('old')!.get('text')).toBe('старый');
    const viewer = track(provider(rt.wsUrl, id, links.viewer!, new Y.Doc(), { anon: 'viewer-text-1' }));
    await synced(viewer);
    await eventually(() => expect(textOf(viewer.doc, 't')).toBe('текст'));
    type(viewer.doc, 't', 0, 'взлом ');
    // Sentinel after the refused update on the same socket (handled in order): the viewer's cursor.
    viewer.awareness.setLocalState({ user: { id: 'anon', name: 'Гость', color: '#0f0' }, cursor: { x: 3, y: 3 } });
    await eventually(() => expect(ownerP.awareness.getStates().get(viewer.awareness.clientID)?.cursor).toEqual({ x: 3, y: 3 }));
    expect(textOf(ownerP.doc, 't')).toBe('текст');

    const editor = track(provider(rt.wsUrl, id, links.editor!));
    await synced(editor);
    await eventually(() => expect(textOf(editor.doc, 'old')).toBe('старый'));
    type(editor.doc, 'old', 6, ' текст');
    await eventually(() => expect(textOf(ownerP.doc, 'old')).toBe('старый текст'));
    expect(getObjects(ownerP.doc).get('old')!.get('text')).toBeInstanceOf(Y.Text);
    await eventually(async () => expect(await storedText(id, 'old')).toBe('старый текст'));
    expect(await storedText(id, 't')).toBe('текст');
  });
});
