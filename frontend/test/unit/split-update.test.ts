/**
 * splitUpdate (features/board/page/realtime/splitUpdate.ts): a Yjs update cut into parts under a size
 * whose union is the original, in any order; the delete set survives; a diff (first clock not 0) too.
 */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addObject, deleteObjects, getObjects } from '@wb/board-model';
import { splitUpdate } from '../../src/features/board/page/realtime/splitUpdate.ts';

const sticky = (id: string, text: string) => ({
  id, type: 'sticky' as const, x: 0, y: 0, width: 120, height: 120, text,
  backgroundColor: '#FFF2B3', textColor: '#333333', fontSize: 14, textAlign: 'left' as const, zIndex: 0,
});

function board(clientID: number, prefix: string, n: number): Y.Doc {
  const doc = new Y.Doc();
  doc.clientID = clientID;
  for (let i = 0; i < n; i++) addObject(doc, sticky(`${prefix}${i}`, `текст ${i} `.repeat(i % 7)));
  return doc;
}

const applied = (parts: Uint8Array[]) => {
  const d = new Y.Doc();
  for (const p of parts) Y.applyUpdate(d, p);
  return d;
};

const same = (a: Y.Doc, b: Y.Doc) => {
  expect(getObjects(b).toJSON()).toEqual(getObjects(a).toJSON());
  expect(Y.encodeStateVector(b)).toEqual(Y.encodeStateVector(a));
  // Nothing left pending: every part's dependencies arrived.
  expect((b.store as unknown as { pendingStructs: unknown }).pendingStructs).toBeNull();
};

describe('splitUpdate', () => {
  it('cuts a board of two clients with deletions into parts under the size, whole again in any order', () => {
    const a = board(1, 'a', 300);
    const b = board(2, 'b', 200);
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    deleteObjects(a, ['a3', 'b7', 'a100']);
    (getObjects(a).get('a5') as Y.Map<unknown>).set('x', 40);
    const update = Y.encodeStateAsUpdate(a);
    const parts = splitUpdate(update, 4096);
    expect(parts.length).toBeGreaterThan(update.byteLength / 4096);
    for (const p of parts) expect(p.byteLength).toBeLessThanOrEqual(4096);
    same(a, applied(parts));
    same(a, applied([...parts].reverse()));
    expect(getObjects(applied(parts)).has('a3')).toBe(false);
  });

  it('cuts a diff against a state vector (what a server lacks) and leaves a small update alone', () => {
    const a = board(5, 's', 50);
    const server = new Y.Doc();
    Y.applyUpdate(server, Y.encodeStateAsUpdate(a));
    for (let i = 50; i < 400; i++) addObject(a, sticky(`s${i}`, 'офлайн '.repeat(5)));
    deleteObjects(a, ['s1']);
    const diff = Y.encodeStateAsUpdate(a, Y.encodeStateVector(server));
    const parts = splitUpdate(diff, 8192);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) Y.applyUpdate(server, p);
    same(a, server);
    const small = Y.encodeStateAsUpdate(board(6, 't', 2));
    expect(splitUpdate(small, 8192)).toEqual([small]);
  });
});
